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
        name.count == other.count && name.lowercased() == other.lowercased()
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
