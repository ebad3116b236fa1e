/// One header field of a message, unfolded, with its value still as raw bytes.
///
/// Values stay bytes because a header may carry raw 8-bit text in an undeclared charset; decoding is
/// done by the code that knows what the field means (addresses, RFC 2047 text, parameters).
public struct HeaderField: Sendable, Equatable {
    /// The field name as written (`Content-Type`); compare with ``matches(_:)``.
    public var name: String
    /// The unfolded value: CRLF/LF followed by whitespace replaced by the whitespace, leading space trimmed.
    public var value: [UInt8]

    public init(name: String, value: [UInt8]) {
        self.name = name
        self.value = value
    }

    /// Case-insensitive name comparison.
    public func matches(_ other: String) -> Bool {
        // Names are ASCII in practice; comparing their bytes with A–Z folded is the same test without the
        // two lowercased copies, which made header lookups a few percent of an import.
        if let asciiMatch = Self.asciiCaseInsensitiveEqual(name.utf8, other.utf8) { return asciiMatch }
        return name.count == other.count && name.lowercased() == other.lowercased()
    }

    /// Whether two names are equal ignoring case, decided on ASCII bytes; `nil` when a non-ASCII byte is
    /// reached first. Once the names differ at an ASCII letter after an equal ASCII prefix, no Unicode
    /// case mapping or canonical equivalence can make them equal, so the answer is final there.
    static func asciiCaseInsensitiveEqual(_ left: String.UTF8View, _ right: String.UTF8View) -> Bool? {
        // Native strings are contiguous: compare through pointers, with the iterators as the fallback.
        let contiguous = left.withContiguousStorageIfAvailable { leftBuffer in
            right.withContiguousStorageIfAvailable { rightBuffer in
                ASCIIComparison(leftBuffer, rightBuffer)
            }
        }
        if case let comparison?? = contiguous { return comparison.isEqual }
        var leftBytes = left.makeIterator()
        var rightBytes = right.makeIterator()
        while true {
            switch (leftBytes.next(), rightBytes.next()) {
            case (nil, nil):
                return true
            case (let byte?, nil), (nil, let byte?):
                return byte < 0x80 ? false : nil
            case (let leftByte?, let rightByte?):
                guard leftByte < 0x80, rightByte < 0x80 else { return nil }
                if asciiLowercased(leftByte) != asciiLowercased(rightByte) { return false }
            }
        }
    }

    /// The ASCII comparison of two contiguous names; `isEqual` is `nil` when a non-ASCII byte decides.
    private struct ASCIIComparison {
        var isEqual: Bool?

        init(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) {
            let shared = min(left.count, right.count)
            for index in 0..<shared {
                let leftByte = left[index]
                let rightByte = right[index]
                guard leftByte < 0x80, rightByte < 0x80 else {
                    isEqual = nil
                    return
                }
                if HeaderField.asciiLowercased(leftByte) != HeaderField.asciiLowercased(rightByte) {
                    isEqual = false
                    return
                }
            }
            if left.count == right.count {
                isEqual = true
            } else {
                isEqual = (left.count > shared ? left[shared] : right[shared]) < 0x80 ? false : nil
            }
        }
    }

    fileprivate static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}

/// A message's header fields in order, with case-insensitive lookup.
public struct HeaderFields: Sendable, Equatable {
    public var fields: [HeaderField]

    public init(_ fields: [HeaderField] = []) {
        self.fields = fields
    }

    /// The first field named `name`, as raw bytes.
    public func first(_ name: String) -> [UInt8]? {
        fields.first { $0.matches(name) }?.value
    }

    /// Every field named `name`, in order.
    public func all(_ name: String) -> [[UInt8]] {
        fields.filter { $0.matches(name) }.map(\.value)
    }

    /// `true` when a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.matches(name) }
    }
}
