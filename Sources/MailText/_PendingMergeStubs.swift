// TEMPORARY: minimal stand-ins for APIs being written on the mailtext-headers branch, so the MIME
// layer compiles and its own tests run meanwhile. Deleted when that branch merges; never shipped.
import Foundation

public enum HeaderBlock {
    public static func parse(_ bytes: ArraySlice<UInt8>) -> (fields: HeaderFields, bodyStart: Int) {
        var fields: [HeaderField] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            var end = index
            while end < bytes.endIndex && bytes[end] != 0x0A { end += 1 }
            var line = Array(bytes[index..<end])
            if line.last == 0x0D { line.removeLast() }
            let next = end < bytes.endIndex ? end + 1 : end
            if line.isEmpty { return (HeaderFields(fields), next) }
            if line.first == 0x20 || line.first == 0x09, !fields.isEmpty {
                fields[fields.count - 1].value += line
            } else if let colon = line.firstIndex(of: 0x3A) {
                var value = Array(line[(colon + 1)...])
                while value.first == 0x20 || value.first == 0x09 { value.removeFirst() }
                fields.append(HeaderField(name: String(decoding: line[..<colon], as: UTF8.self), value: value))
            }
            index = next
        }
        return (HeaderFields(fields), bytes.endIndex)
    }
}

public struct HeaderParameters: Sendable, Equatable {
    public var value: String
    public var parameters: [String: String]

    public static func parse(_ raw: [UInt8]) -> HeaderParameters {
        let text = String(decoding: raw, as: UTF8.self)
        let pieces = text.split(separator: ";")
        var parameters: [String: String] = [:]
        for piece in pieces.dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            let value = pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            if parameters[name] == nil { parameters[name] = value }
        }
        return HeaderParameters(
            value: (pieces.first.map(String.init) ?? "").trimmingCharacters(in: .whitespaces).lowercased(), parameters: parameters)
    }
}

public enum CharsetDecoder {
    public static func decode(_ bytes: [UInt8], charset: String?) -> String { String(decoding: bytes, as: UTF8.self) }
}

public enum EncodedWords {
    public static func decode(_ raw: [UInt8]) -> String { String(decoding: raw, as: UTF8.self) }
}

public enum AddressListParser {
    public static func parse(_ raw: [UInt8]) -> [MailAddress] {
        String(decoding: raw, as: UTF8.self).split(separator: ",").compactMap { piece in
            let text = piece.trimmingCharacters(in: .whitespaces)
            if let open = text.firstIndex(of: "<"), let close = text.firstIndex(of: ">"), open < close {
                return MailAddress(name: String(text[..<open]), address: String(text[text.index(after: open)..<close]))
            }
            return text.contains("@") ? MailAddress(address: text) : nil
        }
    }
}

public enum MailDate {
    public static func parse(_ value: String) -> Int64? { nil }
}

// TEMPORARY stand-ins for the mailtext-html branch.
public struct HTMLSanitizer: Sendable {
    public struct Options: Sendable {
        public var blockRemoteImages: Bool = true
        public init(blockRemoteImages: Bool = true) { self.blockRemoteImages = blockRemoteImages }
    }
    public init(options: Options = .init()) {}
    public func sanitize(_ html: String) -> String { html }
}

public struct HTMLConversion: Sendable, Equatable {
    public var text: String
    public var fullText: String
    public var removedQuotes: Bool
}

public enum HTMLToText {
    public static func convert(_ html: String) -> HTMLConversion {
        HTMLConversion(text: html, fullText: html, removedQuotes: false)
    }
}

// TEMPORARY stand-ins for the mailtext-plain branch.
public struct PlainTextCleaning: Sendable, Equatable {
    public var text: String
    public var removedQuote: Bool
    public var removedSignature: Bool
    public var forwarded: Bool
}

public enum PlainTextCleaner {
    public static func clean(_ text: String, isFlowed: Bool = false, delSp: Bool = false) -> PlainTextCleaning {
        PlainTextCleaning(text: text, removedQuote: false, removedSignature: false, forwarded: false)
    }
}

public enum FormatFlowed {
    public static func decode(_ text: String, delSp: Bool) -> String { text }
}
