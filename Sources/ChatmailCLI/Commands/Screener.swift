import ArgumentParser
import ChatmailStore
import ChatmailSync
import Foundation
import RecordViews
import TerminalUI

/// `chatmail screener on|off`: hold conversations with people you have never written to.
struct Screener: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Turn the screener on or off; without an argument, say whether it is on.",
        discussion: """
            With the screener on, a conversation whose people you have never written to and never allowed \
            waits in `conversations --screener` instead of the main list. `chatmail allow <person>` lets it \
            through; `chatmail deny <person>` adds a deny rule. Mailing lists are never held.
            """)

    enum Setting: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    @OptionGroup var global: GlobalOptions
    @Argument(help: "on or off.") var setting: Setting?

    func run() async throws {
        let env = makeEnvironment()
        let store = try env.openExistingStore()
        let account = try env.selectedAccount(in: store)
        if let setting {
            try await RuleBook(store: store).setScreener(enabled: setting == .on, account: account.id)
        }
        let enabled = try store.screenerEnabled(in: account.id)
        let held = try store.screenerCount(in: account.id)
        let conversations = held == 1 ? "1 conversation" : "\(held) conversations"
        if enabled {
            try env.write(
                "The screener is on: \(conversations) waiting. `chatmail conversations --screener` lists them.\n")
        } else {
            try env.write(
                "The screener is off. It would hold \(conversations); `chatmail screener on` turns it on.\n")
        }
    }
}

/// What `allow` and `deny` take.
struct PersonRuleOptions: ParsableArguments {
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("An address, or a person or conversation as `show` takes it.", valueName: "person"))
    var person: String
    @Flag(help: PersonLookup.groupHelp) var group = false
}

/// `chatmail allow <person>`: an allow rule for each of their addresses, which lets them past the screener.
struct Allow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Let a person through the screener and past deny rules (adds allow rules for them).")

    @OptionGroup var options: PersonRuleOptions

    func run() async throws {
        try await PersonRules.add(.allow, archiving: false, options)
    }
}

/// `chatmail deny <person>`: a deny rule for each of their addresses.
struct Deny: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hide a person's mail (adds deny rules for them; `conversations --filtered` shows it).")

    @OptionGroup var options: PersonRuleOptions
    @Flag(help: "Archive their messages on Gmail too (through the pending queue).") var archive = false

    func run() async throws {
        try await PersonRules.add(.deny, archiving: archive, options)
    }
}

/// Sender rules for everyone `<person>` names.
enum PersonRules {
    static func add(_ action: Rule.Action, archiving: Bool, _ options: PersonRuleOptions) async throws {
        let env = AppEnvironment(options.global)
        let store = try env.openExistingStore()
        let account = try env.selectedAccount(in: store)
        let addresses = try Self.addresses(for: options.person, group: options.group, in: store, account: account.id)
        let drafts = try addresses.map {
            try Rule.Draft(action: action, field: .sender, pattern: $0, archives: archiving)
        }
        let change = try await RuleBook(store: store).add(drafts, account: account.id)
        try env.write(RulesRenderer.outcome(of: drafts, change) + RulesRenderer.effect(of: change))
    }

    /// An address is taken as it is, even with no mail from it yet; anything else must name a
    /// conversation exactly (no typo forgiven: a rule is lasting), whose people are returned.
    static func addresses(for person: String, group: Bool, in store: ChatmailStore, account: AccountID) throws
        -> [String]
    {
        if !group, (try? RulePattern.normalize(person, for: .sender)) != nil { return [person] }
        let conversation = try PersonLookup.conversation(
            for: person, in: store, account: account, allowingFuzzy: false, preferringGroups: group)
        if conversation.list != nil {
            throw ValidationError(
                "\(EchoedInput.quoted(person)) is a mailing list, whose senders are many; name a person, or add "
                    + "a rule with `chatmail rules add`.")
        }
        guard !conversation.participants.isEmpty else { throw CommandError.personNotFound(person) }
        return conversation.participants.map(\.address)
    }
}
