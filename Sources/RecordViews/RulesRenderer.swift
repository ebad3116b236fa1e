import ChatmailStore
import TerminalUI
import TextFormatting

/// The rules as a table, and one-line descriptions of rules and of what a change did.
public struct RulesRenderer: Sendable {
    public var palette: Palette

    public init(palette: Palette) {
        self.palette = palette
    }

    /// One line per rule: its id, right-aligned and dim, and what it does.
    public func render(_ rules: [Rule]) -> String {
        let idWidth = rules.map { String($0.id.rawValue).count }.max() ?? 1
        var out = ""
        for rule in rules {
            let id = String(rule.id.rawValue)
            out +=
                String(repeating: " ", count: idWidth - id.count) + palette.paint(id, .dim) + "  "
                + Self.describe(rule.draft) + "\n"
        }
        return out
    }

    /// `deny sender spam@example.com, and archive`.
    public static func describe(_ draft: Rule.Draft) -> String {
        let pattern = TerminalSafeText.singleLine(draft.pattern)
        let shown = draft.field == .subject || draft.field == .text ? "\"\(pattern)\"" : pattern
        return "\(draft.action.rawValue) \(draft.field.rawValue) \(shown)" + (draft.archives ? ", and archive" : "")
    }

    /// A line per rule asked for: added, updated (archiving turned on), or there already.
    public static func outcome(of drafts: [Rule.Draft], _ change: RuleChange) -> String {
        var out = ""
        for draft in drafts {
            if let rule = change.added.first(where: { $0.draft.identity == draft.identity }) {
                out += "Added rule \(rule.id.rawValue): \(describe(rule.draft)).\n"
            } else if let rule = change.updated.first(where: { $0.draft.identity == draft.identity }) {
                out += "Updated rule \(rule.id.rawValue): \(describe(rule.draft)).\n"
            } else {
                out += "That rule exists already: \(describe(draft)).\n"
            }
        }
        return out
    }

    /// What re-judging the stored mail did, in a line or two.
    public static func effect(of change: RuleChange) -> String {
        var out = ""
        let messages =
            change.messagesRedecided == 1 ? "1 stored message" : "\(change.messagesRedecided) stored messages"
        let conversations =
            change.conversations.count == 1 ? "1 conversation" : "\(change.conversations.count) conversations"
        out +=
            change.messagesRedecided == 0
            ? "No stored message changed.\n" : "Applied to \(messages) in \(conversations).\n"
        if change.messagesArchived > 0 {
            let ids = change.archiveActions.map { "#\($0.id.rawValue)" }.joined(separator: ", ")
            out +=
                "Archived \(change.messagesArchived == 1 ? "1 message" : "\(change.messagesArchived) messages"); "
                + "queued for Gmail as action \(ids).\n"
        }
        return out
    }
}
