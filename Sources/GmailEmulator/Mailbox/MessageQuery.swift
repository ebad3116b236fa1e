import Foundation
import MailText

/// The subset of Gmail's `q=` search syntax that chatmail uses, compiled into a predicate over stored messages.
///
/// Supported: `in:`/`label:` (and `-in:`), `is:unread|read|starred|important`, `from:`, `to:`,
/// `subject:`, `rfc822msgid:`, `after:`/`before:` (epoch seconds or YYYY/MM/DD), `newer_than:Nd`;
/// anything else is a case-insensitive text match on the raw message, close enough for tests.
struct MessageQuery: Sendable {
    enum Term: Sendable {
        case label(String)
        case header(String, String)
        case messageID(String)
        case after(Int64)
        case before(Int64)
        case text(String)
        case never
    }

    var terms: [(negated: Bool, term: Term)] = []

    /// Whether the query names SPAM or TRASH explicitly (then `includeSpamTrash` is implied).
    var mentionsSpamOrTrash: Bool {
        terms.contains {
            !$0.negated
                && {
                    if case .label(let l) = $0.term { return l == "SPAM" || l == "TRASH" }
                    return false
                }($0)
        }
    }

    init(_ q: String, labels: LabelCatalog, nowMs: Int64) {
        for token in MessageQuery.tokenize(q) {
            var word = token
            let negated = word.hasPrefix("-")
            if negated { word.removeFirst() }
            guard let colon = word.firstIndex(of: ":") else {
                if !word.isEmpty { terms.append((negated, .text(word.lowercased()))) }
                continue
            }
            let op = word[..<colon].lowercased()
            let value = String(word[word.index(after: colon)...]).trimmingCharacters(
                in: CharacterSet(charactersIn: "\""))
            let term: Term
            switch op {
            case "in", "label":
                if value.lowercased() == "chats" || value.lowercased() == "chat" {
                    term = .label("CHAT")
                } else if value.lowercased() == "anywhere" {
                    continue
                } else {
                    term = labels.lookup(searchName: value).map(Term.label) ?? .never
                }
            case "is":
                switch value.lowercased() {
                case "unread": term = .label("UNREAD")
                case "read":
                    terms.append((!negated, .label("UNREAD")))
                    continue
                case "starred": term = .label("STARRED")
                case "important": term = .label("IMPORTANT")
                default: term = .never
                }
            case "from", "to", "subject", "cc": term = .header(op, value.lowercased())
            case "rfc822msgid": term = .messageID(MailboxState.normaliseMessageID(value))
            case "after": term = MessageQuery.date(value).map(Term.after) ?? .never
            case "before": term = MessageQuery.date(value).map(Term.before) ?? .never
            case "newer_than", "older_than":
                let ms = MessageQuery.age(value).map { nowMs - $0 } ?? 0
                term = op == "newer_than" ? .after(ms) : .before(ms)
            default: term = .text(word.lowercased())
            }
            terms.append((negated, term))
        }
    }

    static func tokenize(_ q: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        var quoted = false
        for c in q {
            if c == "\"" {
                quoted.toggle()
                current.append(c)
                continue
            }
            if c.isWhitespace && !quoted {
                if !current.isEmpty {
                    tokens.append(current)
                    current = ""
                }
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    /// Epoch seconds or `YYYY/MM/DD` (UTC midnight) → epoch milliseconds.
    static func date(_ value: String) -> Int64? {
        if let seconds = Int64(value) { return seconds * 1000 }
        let fields = value.split(whereSeparator: { $0 == "/" || $0 == "-" }).compactMap { Int($0) }
        guard fields.count == 3 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (fields[0], fields[1], fields[2])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar.date(from: components).map { Int64($0.timeIntervalSince1970 * 1000) }
    }

    static func age(_ value: String) -> Int64? {
        guard let unit = value.last, let n = Int64(value.dropLast()) else { return nil }
        switch unit {
        case "d": return n * 86_400_000
        case "m": return n * 30 * 86_400_000
        case "y": return n * 365 * 86_400_000
        default: return nil
        }
    }

    func matches(_ message: StoredMessage) -> Bool {
        var headers: HeaderFields?
        func header(_ name: String) -> String {
            if headers == nil { headers = HeaderBlock.parse(message.raw[...]).fields }
            return headers?.all(name).map { String(decoding: $0, as: UTF8.self) }.joined(separator: ", ").lowercased()
                ?? ""
        }
        for (negated, term) in terms {
            let hit: Bool
            switch term {
            case .label(let id): hit = message.labelIds.contains(id)
            case .header(let name, let value): hit = header(name).contains(value)
            case .messageID(let id): hit = MailboxState.normaliseMessageID(header("Message-ID")) == id.lowercased()
            case .after(let ms): hit = message.internalDateMs >= ms
            case .before(let ms): hit = message.internalDateMs < ms
            case .text(let text): hit = String(decoding: message.raw, as: UTF8.self).lowercased().contains(text)
            case .never: hit = false
            }
            if hit == negated { return false }
        }
        return true
    }
}
