import ChatmailStore
import RecordViews
import Testing

@testable import ChatmailCLI

/// What `rules` and `rules test` print about rules and senders, which come from users, files and mail.
@Suite struct RuleTextTests {
    static func rule(_ id: Int64, _ action: Rule.Action, _ field: Rule.Field, _ pattern: String) -> Rule {
        Rule(
            id: RuleID(rawValue: id), action: action, field: field, pattern: pattern, archives: false,
            createdAtMs: 0)
    }

    @Test("a domain rule's reason names the author it matched, not merely the first one")
    func matchedAuthor() throws {
        let rule = Self.rule(1, .deny, .domain, "ads.example")
        let subject = RuleSubject(senders: ["pat@example.net", "promo@ads.example"], subject: "Hi", text: "")
        let decision = try #require(RuleSet([rule]).explain(subject))
        let text = Rules.Test.explanation(decision, subject: subject, fromMe: false)
        #expect(text.contains("the sender promo@ads.example is at ads.example"), "\(text)")
    }

    @Test("control characters in a sender from mail or in a stored pattern never reach the terminal")
    func controlCharactersEscaped() throws {
        let hostile = "\u{1B}]0;owned\u{7}\u{1B}[2Jx@evil.example"
        // No rule takes such a pattern any more; one stored before that rule still prints safely.
        #expect(throws: RuleError.notAnAddress(hostile)) {
            try Rule.Draft(action: .deny, field: .sender, pattern: hostile)
        }
        let rule = Self.rule(2, .deny, .sender, hostile)
        let draft = rule.draft
        let subject = RuleSubject(senders: [hostile], subject: "", text: "")
        let printed = [
            Rules.Test.explanation(try #require(RuleSet([rule]).explain(subject)), subject: subject, fromMe: false),
            Rules.Test.explanation(nil, subject: subject, fromMe: false),
            Rules.Test.explanation(nil, subject: subject, fromMe: true),
            RulesRenderer.describe(draft),
        ]
        for text in printed {
            #expect(text.contains("evil.example"), "\(text)")
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }, "\(text)")
        }
    }

    @Test("each rule asked for is reported as added, updated (archiving turned on) or already there")
    func outcomeLines() throws {
        let archiving = try Rule.Draft(action: .deny, field: .domain, pattern: "ads.example", archives: true)
        let fresh = try Rule.Draft(action: .mute, field: .text, pattern: "digest")
        let known = try Rule.Draft(action: .allow, field: .sender, pattern: "pat@example.net")
        var change = RuleChange()
        change.updated = [Self.rule(4, .deny, .domain, "ads.example")]
        change.updated[0].archives = true
        change.added = [Self.rule(9, .mute, .text, "digest")]
        let lines = RulesRenderer.outcome(of: [archiving, fresh, known], change).split(separator: "\n")
        #expect(
            lines == [
                "Updated rule 4: deny domain ads.example, and archive.", "Added rule 9: mute text \"digest\".",
                "That rule exists already: allow sender pat@example.net.",
            ])
    }
}
