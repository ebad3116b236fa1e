import Foundation

/// A JSON value with ordered object keys.
///
/// Gmail's responses are built by hand rather than with `Codable` because the emulator must control
/// details `JSONEncoder` hides: 64-bit numbers as strings, omitted empty arrays, key order that matches
/// Google's examples, and `fields=` partial responses applied after the object is built.
public indirect enum JSONValue: Sendable, Equatable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        case (.array(let a), .array(let b)): a == b
        // JSON objects are unordered: parsed request bodies come back with sorted keys.
        case (.object(let a), .object(let b)):
            a.count == b.count
                && zip(a.sorted { $0.0 < $1.0 }, b.sorted { $0.0 < $1.0 }).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The value of `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    /// Compact UTF-8 serialisation (RFC 8259), as Google sends with `prettyPrint=false`.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out)
        return out
    }

    func write(into out: inout [UInt8]) {
        switch self {
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .int(let n): out.append(contentsOf: String(n).utf8)
        case .double(let d): out.append(contentsOf: String(d).utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            out.append(UInt8(ascii: "{"))
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(pair.0, into: &out)
                out.append(UInt8(ascii: ":"))
                pair.1.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ s: String, into out: inout [UInt8]) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): out.append(contentsOf: [92, 92])
            case 0x0A: out.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [92, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Parses request JSON (small bodies from clients and the control API) through Foundation.
    public static func parse(_ bytes: [UInt8]) -> JSONValue? {
        guard !bytes.isEmpty,
            let any = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        else { return nil }
        return from(any)
    }

    static func from(_ any: Any) -> JSONValue {
        switch any {
        case let s as String: return .string(s)
        case let n as NSNumber:
            if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
            if String(cString: n.objCType) == "d" || String(cString: n.objCType) == "f" {
                return .double(n.doubleValue)
            }
            return .int(n.int64Value)
        case let a as [Any]: return .array(a.map(from))
        case let d as [String: Any]: return .object(d.keys.sorted().map { ($0, from(d[$0] as Any)) })
        default: return .null
        }
    }

    /// String content, also accepting numbers (clients may send ids either way).
    public var stringValue: String? {
        switch self {
        case .string(let s): s
        case .int(let n): String(n)
        default: nil
        }
    }

    /// Integer content, also accepting decimal strings (Google's 64-bit convention).
    public var intValue: Int64? {
        switch self {
        case .int(let n): n
        case .double(let d): Int64(d)
        case .string(let s): Int64(s)
        default: nil
        }
    }

    /// Numeric content as a Double (fault probabilities).
    public var doubleValue: Double? {
        switch self {
        case .int(let n): Double(n)
        case .double(let d): d
        case .string(let s): Double(s)
        default: nil
        }
    }

    /// Array elements, or `nil` for non-arrays.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }
}

extension JSONValue {
    /// An object from pairs whose `nil` values and empty arrays are dropped: Gmail omits both.
    static func compact(_ pairs: [(String, JSONValue?)]) -> JSONValue {
        .object(
            pairs.compactMap { key, value in
                guard let value else { return nil }
                if case .array(let items) = value, items.isEmpty { return nil }
                return (key, value)
            })
    }
}
