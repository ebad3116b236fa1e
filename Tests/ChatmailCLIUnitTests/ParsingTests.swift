import ArgumentParser
import Foundation
import TerminalUI
import Testing

@testable import ChatmailCLI

/// The command layer in-process: parsing, the global options' place, where the home is.
@Suite struct ParsingTests {
    @Test("commands parse in-process with their options")
    func parses() async throws {
        let command = try ChatmailCommand.parseAsRoot([
            "show", "alice", "--limit", "5", "--full", "--json", "--color", "never",
        ])
        let show = try #require(command as? Show)
        #expect(show.person == "alice" && show.limit == 5 && show.full && show.json)
        #expect(show.global.color == .never)
    }

    @Test(
        "global options before the subcommand are moved after it",
        arguments: [
            (["--home", "/h", "show", "al", "--json"], ["show", "--home", "/h", "al", "--json"]),
            (["--color=never", "-v", "conversations"], ["conversations", "--color=never", "-v"]),
            (["show", "--home", "/h", "al"], ["show", "--home", "/h", "al"]),
            (["--help"], ["--help"]),
            (["--home", "/h", "pending", "retry", "3"], ["pending", "retry", "--home", "/h", "3"]),
            (["--home", "/h", "pending", "--json"], ["pending", "--home", "/h", "--json"]),
            (["--home", "/h", "rules", "add", "deny", "x"], ["rules", "add", "--home", "/h", "deny", "x"]),
        ])
    func movesGlobals(input: [String], expected: [String]) {
        #expect(GlobalOptions.movingGlobalsAfterSubcommand(input) == expected)
    }

    @Test("every command with subcommands is known to the mover, with all of its subcommands")
    func nestedSubcommandsAreComplete() {
        for command in ChatmailCommand.configuration.subcommands where !command.configuration.subcommands.isEmpty {
            let nested = Set(command.configuration.subcommands.map { $0._commandName })
            #expect(GlobalOptions.nestedSubcommands[command._commandName] == nested, "\(command._commandName)")
        }
    }

    @Test("the home directory follows --home, CHATMAIL_HOME, XDG_DATA_HOME, then ~/.local/share")
    func home() {
        #expect(AppEnvironment.resolveHome(option: "/x", environment: ["CHATMAIL_HOME": "/y"]).path == "/x")
        #expect(
            AppEnvironment.resolveHome(option: nil, environment: ["CHATMAIL_HOME": "/y", "XDG_DATA_HOME": "/z"]).path
                == "/y")
        #expect(AppEnvironment.resolveHome(option: nil, environment: ["XDG_DATA_HOME": "/z"]).path == "/z/chatmail")
        #expect(AppEnvironment.resolveHome(option: nil, environment: ["HOME": "/h"]).path == "/h/.local/share/chatmail")
    }
}
