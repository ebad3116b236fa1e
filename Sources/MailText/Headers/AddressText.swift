/// Turns address lexemes back into display text: the address string and the decoded display name.
enum AddressText {
    /// `true` for comment tokens, which are never part of an address.
    static func isComment(_ token: AddressTokenizer.Token) -> Bool {
        if case .comment = token { return true }
        return false
    }

    /// The address inside angle brackets: whitespace and comments dropped, a route or `mailto:` removed.
    static func address(from lexemes: [AddressTokenizer.Lexeme]) -> String {
        var tokens = lexemes.map(\.token).filter { !isComment($0) }
        if let colon = tokens.lastIndex(of: .special(UInt8(ascii: ":"))) {
            tokens = Array(tokens[(colon + 1)...])
        }
        var bytes: [UInt8] = []
        for token in tokens { bytes += addressBytes(token) }
        return clean(bytes)
    }

    /// `local@domain` from the two tokens around a bare `@`.
    static func addrSpec(local: AddressTokenizer.Token, domain: AddressTokenizer.Token) -> String {
        let localBytes = addressBytes(local)
        let domainBytes = addressBytes(domain)
        guard !localBytes.isEmpty, !domainBytes.isEmpty else { return "" }
        return clean(localBytes + [UInt8(ascii: "@")] + domainBytes)
    }

    /// A token's bytes as they belong in an address; a quoted local part keeps its quotes.
    private static func addressBytes(_ token: AddressTokenizer.Token) -> [UInt8] {
        switch token {
        case .atom(let bytes), .literal(let bytes): bytes
        case .quoted(let bytes): [UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")]
        case .special(let byte): [byte]
        case .comment: []
        }
    }

    /// Decodes address bytes (UTF-8 per RFC 6532) and removes whitespace and controls.
    private static func clean(_ bytes: [UInt8]) -> String {
        let text = HeaderText.sanitized(CharsetDecoder.decode(bytes, charset: nil))
        // Whitespace is dropped except inside a quoted local part (`"john doe"@x.org`).
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x20 && ($0 < 0x09 || $0 > 0x0D) }) {
            return text  // ASCII without White_Space (the usual address): nothing to drop
        }
        var result = String.UnicodeScalarView()
        var inQuotes = false
        for scalar in text.unicodeScalars {
            if scalar == "\"" { inQuotes.toggle() }
            if inQuotes || !scalar.isWhitespace { result.append(scalar) }
        }
        return String(result)
    }

    /// The display name spelled by a phrase, decoded; `nil` when it is empty.
    static func phrase(_ lexemes: [AddressTokenizer.Lexeme]) -> String? {
        var bytes: [UInt8] = []
        for lexeme in lexemes {
            let piece: [UInt8]
            switch lexeme.token {
            case .atom(let text), .quoted(let text), .literal(let text): piece = text
            case .special(let byte): piece = [byte]
            case .comment: continue
            }
            if lexeme.spaceBefore, !bytes.isEmpty { bytes.append(0x20) }
            bytes += piece
        }
        return displayName(bytes)
    }

    /// The first non-empty comment, decoded, for use as a name when there is no phrase.
    static func firstComment(_ lexemes: [AddressTokenizer.Lexeme]) -> String? {
        for lexeme in lexemes {
            if case .comment(let text) = lexeme.token, let name = displayName(text) { return name }
        }
        return nil
    }

    /// RFC 2047-decodes and whitespace-collapses a name; `nil` when nothing remains.
    private static func displayName(_ bytes: [UInt8]) -> String? {
        let name = HeaderText.collapsingWhitespace(EncodedWords.decode(bytes))
        return name.isEmpty ? nil : name
    }
}
