import ArgumentParser
import Foundation
import JSONOutput
import Logging
import TerminalUI
import TextFormatting

#if canImport(Glibc)
import Glibc
#endif

/// The `chatmail` command: Gmail as conversations with people, in the terminal.
///
/// Subcommands are small declarations in `Commands/`. Errors rise to ``main()``, which maps them to
/// the documented exit codes in one place (``ExitStatus``).
public struct ChatmailCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "chatmail",
        abstract: "Your Gmail as conversations with people, in the terminal.",
        discussion: """
            Mail is grouped by who you talk to, not by thread.

            Everything chatmail keeps (the mail database and your login) lives in one data directory: \
            --home DIR (before or after the command), else $CHATMAIL_HOME, else $XDG_DATA_HOME/chatmail, \
            else ~/.local/share/chatmail.

            Exit codes: 0 success; 1 failure (network, Gmail, files); 2 person or action not found, or \
            ambiguous; 3 not logged in; 4 database locked or from a newer chatmail; 5 database damaged; \
            64 usage error; 65 input that is not what the command reads.
            """,
        version: "0.1.0",
        subcommands: [
            Demo.self, App.self, Login.self, Sync.self, Conversations.self, Show.self, Search.self, Reply.self,
            Send.self,
            Export.self, Status.self, Archive.self, Unarchive.self, Read.self, Unread.self, Star.self, Unstar.self,
            Trash.self, Pending.self, Codes.self, Rules.self, Screener.self, Allow.self, Deny.self,
            View.self, Sanitize.self, Import.self,
        ]
    )

    public init() {}

    /// `chatmail` alone: the interactive app on a terminal, the help anywhere else (a script that runs
    /// `chatmail` by mistake gets text, not a full-screen program waiting for keys).
    public func run() async throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw CleanExit.helpRequest(self) }
        var app = try App.parse([])
        try await app.run()
    }

    /// Whether ArgumentParser raised `error` (its error types are partly internal, so they are told apart
    /// by module rather than listed).
    static func isArgumentParserError(_ error: any Error) -> Bool {
        error is ValidationError || error is ExitCode || error is CleanExit
            || String(reflecting: type(of: error)).hasPrefix("ArgumentParser.")
    }

    /// Parses the command line, runs the command, and exits with the status its outcome maps to.
    public static func main() async {
        // Mail, tokens and the database are private: every file chatmail creates is readable by its
        // owner only, whatever directory --home points at.
        umask(0o077)
        let arguments = GlobalOptions.movingGlobalsAfterSubcommand(Array(CommandLine.arguments.dropFirst()))
        let verbose = arguments.contains("--verbose") || arguments.contains("-v")
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = verbose ? .debug : .warning
            return handler
        }
        let command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            exit(withError: error)  // help, --version and usage errors (64): ArgumentParser's own output
        }
        let printsJSON = (command as? any JSONOutputCommand)?.printsJSON == true
        do {
            var mutable = command
            if var asyncCommand = mutable as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try mutable.run()
            }
        } catch let error as ValidationError {
            exitWithUsageError(error.message, of: type(of: command), printingJSON: printsJSON)
        } catch  where isArgumentParserError(error) {
            // Help, CleanExit and ExitCode raised while running (the root's default run() throws its help
            // request): ArgumentParser prints them and picks the exit code.
            exit(withError: error)
        } catch {
            exit(reporting: error, printingJSON: printsJSON)
        }
    }

    /// Reports `error` on stderr (and, for a `--json` run, as a JSON document on stdout) and exits with
    /// its status.
    static func exit(reporting error: any Error, printingJSON: Bool) -> Never {
        var error = error
        var printingJSON = printingJSON
        if let reported = error as? ErrorReportedInJSON {
            error = reported.error
            printingJSON = false
        }
        let status = ExitStatus(for: error) ?? .failure
        if printingJSON {
            JSONErrorDocument(JSONError(status: status, message: ExitStatus.summary(of: error))).write()
        }
        FileHandle.standardError.write(Data(ExitStatus.message(for: error).utf8))
        Foundation.exit(status.code)
    }

    /// A usage error found while running (the first `import` without `--me`, say): reported like
    /// ArgumentParser's own, but with the usage of the command that ran rather than the root's.
    static func exitWithUsageError(_ message: String, of command: any ParsableCommand.Type, printingJSON: Bool) -> Never
    {
        if printingJSON {
            JSONErrorDocument(JSONError(status: .usage, message: TerminalSafeText.singleLine(message))).write()
        }
        let name = (commandPath(to: command) ?? [command]).map { $0._commandName }.joined(separator: " ")
        let text =
            "Error: \(message)\nUsage: \(usageString(for: command))\n  See '\(name) --help' for more information.\n"
        FileHandle.standardError.write(Data(text.utf8))
        Foundation.exit(ExitStatus.usage.code)
    }

    /// The commands from the root down to `target`, found through the subcommand lists.
    static func commandPath(
        to target: any ParsableCommand.Type, from root: any ParsableCommand.Type = ChatmailCommand.self
    ) -> [any ParsableCommand.Type]? {
        if ObjectIdentifier(root) == ObjectIdentifier(target) { return [root] }
        for subcommand in root.configuration.subcommands {
            if let path = commandPath(to: target, from: subcommand) { return [root] + path }
        }
        return nil
    }
}
