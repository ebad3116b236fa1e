import ChatmailStore
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
        let draft = try Rule.Draft(action: .deny, field: .sender, pattern: hostile)
        let rule = Self.rule(2, .deny, .sender, draft.pattern)
        let subject = RuleSubject(senders: [draft.pattern], subject: "", text: "")
        let printed = [
            Rules.Test.explanation(try #require(RuleSet([rule]).explain(subject)), subject: subject, fromMe: false),
            Rules.Test.explanation(nil, subject: subject, fromMe: false),
            Rules.Test.explanation(nil, subject: subject, fromMe: true),
            RuleTable.describe(draft),
        ]
        for text in printed {
            #expect(text.contains("evil.example"), "\(text)")
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }, "\(text)")
        }
    }
}
