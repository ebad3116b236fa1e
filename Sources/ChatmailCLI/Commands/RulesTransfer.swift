import ArgumentParser
import ChatmailStore
import ChatmailSync
import Foundation
import RecordViews

extension Rules {
    /// `rules export`: the rules as TOML, for dotfiles.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the rules as TOML (`rules import` reads it back).")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let env = makeEnvironment()
            let store = try env.openExistingStore()
            let account = try env.selectedAccount(in: store)
            try env.write(RulesTOML.export(try store.rules(in: account.id)))
        }
    }

    /// `rules import FILE`: adds the rules of a TOML file, all or none.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add the rules of a TOML file (as `rules export` writes it; - reads stdin).",
            discussion: """
                The whole file is checked first: one bad rule and nothing is imported. Rules already there \
                are kept (a rule given again only has its archive setting updated); with --replace, the \
                rules not in the file are removed.
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("The TOML file; - reads stdin.", valueName: "file")) var file: String
        @Flag(help: "Remove the rules the file does not list.") var replace = false

        func run() async throws {
            let env = makeEnvironment()
            let store = try env.openExistingStore()
            let account = try env.selectedAccount(in: store)
            let bytes = try CommandInput.read(file)
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw RulesTOMLError.syntax(source: CommandInput.name(file), line: nil, reason: "it is not UTF-8 text")
            }
            let drafts = try RulesTOML.parse(text, source: CommandInput.name(file))
            let change = try await RuleBook(store: store).importRules(drafts, replacing: replace, account: account.id)
            var out = "Imported \(drafts.count == 1 ? "1 rule" : "\(drafts.count) rules"): "
            out += "\(change.added.count) new, \(change.updated.count) changed"
            if replace { out += ", \(change.removed.count) removed" }
            try env.write(out + ".\n" + RulesRenderer.effect(of: change))
        }
    }
}
