import Foundation
import GRDB

/// The row id of a `rule`; `rules list` shows it and `rules remove` takes it.
public struct RuleID: RawRepresentable, Hashable, Comparable, Sendable, Codable, DatabaseValueConvertible {
    public var rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A user's rule: what to do with incoming mail whose sender, domain, subject or text matches.
///
/// Rules judge incoming mail only: the account's own messages are never allowed, denied or muted.
/// When several rules match one message, allow wins over deny, and deny over mute; among rules of one
/// action, the oldest (lowest id) is the one reported as deciding.
public struct Rule: Sendable, Equatable, Hashable {
    /// What a matching rule does.
    public enum Action: String, Sendable, CaseIterable, Codable, DatabaseValueConvertible {
        /// Let the conversation through: it beats deny and mute, and passes the screener.
        case allow
        /// Hide the conversation from the main list (`conversations --filtered` shows it).
        case deny
        /// Keep the conversation, but its messages never count as unread.
        case mute

        /// Higher wins: allow beats deny, deny beats mute.
        var precedence: Int {
            switch self {
            case .allow: 3
            case .deny: 2
            case .mute: 1
            }
        }
    }

    /// The part of a message a rule looks at.
    public enum Field: String, Sendable, CaseIterable, Codable, DatabaseValueConvertible {
        /// One sender address, compared by identity key (case, and Gmail's dots and `+tags`, ignored).
        case sender
        /// The sender's domain, or any subdomain of it.
        case domain
        /// Whole words of the subject, in any case.
        case subject
        /// Whole words of the message text, in any case.
        case text
    }

    public var id: RuleID
    public var action: Action
    public var field: Field
    /// Normalized for its field (see ``RulePattern``).
    public var pattern: String
    /// Deny rules only: the messages the rule matches are archived on Gmail too.
    public var archives: Bool
    public var createdAtMs: Int64

    public init(id: RuleID, action: Action, field: Field, pattern: String, archives: Bool, createdAtMs: Int64) {
        self.id = id
        self.action = action
        self.field = field
        self.pattern = pattern
        self.archives = archives
        self.createdAtMs = createdAtMs
    }

    /// A rule as the user asked for it, before it has an id.
    public struct Draft: Sendable, Equatable, Hashable {
        public var action: Action
        public var field: Field
        public var pattern: String
        public var archives: Bool

        /// Normalizes `pattern` for `field`; throws ``RuleError`` when it cannot match anything, or when
        /// `archives` is asked of a rule that does not deny.
        public init(action: Action, field: Field, pattern: String, archives: Bool = false) throws {
            guard !archives || action == .deny else { throw RuleError.archiveNeedsDeny }
            self.action = action
            self.field = field
            self.pattern = try RulePattern.normalize(pattern, for: field)
            self.archives = archives
        }

        /// A stored rule's draft: its pattern is normalized already.
        init(normalized action: Action, field: Field, pattern: String, archives: Bool) {
            self.action = action
            self.field = field
            self.pattern = pattern
            self.archives = archives
        }
    }

    /// The same rule, without its id.
    public var draft: Draft { Draft(normalized: action, field: field, pattern: pattern, archives: archives) }
}

extension Rule.Draft {
    /// What makes two rules one (the table's UNIQUE key): `archives` is a setting of the rule.
    public var identity: Rule.Draft { Rule.Draft(normalized: action, field: field, pattern: pattern, archives: false) }
}

/// Why a rule cannot be added, removed or imported.
public enum RuleError: Error, Sendable, Equatable {
    /// A sender pattern that is not an email address.
    case notAnAddress(String)
    /// A domain pattern that is not a domain.
    case notADomain(String)
    /// A subject or text pattern with no letters or digits in it.
    case noWords(String)
    /// `--archive` on a rule that does not deny.
    case archiveNeedsDeny
    /// `rules remove` named a rule the account does not have.
    case unknownRule(RuleID)
}

extension RuleError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .notAnAddress(let pattern):
            "\(RuleError.quoted(pattern)) is not an email address; use --on domain for a whole domain."
        case .notADomain(let pattern):
            "\(RuleError.quoted(pattern)) is not a domain (like example.com)."
        case .noWords(let pattern):
            "\(RuleError.quoted(pattern)) has no letters or digits to match; give a word or a phrase."
        case .archiveNeedsDeny:
            "--archive goes with deny rules only."
        case .unknownRule(let id):
            "There is no rule \(id.rawValue); `chatmail rules` lists them."
        }
    }

    /// Patterns come from the user's terminal or a file: show them with any control character escaped.
    static func quoted(_ text: String) -> String {
        var shown = "\""
        for scalar in text.prefix(80).unicodeScalars {
            if scalar.properties.generalCategory == .control || scalar == "\"" || scalar == "\\" {
                shown += scalar == "\"" ? "\\\"" : scalar == "\\" ? "\\\\" : "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown + (text.count > 80 ? "…\"" : "\"")
    }
}
