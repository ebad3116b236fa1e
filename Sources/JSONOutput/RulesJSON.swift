import ChatmailStore
import TextFormatting

extension JSONRenderer {
    /// `rules --json`: an array of `{id, action, on, pattern, archive, createdAt}`, oldest first.
    public func render(_ rules: [Rule]) throws -> String {
        try encode(rules.map { RuleJSON($0, time: time) })
    }

    /// `rules test --json`: `{decision, rule, matches, fromMe}`; `decision` and `rule` are null when no
    /// rule matches.
    public func render(_ decision: RuleDecision?, fromMe: Bool) throws -> String {
        try encode(
            RuleTestJSON(
                decision: decision?.action.rawValue, rule: decision.map { RuleJSON($0.rule, time: time) },
                matches: decision?.matches.map { RuleJSON($0, time: time) } ?? [], fromMe: fromMe))
    }
}

struct RuleJSON: Encodable {
    var id: Int64
    var action: String
    var on: String
    var pattern: String
    var archive: Bool
    var createdAt: String

    init(_ rule: Rule, time: TimeFormatting) {
        id = rule.id.rawValue
        action = rule.action.rawValue
        on = rule.field.rawValue
        pattern = rule.pattern
        archive = rule.archives
        createdAt = time.iso8601(rule.createdAtMs)
    }
}

struct RuleTestJSON: Encodable {
    var decision: String?
    var rule: RuleJSON?
    var matches: [RuleJSON]
    var fromMe: Bool

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(decision, forKey: .decision)  // null, not absent
        try container.encode(rule, forKey: .rule)
        try container.encode(matches, forKey: .matches)
        try container.encode(fromMe, forKey: .fromMe)
    }

    enum CodingKeys: String, CodingKey { case decision, rule, matches, fromMe }
}
