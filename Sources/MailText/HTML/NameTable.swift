/// A fixed map from lowercase ASCII names (tags, attributes, CSS properties) to small values, looked up by
/// the raw bytes libxml2 hands over, so that no `String` is built for each tag or attribute of a document.
///
/// Open addressing over an FNV-1a hash. The tables are built once, as static constants, and never change or
/// go away, so their storage is plain memory that is never freed: a lookup then costs no reference counting
/// and no bounds checks, which mattered because it runs for every tag and attribute of every mail.
struct NameTable<Value: Sendable>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Int32>
    private let keyBytes: UnsafeMutablePointer<UInt8>
    private let keyStarts: UnsafeMutablePointer<Int32>
    private let keyLengths: UnsafeMutablePointer<Int32>
    private let values: UnsafeMutablePointer<Value>
    private let mask: Int

    /// Creates a table from names; a later duplicate replaces the earlier value.
    init(_ entries: [(String, Value)]) {
        var unique: [(key: [UInt8], value: Value)] = []
        for (name, value) in entries {
            let key = Array(name.utf8)
            if let index = unique.firstIndex(where: { $0.key == key }) {
                unique[index].value = value
            } else {
                unique.append((key, value))
            }
        }
        var capacity = 16
        while capacity < unique.count * 4 { capacity *= 2 }
        self.mask = capacity - 1
        self.slots = .allocate(capacity: capacity)
        self.slots.initialize(repeating: -1, count: capacity)
        let totalBytes = unique.reduce(0) { $0 + $1.key.count }
        self.keyBytes = .allocate(capacity: max(1, totalBytes))
        self.keyStarts = .allocate(capacity: max(1, unique.count))
        self.keyLengths = .allocate(capacity: max(1, unique.count))
        self.values = .allocate(capacity: max(1, unique.count))
        var offset = 0
        for (index, entry) in unique.enumerated() {
            for (position, byte) in entry.key.enumerated() { self.keyBytes[offset + position] = byte }
            self.keyStarts[index] = Int32(offset)
            self.keyLengths[index] = Int32(entry.key.count)
            (self.values + index).initialize(to: entry.value)
            offset += entry.key.count
            var slot = entry.key.withUnsafeBufferPointer { Self.hash($0) } & self.mask
            while self.slots[slot] >= 0 { slot = (slot + 1) & self.mask }
            self.slots[slot] = Int32(index)
        }
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash)
    }

    /// The value stored for `name`, compared byte for byte (callers lowercase first when case does not matter).
    func value(for name: UnsafeBufferPointer<UInt8>) -> Value? {
        var slot = Self.hash(name) & self.mask
        while true {
            let index = Int(self.slots[slot])
            if index < 0 { return nil }
            if Int(self.keyLengths[index]) == name.count {
                let key = self.keyBytes + Int(self.keyStarts[index])
                var position = 0
                while position < name.count && key[position] == name[position] { position += 1 }
                if position == name.count { return self.values[index] }
            }
            slot = (slot + 1) & self.mask
        }
    }

    /// The value stored for a NUL-terminated name.
    func value(for name: UnsafePointer<UInt8>) -> Value? {
        var length = 0
        while name[length] != 0 { length += 1 }
        return self.value(for: UnsafeBufferPointer(start: name, count: length))
    }
}
