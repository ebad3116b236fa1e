/// Finds the header block Outlook (and others) put above the quoted original instead of an attribution line.
///
/// ```
/// ________________________________
/// From: Ann <ann@x.org>
/// Sent: Monday, 1 January 2024 10:00
/// To: Bob
/// Subject: RE: Lunch
/// ```
/// Everything from the block on is the quoted original. The block opens with "From:" or with a date ("Sent:",
/// "Date:"; some clients put it first) and must show more than a lone "From: the whole team" line: a dated
/// "Sent:"/"Date:" line with one other header, or two of recipient, subject and date, and a subject or an
/// address. Under a rule line (`____`, `-----`, "-----Original Message-----") one other header is enough.
enum OutlookHeaderBlock {
    /// Lines after the first header searched for the rest of the block.
    static let window = 6

    /// The index where the quote starts (the rule above the block if any), when line `index` opens a header block.
    static func start(at index: Int, in lines: [Substring]) -> Int? {
        guard let first = HeaderLine(lines[index]), first.key == .from || first.key == .sent else { return nil }
        var keys: Set<HeaderKey> = [first.key]
        var datedSent = first.key == .sent && first.value.contains(where: \.isNumber)
        var addressed = isAddress(first.value)
        var cursor = index + 1
        while cursor < lines.count && cursor <= index + window {
            let line = lines[cursor]
            if line.isBlankLine { break }
            // Lines that are not headers continue a wrapped value ("From: Ann [mailto:\n  ann@x.org]").
            if let header = HeaderLine(line) {
                keys.insert(header.key)
                if header.key == .sent && header.value.contains(where: \.isNumber) { datedSent = true }
                addressed = addressed || isAddress(header.value)
            } else {
                addressed = addressed || isAddress(line)
            }
            cursor += 1
        }
        let rule = ruleAbove(index, in: lines)
        let others = keys.subtracting([first.key, .replyTo]).count
        // Without a subject, the block must name an address: "From: Berlin\nTo: Paris\nDate: 5 March 2024" is an
        // itinerary.
        let identified = keys.contains(.subject) || addressed
        let evidence: Bool
        if rule != nil {
            evidence = others >= 1
        } else if datedSent {
            evidence = others >= 1 && identified
        } else {
            evidence = keys.intersection([.sent, .to, .subject]).count >= 2 && keys.contains(.from) && identified
        }
        guard evidence else { return nil }
        return rule ?? index
    }

    /// True when the value holds an address: "ann@x.org", "Ann <ann@x.org>", "[mailto:…]".
    private static func isAddress(_ value: Substring) -> Bool {
        value.utf8.contains(UInt8(ascii: "@"))
    }

    /// The index of a rule (`____`, `-----`) or a dashed separator directly above (up to two blank lines between).
    private static func ruleAbove(_ index: Int, in lines: [Substring]) -> Int? {
        var cursor = index - 1
        while cursor >= 0 && lines[cursor].isBlankLine && index - cursor <= 3 { cursor -= 1 }
        guard cursor >= 0 else { return nil }
        if isRule(lines[cursor]) { return cursor }
        // Any "-----Something-----" right above the block belongs to it, also in a language (or a mis-decoded
        // charset, "Urspr�ngliche") that ``OriginalMessageSeparator`` does not know.
        return dashedPhrase(lines[cursor]) != nil ? cursor : nil
    }

    /// A line of eight or more underscores, dashes or box-drawing dashes, as clients draw above a header block.
    static func isRule(_ line: Substring) -> Bool {
        let body = line.trimmed.trimmingBold
        return body.count >= 8 && body.allSatisfy { "_-—–─━".contains($0) }
    }
}

/// Recognizes "-----Original Message-----" separators (Outlook, Thunderbird, phones, localized).
enum OriginalMessageSeparator {
    /// True for a dashed separator line naming the original message.
    static func matches(_ line: Substring) -> Bool {
        guard let phrase = dashedPhrase(line) else { return false }
        return HeaderTables.originalMessage.contains { phrase.hasPrefix($0) }
    }
}

/// The text between the dashes of a "----- Phrase -----" line (also `*bold*`), trimmed and lowercased, or nil.
func dashedPhrase(_ line: Substring) -> String? {
    let start = line.trimmedLeading.utf8
    guard start.starts(with: "--".utf8) || start.starts(with: "*-".utf8) else { return nil }  // fast exit
    let body = line.trimmed.trimmingBold
    guard body.utf8.starts(with: "--".utf8), body.utf8.last == UInt8(ascii: "-") else { return nil }
    var inner = body
    while inner.first == "-" { inner = inner.dropFirst() }
    while inner.last == "-" { inner = inner.dropLast() }
    let phrase = inner.trimmed
    guard !phrase.isEmpty, phrase.count <= 60 else { return nil }
    return phrase.lowercased()
}

extension Substring {
    /// The text without the `*` that HTML-to-text conversion puts around bold text.
    var trimmingBold: Substring {
        var text = self
        while text.first == "*" { text = text.dropFirst() }
        while text.last == "*" { text = text.dropLast() }
        return text
    }
}
