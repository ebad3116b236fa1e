import Foundation

/// The subject of a reply: one `Re: ` in front of the subject without the reply prefixes it already carries.
///
/// Mail clients across languages prefix replies with their own word (German `AW:`, Swedish `SV:`, Polish
/// `Odp:`, Greek `ΑΠ:`, Chinese `回复：`), some count them (`Re[2]:`, `Re(2):`, `Re^2:`), and chains of
/// them grow when people using different clients answer one another. Stripping them all keeps a long thread's
/// subject readable and lets Gmail, which threads by subject among other things, keep the conversation
/// together. Prefixes are only recognised at the start, each ending in a colon (ASCII or full-width), so
/// `Re-design` or `Results: Q3` stay as they are.
///
/// Forward prefixes (`Fwd:`, `WG:`) are kept: replying to a forward is answering the forward, and every major
/// client writes `Re: Fwd: …`.
///
/// A leading list tag such as `[dev] ` (added by Mailman and similar) is kept where it stands, and reply
/// prefixes after it are stripped too: `[dev] Re: AW: plan` becomes `Re: [dev] plan`. The list software
/// moves its tag back in front of `Re:` when it relays the reply, as mutt users see every day. Tags are
/// de-duplicated, so `Re: [dev] Re: [dev] plan` also becomes `Re: [dev] plan`.
///
/// An empty subject (or one that is nothing but prefixes) gives `Re:`: that is what the recipient's client
/// would show for such a reply anyway, and it still marks the message as an answer.
///
/// ```swift
/// ReplySubject.make(from: "AW: Re[2]: SV: Plan")  // "Re: Plan"
/// ReplySubject.base("回复：Re: 计划")  // "计划"
/// ReplySubject.topicBase("WG: AW: Plan")  // "plan"
/// ```
///
/// This is the one place that knows these prefixes: the store keeps each message's ``topicBase(_:)``, which
/// the chat, the Markdown export and the emulator's threading compare, so none of them keeps a list of its own.
public enum ReplySubject {
    /// The subject for a reply to a message whose subject is `latestSubject`.
    public static func make(from latestSubject: String) -> String {
        let base = base(latestSubject)
        return base.isEmpty ? "Re:" : "Re: " + base
    }

    /// The subject with every leading reply prefix removed, list tags kept, whitespace trimmed; two subjects
    /// of one thread compare equal this way.
    public static func base(_ subject: String) -> String {
        let (tags, text) = stripped(subject, forwards: false)
        let rest = String(text).trimmingCharacters(in: .whitespacesAndNewlines)
        return (tags.map(String.init) + (rest.isEmpty ? [] : [rest])).joined(separator: " ")
    }

    /// The base of a subject's topic: every leading reply and forward prefix removed, list tags kept in front
    /// (each once), whitespace collapsed to single spaces, lowercased.
    ///
    /// Two messages whose topic bases are equal are on one topic: a chat shows a subject only where the base
    /// changes, and a reply joins a Gmail thread only when its base matches the thread's. Unlike ``base(_:)``,
    /// forward prefixes go too (the table that also tells a forward's subject): a forward carries on
    /// the topic it forwards, even though a reply to it keeps its `Fwd:`.
    public static func topicBase(_ subject: String) -> String {
        let (tags, text) = stripped(subject, forwards: true)
        return (tags + [text]).joined(separator: " ").split(whereSeparator: \.isWhitespace)
            .joined(separator: " ").lowercased()
    }

    /// The list tags met among the leading prefixes (first spelling of each), and the text after them.
    private static func stripped(_ subject: String, forwards: Bool) -> (tags: [Substring], text: Substring) {
        var rest = Substring(subject).trimmingLeadingSpace()
        var tags: [Substring] = []
        while true {
            if let after = afterReplyPrefix(rest) ?? (forwards ? afterForwardPrefix(rest) : nil) {
                rest = after.trimmingLeadingSpace()
            } else if let (tag, after) = leadingTag(rest) {
                if !tags.contains(where: { $0.lowercased() == tag.lowercased() }) { tags.append(tag) }
                rest = after.trimmingLeadingSpace()
            } else {
                break
            }
        }
        return (tags, rest)
    }

    /// The words clients put before a reply's subject, lowercased, without the colon or a counter.
    ///
    /// Compared after lowercasing, so `RE`, `Re` and `re` are one entry. These are the words localized
    /// clients (Outlook above all) write; the abbreviations are kept short of anything a subject would
    /// start with as a word of its own (`Results:` is not `Res:`).
    static let replyWords: Set<String> = Set(
        [
            "re", "aw", "antw", "antwort", "antwoord", "sv", "svar", "vs", "odp", "odg", "rif", "r", "réf", "ref",
            "res", "ynt", "cvp", "vá", "atb", "ats", "balas", "απ", "σχετ", "отв", "ответ", "відп", "одг", "回复",
            "答复", "回覆", "覆", "답장", "회신", "返信", "השב", "رد",
        ].map { $0.lowercased() })

    /// The text after a reply prefix at the start of `text` (`Re:`, `AW :`, `Re[3]:`, `回复：`); `nil` when
    /// `text` does not start with one.
    static func afterReplyPrefix(_ text: Substring) -> Substring? {
        afterPrefix(text, from: replyWords)
    }

    /// The text after a forward prefix at the start of `text` (`Fwd:`, `WG:`, `转发：`); `nil` when `text`
    /// does not start with one.
    static func afterForwardPrefix(_ text: Substring) -> Substring? {
        afterPrefix(text, from: HeaderTables.forwardSubjectPrefixes)
    }

    /// The text after a prefix whose word (without a counter, lowercased) is one of `words`.
    private static func afterPrefix(_ text: Substring, from words: Set<String>) -> Substring? {
        // Every word in the tables, with a counter and spaces, fits in 16 characters; looking further would
        // only slow down long subjects.
        guard let colon = text.prefix(16).firstIndex(where: { $0 == ":" || $0 == "：" }) else { return nil }
        var word = text[..<colon]
        while let last = word.last, last.isWhitespace { word = word.dropLast() }
        word = withoutCounter(word)
        guard !word.isEmpty, !word.contains(where: \.isWhitespace), words.contains(word.lowercased()) else {
            return nil
        }
        return text[text.index(after: colon)...]
    }

    /// The word without a trailing reply counter: `Re[2]`, `Re(2)`, `Re^2` and `Re*2` all become `Re`.
    private static func withoutCounter(_ word: Substring) -> Substring {
        var digits = word
        if let last = digits.last, last == "]" || last == ")" { digits = digits.dropLast() }
        let number = digits.reversed().prefix(while: \.isASCIIDigit).count
        guard number > 0 else { return word }
        let head = digits.dropLast(number)
        guard let opener = head.last else { return word }
        let bracketed = (opener == "[" && word.last == "]") || (opener == "(" && word.last == ")")
        let raised = (opener == "^" || opener == "*") && word.last?.isASCIIDigit == true
        return bracketed || raised ? head.dropLast() : word
    }

    /// A list tag at the start of `text`: `[name]` with no nested bracket, at most 64 characters; not a
    /// bare number, which is a counter rather than a tag.
    private static func leadingTag(_ text: Substring) -> (Substring, Substring)? {
        guard text.first == "[", let close = text.prefix(66).firstIndex(of: "]") else { return nil }
        let inside = text[text.index(after: text.startIndex)..<close]
        guard !inside.isEmpty, !inside.contains("["), !inside.allSatisfy(\.isASCIIDigit) else { return nil }
        let end = text.index(after: close)
        return (text[..<end], text[end...])
    }
}

extension Substring {
    fileprivate func trimmingLeadingSpace() -> Substring {
        drop(while: \.isWhitespace)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
