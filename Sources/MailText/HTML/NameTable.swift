/// A fixed map from lowercase ASCII names (tags, attributes, CSS properties) to small values, looked up by
/// the raw bytes libxml2 hands over, so that no `String` is built for each tag or attribute of a document.
///
/// Open addressing over an FNV-1a hash; the keys live in one byte array. Built once, read-only after.
struct NameTable<Value: Sendable>: Sendable {
    private var slots: [Int32]
    private var keyBytes: [UInt8] = []
    private var keyStarts: [Int32] = []
    private var keyLengths: [Int32] = []
    private var values: [Value] = []
    private let mask: Int

    /// Creates a table from names; a later duplicate replaces the earlier value.
    init(_ entries: [(String, Value)]) {
        var capacity = 16
        while capacity < entries.count * 4 { capacity *= 2 }
        self.mask = capacity - 1
        self.slots = Array(repeating: -1, count: capacity)
        for (name, value) in entries { self.insert(Array(name.utf8), value) }
    }

    private mutating func insert(_ key: [UInt8], _ value: Value) {
        var slot = key.withUnsafeBufferPointer { Self.hash($0) } & self.mask
        while self.slots[slot] >= 0 {
            let index = Int(self.slots[slot])
            let start = Int(self.keyStarts[index])
            if self.keyBytes[start..<(start + Int(self.keyLengths[index]))].elementsEqual(key) {
                self.values[index] = value
                return
            }
            slot = (slot + 1) & self.mask
        }
        self.slots[slot] = Int32(self.values.count)
        self.keyStarts.append(Int32(self.keyBytes.count))
        self.keyLengths.append(Int32(key.count))
        self.keyBytes.append(contentsOf: key)
        self.values.append(value)
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
                var start = Int(self.keyStarts[index])
                var equal = true
                for byte in name {
                    if self.keyBytes[start] != byte {
                        equal = false
                        break
                    }
                    start += 1
                }
                if equal { return self.values[index] }
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
