import ArgumentParser
import ChatmailStore
import ChatmailSync
import Foundation
import JSONOutput
import RecordViews

/// `chatmail rules`: allow, deny and mute rules, kept in the store and applied to mail as it syncs.
struct Rules: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Allow, deny or mute mail by sender, domain, subject or text.",
        discussion: """
            Rules judge incoming mail, never your own. When several match one message, allow beats deny and \
            deny beats mute. A deny rule hides a conversation whose incoming mail it all matches \
            (`conversations --filtered` shows them); a mute rule keeps the conversation but never counts \
            its messages as unread. Rules apply to mail as it syncs, and to the mail already stored when \
            they are added or removed.
            """,
        subcommands: [List.self, Add.self, Remove.self, Test.self, Export.self, Import.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the rules, oldest first.")

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Print [{id, action, on, pattern, archive, createdAt}] as JSON.") var json = false

        func run() async throws {
            let env = makeEnvironment()
            let store = try env.openExistingStore()
            let account = try env.selectedAccount(in: store)
            let rules = try store.rules(in: account.id)
            if json {
                try env.write(try JSONRenderer(time: env.time).render(rules))
            } else if rules.isEmpty {
                try env.write("No rules yet. Add one with `chatmail rules add deny newsletter@example.com`.\n")
            } else {
                try env.write(RulesRenderer(palette: env.palette).render(rules))
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a rule, and apply it to the mail already stored.",
            discussion: """
                Sender patterns are addresses, matched as chatmail matches people (case, and on Gmail dots \
                and +tags, do not matter). Domain patterns match the domain and its subdomains. Subject and \
                text patterns match whole words in any case; in Chinese, Japanese and Thai, which do not \
                separate words with spaces, they match the characters in a row.
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("allow, deny or mute.", valueName: "action")) var action: Rule.Action
        @Argument(help: "An address, a domain, or words, depending on --on.") var pattern: String
        @Option(
            help: ArgumentHelp(
                "What the pattern matches: sender, domain, subject or text (default: sender for an address, "
                    + "domain for @example.com or example.com, text otherwise).", valueName: "field"))
        var on: Rule.Field?
        @Flag(help: "Deny rules: archive the matching messages on Gmail too (through the pending queue).")
        var archive = false

        func validate() throws {
            if archive && action != .deny { throw ValidationError("--archive goes with deny rules only.") }
        }

        /// Without --on: `@example.com` or `example.com` is a domain, an address its sender, and anything
        /// else words of the text.
        var field: Rule.Field {
            if let on { return on }
            let trimmed = pattern.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("@") || Self.looksLikeDomain(trimmed) { return .domain }
            return trimmed.contains("@") && !trimmed.contains(" ") ? .sender : .text
        }

        /// `example.com`, `mail.example.co.uk`: dotted labels ending in letters, nothing else.
        static func looksLikeDomain(_ text: String) -> Bool {
            let labels = text.split(separator: ".", omittingEmptySubsequences: false)
            guard labels.count >= 2, let top = labels.last, top.count >= 2, top.allSatisfy(\.isLetter) else {
                return false
            }
            return labels.allSatisfy { label in
                !label.isEmpty && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
            }
        }

        func run() async throws {
            let env = makeEnvironment()
            let store = try env.openExistingStore()
            let account = try env.selectedAccount(in: store)
            let draft = try Rule.Draft(action: action, field: field, pattern: pattern, archives: archive)
            if on == nil, field != .text {
                // A guess the user did not spell out: say which, and how to choose the other.
                env.note("matching the \(field.rawValue) (give --on text to match words of the text instead)")
            }
            let change = try await RuleBook(store: store).add([draft], account: account.id)
            try env.write(RulesRenderer.outcome(of: [draft], change) + RulesRenderer.effect(of: change))
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a rule (its id is in `chatmail rules`), and judge its mail again.",
            discussion: "Mail a removed deny rule archived stays archived: move it back with `unarchive`.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The rule's id.") var id: Int64

        func run() async throws {
            let env = makeEnvironment()
            let store = try env.openExistingStore()
            let account = try env.selectedAccount(in: store)
            let change = try await RuleBook(store: store).remove(RuleID(rawValue: id), account: account.id)
            for rule in change.removed {
                try env.write("Removed rule \(rule.id.rawValue): \(RulesRenderer.describe(rule.draft)).\n")
            }
            try env.write(RulesRenderer.effect(of: change))
        }
    }
}

extension Rule.Action: ExpressibleByArgument {}
extension Rule.Field: ExpressibleByArgument {}
