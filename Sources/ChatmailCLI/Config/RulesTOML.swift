import ChatmailStore
import Foundation
import TOMLKit

/// The TOML form of rules, for `rules export` and `rules import`, so rules can live in dotfiles:
///
/// ```toml
/// [[rule]]
/// action = "deny"          # allow, deny or mute
/// on = "domain"            # sender, domain, subject or text
/// pattern = "example.com"
/// archive = true           # optional, deny rules only
/// ```
enum RulesTOML {
    static let header = """
        # chatmail rules. `chatmail rules import FILE` adds them back (--replace to make them the only ones).
        # action: allow, deny or mute. on: sender, domain, subject or text. archive: deny rules only.

        """

    /// The rules as a TOML document, oldest first.
    static func export(_ rules: [Rule]) -> String {
        let table = TOMLTable()
        let array = TOMLArray()
        for rule in rules {
            let entry = TOMLTable()
            entry["action"] = rule.action.rawValue
            entry["on"] = rule.field.rawValue
            entry["pattern"] = rule.pattern
            if rule.archives { entry["archive"] = true }
            array.append(entry)
        }
        table["rule"] = array
        return header + (rules.isEmpty ? "" : table.convert(to: .toml) + "\n")
    }

    /// The rules in `text`, read from `source` (named in errors).
    static func parse(_ text: String, source: String) throws(RulesTOMLError) -> [Rule.Draft] {
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw .syntax(source: source, line: error.source.begin.line, reason: error.description)
        } catch {
            throw .syntax(source: source, line: nil, reason: "\(error)")
        }
        for key in root.keys where key != "rule" {
            throw .invalid(
                source: source, rule: nil, reason: "unknown key \(EchoedInput.quoted(key)); rules go in [[rule]] tables"
            )
        }
        guard let value = root["rule"] else { return [] }
        guard let array = value.array else {
            throw .invalid(source: source, rule: nil, reason: "`rule` must be an array of tables ([[rule]])")
        }
        var drafts: [Rule.Draft] = []
        for (index, element) in array.enumerated() {
            let number = index + 1
            guard let entry = element.table else {
                throw .invalid(source: source, rule: number, reason: "each rule must be a table ([[rule]])")
            }
            drafts.append(try draft(from: entry, number: number, source: source))
        }
        return drafts
    }

    private static func draft(from entry: TOMLTable, number: Int, source: String) throws(RulesTOMLError) -> Rule.Draft {
        let known: Set<String> = ["action", "on", "pattern", "archive"]
        for key in entry.keys where !known.contains(key) {
            throw .invalid(
                source: source, rule: number,
                reason: "unknown key \(EchoedInput.quoted(key)) (known: action, on, pattern, archive)")
        }
        func string(_ key: String) throws(RulesTOMLError) -> String {
            guard let value = entry[key] else {
                throw .invalid(source: source, rule: number, reason: "`\(key)` is missing")
            }
            guard let text = value.string else {
                throw .invalid(source: source, rule: number, reason: "`\(key)` must be a string")
            }
            return text
        }
        let actionName = try string("action")
        guard let action = Rule.Action(rawValue: actionName) else {
            throw .invalid(
                source: source, rule: number,
                reason: "action \(EchoedInput.quoted(actionName)) is not allow, deny or mute")
        }
        let fieldName = try string("on")
        guard let field = Rule.Field(rawValue: fieldName) else {
            throw .invalid(
                source: source, rule: number,
                reason: "on \(EchoedInput.quoted(fieldName)) is not sender, domain, subject or text")
        }
        var archives = false
        if let value = entry["archive"] {
            guard let flag = value.bool else {
                throw .invalid(source: source, rule: number, reason: "`archive` must be true or false")
            }
            archives = flag
        }
        do {
            return try Rule.Draft(action: action, field: field, pattern: try string("pattern"), archives: archives)
        } catch let error as RuleError {
            throw .invalid(source: source, rule: number, reason: error.localizedDescription)
        } catch let error as RulesTOMLError {
            throw error
        } catch {
            throw .invalid(source: source, rule: number, reason: "\(error)")
        }
    }
}

/// Why a rules file cannot be imported; nothing is imported then.
enum RulesTOMLError: Error, Equatable, Sendable {
    case syntax(source: String, line: Int?, reason: String)
    /// `rule` is the 1-based number of the `[[rule]]` table, `nil` for the document as a whole.
    case invalid(source: String, rule: Int?, reason: String)
}

extension RulesTOMLError: LocalizedError {
    var errorDescription: String? {
        switch self {
        case .syntax(let source, let line, let reason):
            "\(source)\(line.map { ", line \($0)" } ?? ""): not valid TOML: \(reason). No rule was imported."
        case .invalid(let source, let rule, let reason):
            "\(source)\(rule.map { ", rule \($0)" } ?? ""): \(reason). No rule was imported."
        }
    }
}
