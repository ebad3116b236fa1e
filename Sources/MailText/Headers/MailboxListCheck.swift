extension AddressListParser {
    /// `true` when the value is a strict RFC 5322 mailbox list: every entry is `[phrase] <local@domain>` or
    /// `local@domain`, comments allowed, nothing else.
    ///
    /// ``parse(_:)-([UInt8])`` salvages what it can from anything; this check tells a real `From` apart from
    /// an mbox `From ` line mangled into a header (`From: bob@host  Fri Aug 23 11:08:46 2002`), which parses
    /// to an address but is not a mailbox list.
    public static func isWellFormedMailboxList(_ raw: [UInt8]) -> Bool {
        let tokens = AddressTokenizer.tokenize(raw).map(\.token).filter { !AddressText.isComment($0) }
        var entries: [[AddressTokenizer.Token]] = [[]]
        var inAngle = false
        for token in tokens {
            switch token {
            case .special(UInt8(ascii: "<")): inAngle = true
            case .special(UInt8(ascii: ">")): inAngle = false
            case .special(UInt8(ascii: ",")) where !inAngle:
                entries.append([])
                continue
            default: break
            }
            entries[entries.count - 1].append(token)
        }
        // Empty entries (`a@x,,b@y`) are allowed by the obsolete syntax of RFC 5322 §4.4.
        let mailboxes = entries.filter { !$0.isEmpty }
        return !mailboxes.isEmpty && mailboxes.allSatisfy(isMailbox)
    }

    /// `[phrase] <[route:]addr-spec>` or a bare addr-spec.
    private static func isMailbox(_ tokens: [AddressTokenizer.Token]) -> Bool {
        guard let open = tokens.firstIndex(of: .special(UInt8(ascii: "<"))) else { return isAddrSpec(tokens[...]) }
        guard tokens.last == .special(UInt8(ascii: ">")), open < tokens.count - 1,
            tokens[..<open].allSatisfy(isPhraseWord)
        else { return false }
        var inner = tokens[(open + 1)..<(tokens.count - 1)]
        // obsolete route
        if let colon = inner.lastIndex(of: .special(UInt8(ascii: ":"))) { inner = inner[(colon + 1)...] }
        return isAddrSpec(inner)
    }

    /// `local@domain`: a word, `@`, then a domain name or literal.
    private static func isAddrSpec(_ tokens: ArraySlice<AddressTokenizer.Token>) -> Bool {
        guard tokens.count == 3, tokens[tokens.startIndex + 1] == .special(UInt8(ascii: "@")) else { return false }
        switch (tokens[tokens.startIndex], tokens[tokens.startIndex + 2]) {
        case (.atom, .atom), (.quoted, .atom), (.atom, .literal), (.quoted, .literal): return true
        default: return false
        }
    }

    private static func isPhraseWord(_ token: AddressTokenizer.Token) -> Bool {
        switch token {
        case .atom, .quoted: true
        default: false
        }
    }
}
