import Foundation
import MailText

/// A message handed to `messages.send` or `drafts.*`, with the header edits Gmail makes before it
/// stores and sends one.
///
/// The header section is rebuilt from the parsed (unfolded) fields, one line each with CRLF; the body
/// after the blank line is kept byte for byte.
struct SubmittedMessage: Sendable {
    private(set) var fields: [HeaderField]
    private let body: ArraySlice<UInt8>

    init(raw: [UInt8]) {
        let (parsed, bodyStart) = HeaderBlock.parse(raw[...])
        fields = parsed.fields
        body = raw[bodyStart...]
    }

    /// The message as it is stored: the edited header section, a blank line, the unchanged body.
    var bytes: [UInt8] {
        var out: [UInt8] = []
        for field in fields {
            out += Array(field.name.utf8) + Array(": ".utf8) + field.value + [13, 10]
        }
        return out + [13, 10] + body
    }

    func value(_ name: String) -> [UInt8]? { fields.first { $0.matches(name) }?.value }

    /// Lowercased addresses of To, Cc and Bcc: Gmail sends to exactly these.
    var recipients: [String] {
        fields.filter { $0.matches("To") || $0.matches("Cc") || $0.matches("Bcc") }
            .flatMap { AddressListParser.parse($0.value) }.map { $0.address.lowercased() }
    }

    /// Message-IDs named by In-Reply-To and References, without angle brackets.
    var references: [String] {
        fields.filter { $0.matches("In-Reply-To") || $0.matches("References") }
            .flatMap { SubmittedMessage.messageIDs(in: String(decoding: $0.value, as: UTF8.self)) }
    }

    /// The decoded Subject, or "" without one.
    var subject: String { value("Subject").map(EncodedWords.decode) ?? "" }

    /// Removes every field named `name` (Bcc: recipients must not see it, and Gmail keeps no copy of it).
    mutating func remove(_ name: String) { fields.removeAll { $0.matches(name) } }

    /// Replaces the first field named `name` (dropping any repeats), or appends it when absent.
    mutating func set(_ name: String, _ value: String) {
        let field = HeaderField(name: name, value: Array(value.utf8))
        guard let index = fields.firstIndex(where: { $0.matches(name) }) else {
            fields.append(field)
            return
        }
        fields[index] = field
        fields = fields.enumerated().filter { $0.offset <= index || !$0.element.matches(name) }.map(\.element)
    }

    /// Makes From name one of `allowed` addresses: otherwise Gmail substitutes the primary address,
    /// keeping the display name, so nobody can send as an address the account does not own.
    mutating func restrictSender(to allowed: Set<String>, primary: String) {
        let from = value("From").map { AddressListParser.parse($0) } ?? []
        if let address = from.first?.address.lowercased(), allowed.contains(address) { return }
        if let name = from.first?.name, !name.isEmpty {
            let quoted = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            set("From", "\"\(quoted)\" <\(primary)>")
        } else {
            set("From", primary)
        }
    }

    /// The `<...>` tokens of a Message-ID list, or its whitespace-separated words when it has none.
    static func messageIDs(in text: String) -> [String] {
        var ids: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            ids.append(String(rest[rest.index(after: open)..<close]).trimmingCharacters(in: .whitespaces))
            rest = rest[rest.index(after: close)...]
        }
        if ids.isEmpty { ids = text.split(whereSeparator: \.isWhitespace).map(String.init) }
        return ids.filter { !$0.isEmpty }
    }

    /// The Message-ID of a stored message, without angle brackets.
    static func messageID(of raw: [UInt8]) -> String? {
        HeaderBlock.parse(raw[...]).fields.first("Message-ID").flatMap {
            messageIDs(in: String(decoding: $0, as: UTF8.self)).first
        }
    }
}
