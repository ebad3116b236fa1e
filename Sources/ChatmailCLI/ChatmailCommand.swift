import ArgumentParser
import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// The `chatmail` command: Gmail as conversations with people, in the terminal.
///
/// Subcommands are small declarations in `Commands/`. Errors rise to ``main()``, which maps them to
/// the exit codes of `cli.md` in one place (``ExitStatus``).
public struct ChatmailCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "chatmail",
        abstract: "Your Gmail as conversations with people, in the terminal.",
        discussion: """
            Mail is grouped by who you talk to, not by thread. Data lives in $CHATMAIL_HOME \
            (default: $XDG_DATA_HOME/chatmail).
            """,
        version: "0.1.0",
        subcommands: [
            Demo.self, Login.self, Sync.self, Conversations.self, Show.self, Search.self, Export.self, Status.self,
            Archive.self, Unarchive.self, Read.self, Unread.self, Star.self, Unstar.self, Trash.self, Pending.self,
            View.self, Sanitize.self, Import.self,
        ]
    )

    public init() {}

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
        do {
            var mutable = command
            if var asyncCommand = mutable as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try mutable.run()
            }
        } catch where isArgumentParserError(error) {
            // Help, CleanExit, ExitCode and ValidationError raised while running (the root's default run()
            // throws its help request): ArgumentParser prints them and picks the exit code.
            exit(withError: error)
        } catch {
            let status = ExitStatus(for: error) ?? .failure
            FileHandle.standardError.write(Data(ExitStatus.message(for: error).utf8))
            Foundation.exit(status.code)
        }
    }
}
