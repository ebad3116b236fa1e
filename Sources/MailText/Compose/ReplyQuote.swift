import Foundation

/// The earlier message quoted in a reply: an attribution line and the text with `>` prefixes.
///
/// The reply goes below the quote (bottom-posting), the way mutt and aerc write it and their users expect
/// to read it: the context first, the answer after. The attribution reads
/// `On Wed, 25 Nov 2026 at 21:39, Ann Smith wrote:`, a form every quote detector knows (chatmail's own
/// included), written without locale settings so it is the same on every machine.
///
/// ```swift
/// let quote = ReplyQuote(author: ann, date: sent, timeZone: .current, text: "Lunch at noon?\n> Where?")
/// quote.withReplyBelow("Noon works.")
/// // On Wed, 25 Nov 2026 at 12:01, Ann wrote:
/// // > Lunch at noon?
/// // >> Where?
/// //
/// // Noon works.
/// ```
public struct ReplyQuote: Sendable, Equatable {
    /// `On <date>, <name> wrote:`.
    public var attribution: String
    /// The quoted lines, each starting with `>`.
    public var lines: [String]

    /// Quotes `text`, written by `author` at `date` (shown in `timeZone`).
    ///
    /// Blank lines at both ends are dropped, and trailing whitespace on each line (it carries no meaning in
    /// plain text and would only force the body into quoted-printable). A line already quoted gets one more
    /// `>` with no space (`> x` becomes `>> x`), as mutt writes nested quotes; an empty line becomes a bare
    /// `>`, so no quoted line ends in a space.
    public init(author: MailAddress, date: Date, timeZone: TimeZone, text: String) {
        let name = author.name.map(HeaderEncoding.cleaned).flatMap { $0.isEmpty ? nil : $0 } ?? author.address
        attribution = "On \(Self.attributionDate(date, timeZone: timeZone)), \(name) wrote:"
        var body = Self.lines(of: text).map { $0.trimmingTrailingWhitespace() }
        while body.first?.isEmpty == true { body.removeFirst() }
        while body.last?.isEmpty == true { body.removeLast() }
        lines = body.map { line in
            if line.isEmpty { return ">" }
            return line.hasPrefix(">") ? ">" + line : "> " + line
        }
    }

    /// The attribution and the quoted lines, separated by LF.
    public var text: String {
        ([attribution] + lines).joined(separator: "\n")
    }

    /// The quote, a blank line, then `reply`: bottom-posting. The result ends with a line break.
    public func withReplyBelow(_ reply: String) -> String {
        let answer = reply.hasSuffix("\n") || reply.isEmpty ? reply : reply + "\n"
        return text + "\n\n" + answer
    }

    /// `Wed, 25 Nov 2026 at 21:39`.
    static func attributionDate(_ date: Date, timeZone: TimeZone) -> String {
        let clock = WallClock(date, secondsFromGMT: timeZone.secondsFromGMT(for: date))
        return "\(MailDate.weekdayNames[clock.weekday]), \(clock.day) \(MailDate.monthNames[clock.month - 1]) "
            + "\(clock.year) at \(MailDate.twoDigits(clock.hour)):\(MailDate.twoDigits(clock.minute))"
    }

    /// The lines of `text`, split at CRLF, LF or a lone CR.
    static func lines(of text: String) -> [Substring] {
        var lines: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            // "\r\n" is one Character in Swift, so this sees every break convention once.
            if text[index].isNewline {
                lines.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        if start < text.endIndex { lines.append(text[start...]) }
        return lines
    }
}

extension Substring {
    fileprivate func trimmingTrailingWhitespace() -> String {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " || self[index(before: end)] == "\t" {
            end = index(before: end)
        }
        return String(self[startIndex..<end])
    }
}
