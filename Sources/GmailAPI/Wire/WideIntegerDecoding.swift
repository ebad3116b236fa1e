import Foundation

// Gmail sends 64-bit values (historyId, internalDate, History.id) as decimal strings, because JSON
// numbers lose precision past 2^53 in JavaScript. These helpers read either form: the
// string is what Gmail documents, the number is accepted defensively.

extension KeyedDecodingContainer {
    /// Decodes a `UInt64` sent as a decimal string (or, defensively, a number).
    func decodeWideUInt64(forKey key: Key) throws -> UInt64 {
        guard let value = try decodeWideUInt64IfPresent(forKey: key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "missing \(key.stringValue)"))
        }
        return value
    }

    /// Decodes an optional `UInt64` sent as a decimal string (or a number).
    func decodeWideUInt64IfPresent(forKey key: Key) throws -> UInt64? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let text = try? decode(String.self, forKey: key) {
            guard let value = UInt64(text) else {
                // The value itself stays out of the message: it is not secret, but messages stay short.
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: self, debugDescription: "\(key.stringValue) is not a decimal uint64 string")
            }
            return value
        }
        return try decode(UInt64.self, forKey: key)
    }

    /// Decodes an optional `Int64` sent as a decimal string (or a number).
    func decodeWideInt64IfPresent(forKey key: Key) throws -> Int64? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let text = try? decode(String.self, forKey: key) {
            guard let value = Int64(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: self, debugDescription: "\(key.stringValue) is not a decimal int64 string")
            }
            return value
        }
        return try decode(Int64.self, forKey: key)
    }

    /// Decodes an array that Gmail omits when empty.
    func decodeArrayOrEmpty<Element: Decodable>(_ type: [Element].Type, forKey key: Key) throws -> [Element] {
        try decodeIfPresent(type, forKey: key) ?? []
    }
}

extension KeyedEncodingContainer {
    /// Encodes a 64-bit value the way Gmail does: as a decimal string.
    mutating func encodeWide<Value: BinaryInteger>(_ value: Value?, forKey key: Key) throws {
        if let value { try encode(String(value), forKey: key) }
    }
}
