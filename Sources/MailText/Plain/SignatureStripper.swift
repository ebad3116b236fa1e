/// Removes the sender's signature: the block after a "-- " separator, or a trailing mobile-client footer.
///
/// Runs after ``QuoteStripper``, so "the end of the message" is the end of the reply, and stops at a forwarded
/// message marker: a signature above a forward never swallows the forwarded content.
public enum SignatureStripper {
    /// Lines after a bare "--" (no trailing space) that still count as a signature.
    static let maximumBareSeparatorLines = 10
    /// A line longer than this after a bare "--" means it was not a signature separator.
    static let maximumBareSeparatorLineLength = 72

    /// Footers phone and web clients append, matched at the start of the last non-empty line (lowercased).
    static let footerPrefixes: [String] = [
        "sent from my ", "sent from mail for windows", "get outlook for ", "sent from yahoo mail", "sent from outlook",
        "sent via ", "von meinem ", "gesendet von meinem ", "envoyé de mon ", "envoyé depuis mon ", "enviado desde mi ",
        "inviato da ", "verzonden vanaf mijn ", "verzonden met ", "enviado do meu ", "skickat från min ",
        "wysłane z mojego ", "wysłano z mojego ", "отправлено с ", "отправлено из ", "发自我的", "从我的",
    ]
    /// Footers recognized by their ending ("iPhoneから送信").
    static let footerSuffixes: [String] = ["から送信", "から送信しました"]

    /// Removes the signature from the lines.
    ///
    /// A signature is kept when removing it would leave no visible text: a message that is only a signature
    /// (or only "Sent from my iPhone") still shows something.
    /// - Returns: the remaining lines and whether anything was removed.
    public static func strip(_ lines: [Substring]) -> (kept: [Substring], removed: Bool) {
        let end = lines.firstIndex { $0.startsWithBytes(ForwardDetector.markerPrefix) } ?? lines.count
        var kept = Array(lines[..<end])
        var removed = false

        if let separator = separatorIndex(in: kept) {
            let candidate = Array(kept[..<separator])
            if candidate.hasVisibleText {
                kept = candidate
                removed = true
            }
        }
        if let footer = kept.lastIndex(where: { !$0.isBlankLine }), isFooter(kept[footer]) {
            let candidate = Array(kept[..<footer])
            if candidate.hasVisibleText {
                kept = candidate
                removed = true
            }
        }
        return (kept + lines[end...], removed)
    }

    /// The first "-- " separator, or a bare "--" followed only by a few short lines.
    static func separatorIndex(in lines: [Substring]) -> Int? {
        if let standard = lines.firstIndex(where: { $0 == "-- " }) { return standard }
        guard let bare = lines.lastIndex(where: { $0.trimmedTrailing == "--" }) else { return nil }
        let after = lines[(bare + 1)...].filter { !$0.isBlankLine }
        guard after.count <= maximumBareSeparatorLines,
            after.allSatisfy({ $0.count <= maximumBareSeparatorLineLength && !$0.isQuotedLine })
        else { return nil }
        return bare
    }

    /// True for a mobile or web client footer line.
    static func isFooter(_ line: Substring) -> Bool {
        let body = line.trimmed
        guard body.count <= 80 else { return false }
        let lowered = body.lowercased()
        return footerPrefixes.contains { lowered.hasPrefix($0) } || footerSuffixes.contains { lowered.hasSuffix($0) }
    }
}
