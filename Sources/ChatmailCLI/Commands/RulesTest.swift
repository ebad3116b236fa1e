import ArgumentParser
import ChatmailStore
import ChatmailSync
import JSONOutput
import RecordViews
import TerminalUI
import TextFormatting

extension Rules {
    /// `rules test FILE.eml`: which rule would decide a message, and why, without storing anything.
    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show which rule decides an email message (a .eml file, or - for stdin), and why.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("The message, in RFC 5322 form; - reads stdin.", valueName: "file"))
        var file: String
        @Flag(help: "Print {decision, rule, matches, fromMe} as JSON.") var json = false

        func run() async throws {
            let env = makeEnvironment()
            let store = try env.openExistingStore()
            let account = try env.selectedAccount(in: store)
            let bytes = try CommandInput.read(file)
            let subject: RuleSubject
            do {
                subject = try RuleBook.subject(ofRawMessage: bytes)
            } catch let error as RuleBook.NotAMessage {
                throw CommandError.notAMessage(CommandInput.name(file), error.rejection)
            }
            let aliases = try store.aliases(of: account.id)
            // As the store decides it: the first author says whether a message is mine.
            let fromMe = subject.senders.first.map(aliases.contains) ?? false
            let decision = fromMe ? nil : RuleSet(try store.rules(in: account.id)).explain(subject)
            if json {
                try env.write(try JSONRenderer(time: env.time).render(decision, fromMe: fromMe))
                return
            }
            try env.write(Self.explanation(decision, subject: subject, fromMe: fromMe))
            // The screener holds what no allow rule lets through, from people never written to.
            if !fromMe, decision?.action != .allow, decision?.action != .deny,
                try store.screenerEnabled(in: account.id),
                try store.correspondents(among: subject.senders, in: account.id).isEmpty
            {
                try env.write(
                    "The screener is on and you have never written to the sender: unless someone else in the "
                        + "conversation is known, it waits in `conversations --screener`.\n")
            }
        }

        static func explanation(_ decision: RuleDecision?, subject: RuleSubject, fromMe: Bool) -> String {
            let sender = TerminalSafeText.singleLine(subject.senders.first ?? "(no sender)")
            if fromMe { return "From you (\(sender)): rules never judge your own mail.\n" }
            guard let decision else { return "No rule matches this message from \(sender): it is shown as usual.\n" }
            let rule = decision.rule
            var out = "\(pastTense(rule.action)) by rule \(rule.id.rawValue) (\(RulesRenderer.describe(rule.draft))): "
            out +=
                reason(rule, sender: TerminalSafeText.singleLine(matchedSender(of: rule, in: subject) ?? sender))
                + ".\n"
            out += consequence(rule) + "\n"
            for other in decision.matches.dropFirst() {
                out += "Also matches rule \(other.id.rawValue) (\(RulesRenderer.describe(other.draft)))"
                out +=
                    other.action == rule.action ? ", an older rule decides.\n" : ", but \(rule.action.rawValue) wins.\n"
            }
            return out
        }

        /// The author a sender or domain rule matched: a message may have several, and the first need
        /// not be the one the rule names.
        static func matchedSender(of rule: Rule, in subject: RuleSubject) -> String? {
            subject.senders.first { RuleSet([rule]).decide(RuleSubject(senders: [$0], subject: "", text: "")) != nil }
        }

        static func pastTense(_ action: Rule.Action) -> String {
            switch action {
            case .allow: "Allowed"
            case .deny: "Denied"
            case .mute: "Muted"
            }
        }

        static func reason(_ rule: Rule, sender: String) -> String {
            switch rule.field {
            case .sender: "the sender is \(sender)"
            case .domain: "the sender \(sender) is at \(TerminalSafeText.singleLine(rule.pattern))"
            case .subject: "the subject has the words \"\(TerminalSafeText.singleLine(rule.pattern))\""
            case .text: "the text has the words \"\(TerminalSafeText.singleLine(rule.pattern))\""
            }
        }

        static func consequence(_ rule: Rule) -> String {
            switch rule.action {
            case .allow: "Its conversation is shown, and passes the screener."
            case .deny:
                rule.archives
                    ? "It is archived on Gmail, and its conversation is hidden (see `conversations --filtered`) "
                        + "when all the incoming mail in it is denied."
                    : "Its conversation is hidden (see `conversations --filtered`) when all the incoming mail in "
                        + "it is denied."
            case .mute: "Its conversation is shown, but the message never counts as unread."
            }
        }
    }
}
