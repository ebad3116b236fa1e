/// Parses address headers (`From`, `To`, `Cc`, `Reply-To`) into mailboxes.
///
/// This is a tokenizer-based RFC 5322 §3.4 parser with the obsolete forms of §4.4, made forgiving for real
/// mail: it never splits on raw commas, returns group members, lets a comment serve as the name
/// (`bob@x (Bob Smith)`), recovers from unbalanced quotes and brackets, and drops entries with no address.
///
/// ```swift
/// AddressListParser.parse("\"Last, First\" <x@y>, Friends: a@x, b@y;")
/// // [("Last, First", "x@y"), (nil, "a@x"), (nil, "b@y")]
/// ```
public enum AddressListParser {
    /// Parses a raw (unfolded) address header value.
    ///
    /// Names are RFC 2047-decoded after tokenizing, unquoted, unescaped and whitespace-collapsed; raw 8-bit
    /// names are read as UTF-8, else windows-1252. Addresses lose angle brackets, routes (`@a,@b:`), `mailto:`
    /// and whitespace around `@`.
    public static func parse(_ raw: [UInt8]) -> [MailAddress] {
        let lexemes = AddressTokenizer.tokenize(raw)
        var addresses: [MailAddress] = []
        var entry = Entry()
        var index = 0
        while index < lexemes.count {
            let lexeme = lexemes[index]
            index += 1
            guard case .special(let byte) = lexeme.token else {
                entry.append(lexeme)
                continue
            }
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: ";"):
                addresses += entry.mailboxes()
                entry = Entry()
            case UInt8(ascii: ":") where entry.angle == nil && !entry.hasAt:
                // `Friends: a@x, b@y;` — the group's name is not an address; its members follow.
                entry = Entry()
            case UInt8(ascii: "<") where entry.angle == nil:
                var angle: [AddressTokenizer.Lexeme] = []
                while index < lexemes.count {
                    let inner = lexemes[index]
                    if inner.token == .special(UInt8(ascii: ">")) {
                        index += 1
                        break
                    }
                    // Without a closing `>`, a comma ends the address unless it separates an obsolete route.
                    if inner.token == .special(UInt8(ascii: ",")), !startsWithAt(angle) { break }
                    angle.append(inner)
                    index += 1
                }
                entry.angle = angle
            case UInt8(ascii: ">"):
                continue  // A stray closer: nothing to recover.
            default:
                entry.append(lexeme)
            }
        }
        addresses += entry.mailboxes()
        return addresses
    }

    /// Parses an address header already held as a string.
    public static func parse(_ text: String) -> [MailAddress] {
        parse(Array(text.utf8))
    }

    /// `true` when an angle address starts with `@`, the obsolete route form `<@a,@b:user@host>`.
    private static func startsWithAt(_ lexemes: [AddressTokenizer.Lexeme]) -> Bool {
        lexemes.first?.token == .special(UInt8(ascii: "@"))
    }
}

/// One comma-separated entry being collected: the lexemes outside angle brackets and the angle address.
private struct Entry {
    var outside: [AddressTokenizer.Lexeme] = []
    var angle: [AddressTokenizer.Lexeme]?
    /// Lexemes seen before the angle address began (the display name phrase).
    var beforeAngle: [AddressTokenizer.Lexeme] = []

    /// `true` when an `@` has been seen outside angle brackets.
    var hasAt: Bool {
        outside.contains { $0.token == .special(UInt8(ascii: "@")) }
    }

    mutating func append(_ lexeme: AddressTokenizer.Lexeme) {
        outside.append(lexeme)
        if angle == nil { beforeAngle.append(lexeme) }
    }

    /// The mailboxes this entry denotes: one for an angle address, possibly several for bare addr-specs.
    func mailboxes() -> [MailAddress] {
        if let angle {
            let address = AddressText.address(from: angle)
            if !address.isEmpty {
                let name = AddressText.phrase(beforeAngle) ?? AddressText.firstComment(outside + angle)
                return [MailAddress(name: name, address: address)]
            }
        }
        let bare = bareMailboxes(outside)
        return bare.isEmpty && !hasAt ? archiveMailbox(outside) : bare
    }

    /// Reads the spam-proofed form mailing list archives (pipermail, mbox exports) write:
    /// `bob at example.com (Bob Smith)`. Only `local at dotted.domain`, so prose names are not mistaken for it.
    private func archiveMailbox(_ lexemes: [AddressTokenizer.Lexeme]) -> [MailAddress] {
        let words = lexemes.filter { !AddressText.isComment($0.token) }
        guard words.count >= 3 else { return [] }
        for index in 1..<(words.count - 1) where words[index].token == .atom(Array("at".utf8)) {
            guard case .atom(let domain) = words[index + 1].token, domain.contains(UInt8(ascii: ".")),
                case .atom = words[index - 1].token
            else { continue }
            let address = AddressText.addrSpec(local: words[index - 1].token, domain: words[index + 1].token)
            let name = AddressText.phrase(Array(words[..<(index - 1)])) ?? AddressText.firstComment(lexemes)
            return address.isEmpty ? [] : [MailAddress(name: name, address: address)]
        }
        return []
    }

    /// Reads `name local@domain (comment)` sequences without angle brackets.
    private func bareMailboxes(_ lexemes: [AddressTokenizer.Lexeme]) -> [MailAddress] {
        var result: [MailAddress] = []
        var rest = lexemes[...]
        while let at = rest.firstIndex(where: { $0.token == .special(UInt8(ascii: "@")) }) {
            let words = rest[..<at].filter { !AddressText.isComment($0.token) }
            guard let local = words.last, at + 1 < rest.endIndex,
                let domainIndex = rest[(at + 1)...].firstIndex(where: { !AddressText.isComment($0.token) })
            else { break }
            let domain = rest[domainIndex]
            let address = AddressText.addrSpec(local: local.token, domain: domain.token)
            let nameLexemes = Array(words.dropLast())
            let after = rest[(domainIndex + 1)...]
            let nextAt = after.firstIndex { $0.token == .special(UInt8(ascii: "@")) }
            // Comments up to the next address belong to this one: `bob@x (Bob Smith)`.
            let trailing = after[..<(nextAt.map { max(after.startIndex, $0 - 1) } ?? after.endIndex)]
            let name =
                AddressText.phrase(nameLexemes)
                ?? AddressText.firstComment(Array(rest[..<at]) + Array(trailing))
            if !address.isEmpty { result.append(MailAddress(name: name, address: address)) }
            rest = nextAt == nil ? after[after.endIndex...] : after[trailing.endIndex...]
        }
        return result
    }
}
