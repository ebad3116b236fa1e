/// Finds the header block Outlook (and others) put above the quoted original instead of an attribution line.
///
/// ```
/// ________________________________
/// From: Ann <ann@x.org>
/// Sent: Monday, 1 January 2024 10:00
/// To: Bob
/// Subject: RE: Lunch
/// ```
/// Everything from the block on is the quoted original. A lone "From:" line is not enough: the block must have at
/// least two of date, recipient and subject within the next few lines.
enum OutlookHeaderBlock {
    /// Lines after "From:" searched for the rest of the block.
    static let window = 6

    /// The index where the quote starts (the underscore rule above the block if any), when line `index` opens a
    /// header block.
    static func start(at index: Int, in lines: [Substring]) -> Int? {
        guard let first = HeaderLine(lines[index]), first.key == .from else { return nil }
        var sawSent = false
        var sawTo = false
        var sawSubject = false
        var cursor = index + 1
        while cursor < lines.count && cursor <= index + window {
            let line = lines[cursor]
            if line.isBlankLine { break }
            if let header = HeaderLine(line) {
                switch header.key {
                case .sent: sawSent = true
                case .to: sawTo = true
                case .subject: sawSubject = true
                case .cc, .replyTo, .from: break
                }
            }
            cursor += 1
        }
        let evidence = (sawSent ? 1 : 0) + (sawTo ? 1 : 0) + (sawSubject ? 1 : 0)
        guard evidence >= 2 else { return nil }
        return ruleAbove(index, in: lines) ?? index
    }

    /// The index of a `____` rule or a dashed separator directly above (blank lines allowed between).
    private static func ruleAbove(_ index: Int, in lines: [Substring]) -> Int? {
        var cursor = index - 1
        while cursor >= 0 && lines[cursor].isBlankLine && index - cursor <= 2 { cursor -= 1 }
        guard cursor >= 0 else { return nil }
        let rule = lines[cursor].trimmed
        if rule.count >= 8 && rule.allSatisfy({ $0 == "_" }) { return cursor }
        // Any "-----Something-----" right above the block belongs to it, also in a language (or a mis-decoded
        // charset, "Urspr�ngliche") that ``OriginalMessageSeparator`` does not know.
        return dashedPhrase(lines[cursor]) != nil ? cursor : nil
    }
}

/// Recognizes "-----Original Message-----" separators (Outlook, Thunderbird, localized).
enum OriginalMessageSeparator {
    /// Lowercased phrases found between the dashes.
    static let phrases: [String] = [
        "original message", "ursprüngliche nachricht", "message d'origine", "message d’origine",
        "mensaje original", "messaggio originale", "oorspronkelijk bericht", "mensagem original",
        "ursprungligt meddelande", "oryginalna wiadomość", "исходное сообщение", "元のメッセージ", "原始邮件",
    ]

    /// True for a dashed separator line naming the original message.
    static func matches(_ line: Substring) -> Bool {
        guard let phrase = dashedPhrase(line) else { return false }
        return phrases.contains(phrase)
    }
}

/// The text between the dashes of a "----- Phrase -----" line, trimmed and lowercased, or nil.
func dashedPhrase(_ line: Substring) -> String? {
    guard line.trimmedLeading.utf8.starts(with: "--".utf8) else { return nil }  // fast exit for most lines
    let body = line.trimmed
    guard body.utf8.starts(with: "--".utf8), body.utf8.last == UInt8(ascii: "-") else { return nil }
    var inner = body
    while inner.first == "-" { inner = inner.dropFirst() }
    while inner.last == "-" { inner = inner.dropLast() }
    let phrase = inner.trimmed
    guard !phrase.isEmpty, phrase.count <= 40 else { return nil }
    return phrase.lowercased()
}
