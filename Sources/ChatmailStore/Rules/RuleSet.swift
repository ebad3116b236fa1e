/// What rules look at in one message.
public struct RuleSubject: Sendable {
    /// The identity keys of the message's authors (usually one).
    public var senders: [String]
    public var subject: String
    /// The bubble text: what the message says, without quotes and signatures.
    public var text: String

    public init(senders: [String], subject: String, text: String) {
        self.senders = senders
        self.subject = subject
        self.text = text
    }

    /// The authors of `message`, by identity key, with its subject and bubble text.
    public init(_ message: MessageInput) {
        self.init(senders: message.authors.map(\.normalizedAddress), subject: message.subject, text: message.bodyText)
    }
}

/// The rule that decides a message, and every rule that matched it.
public struct RuleDecision: Sendable, Equatable {
    /// The winner: the oldest matching rule of the strongest action (allow, then deny, then mute).
    public var rule: Rule
    /// Every matching rule, the winner first, then by precedence and age.
    public var matches: [Rule]

    public var action: Rule.Action { rule.action }
}

/// An account's rules, prepared for judging many messages.
///
/// Rules are checked strongest action first, so the first match decides, and the subject and text are
/// folded into words only when a rule reaches them.
public struct RuleSet: Sendable {
    public let rules: [Rule]
    private let ordered: [Rule]

    public init(_ rules: [Rule]) {
        self.rules = rules
        ordered = rules.sorted { ($0.action.precedence, $1.id) > ($1.action.precedence, $0.id) }
    }

    public var isEmpty: Bool { rules.isEmpty }

    /// The rule that decides `subject`, or `nil` when none matches.
    public func decide(_ subject: RuleSubject) -> Rule? {
        guard !ordered.isEmpty else { return nil }
        var folded = FoldedSubject(subject)
        return ordered.first { matches($0, &folded) }
    }

    /// Every rule that matches `subject`, the deciding one first; `nil` when none does.
    public func explain(_ subject: RuleSubject) -> RuleDecision? {
        var folded = FoldedSubject(subject)
        let matching = ordered.filter { matches($0, &folded) }
        guard let first = matching.first else { return nil }
        return RuleDecision(rule: first, matches: matching)
    }

    private func matches(_ rule: Rule, _ folded: inout FoldedSubject) -> Bool {
        switch rule.field {
        case .sender:
            return folded.subject.senders.contains(rule.pattern)
        case .domain:
            return folded.subject.senders.contains { sender in
                RulePattern.domain(of: sender).map { RulePattern.domain($0, isCoveredBy: rule.pattern) } ?? false
            }
        case .subject:
            return folded.subjectWords.contains(rule.pattern)
        case .text:
            return folded.textWords.contains(rule.pattern)
        }
    }

    /// A subject whose subject and text are folded into words on first use, then kept: sender rules
    /// are checked without reading the text at all.
    private struct FoldedSubject {
        let subject: RuleSubject
        private var subjectCache: RuleWords?
        private var textCache: RuleWords?

        init(_ subject: RuleSubject) { self.subject = subject }

        var subjectWords: RuleWords {
            mutating get {
                if let subjectCache { return subjectCache }
                let words = RuleWords(subject.subject)
                subjectCache = words
                return words
            }
        }

        var textWords: RuleWords {
            mutating get {
                if let textCache { return textCache }
                let words = RuleWords(subject.text)
                textCache = words
                return words
            }
        }
    }
}
