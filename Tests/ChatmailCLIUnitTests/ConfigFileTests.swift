import Foundation
import TerminalUI
import Testing

@testable import ChatmailCLI

/// The config file's reader: what it accepts, and the one-line errors for what it refuses.
@Suite struct ConfigFileTests {
    static let path = "/home/u/.config/chatmail/config.toml"

    static let example = """
        # Every key chatmail reads.
        [gmail]
        api_url = "http://127.0.0.1:4567"
        auth_url = "http://127.0.0.1:4567/o/oauth2/v2/auth"
        token_url = "http://127.0.0.1:4567/token"
        client_id = "file-id.apps.googleusercontent.com"
        client_secret = "file-secret"

        [display]
        color = "never"
        pager = "most"
        width = 100
        ascii = true

        [app]
        sync_interval = 120
        """

    @Test("every documented key is read")
    func readsEveryKey() throws {
        let config = try ConfigFile.parse(Self.example, path: Self.path)
        #expect(config.gmail.apiURL?.absoluteString == "http://127.0.0.1:4567")
        #expect(config.gmail.authorizationURL?.absoluteString == "http://127.0.0.1:4567/o/oauth2/v2/auth")
        #expect(config.gmail.tokenURL?.absoluteString == "http://127.0.0.1:4567/token")
        #expect(config.gmail.clientID == "file-id.apps.googleusercontent.com")
        #expect(config.gmail.clientSecret == "file-secret")
        #expect(config.display == ChatmailConfig.Display(color: .never, pager: "most", width: 100, ascii: true))
        #expect(config.app.syncInterval == 120)
    }

    @Test("an empty file, or empty sections, set nothing")
    func emptyFile() throws {
        #expect(try ConfigFile.parse("", path: Self.path) == ChatmailConfig())
        #expect(try ConfigFile.parse("[gmail]\n[display]\n", path: Self.path) == ChatmailConfig())
    }

    @Test("a syntax error names the file, line and column")
    func syntaxError() {
        let text = "[display]\ncolor = \"never\"\nwidth = = 3\n"
        #expect {
            try ConfigFile.parse(text, path: Self.path)
        } throws: { error in
            guard case ConfigError.syntax(Self.path, line: 3, column: _?, reason: _) = error else { return false }
            return ExitStatus.summary(of: error).hasPrefix("config file \(Self.path), line 3, column ")
        }
    }

    @Test("an unknown key is an error naming its line and the keys that exist")
    func unknownKey() throws {
        let text = "[display]\nwidth = 100\n\ncolour = \"never\"\n"
        #expect(
            throws: ConfigError.unknownKey(
                path: Self.path, line: 4, key: "display.colour", known: ["color", "pager", "width", "ascii"])
        ) {
            try ConfigFile.parse(text, path: Self.path)
        }
        let error = ConfigError.unknownKey(
            path: Self.path, line: 4, key: "display.colour", known: ["color", "pager", "width", "ascii"])
        #expect(
            ExitStatus.summary(of: error)
                == "config file \(Self.path), line 4: unknown key display.colour (expected one of: color, pager, width, ascii)"
        )
        #expect(ExitStatus(for: error) == .usage)
    }

    @Test("an unknown section, or a key outside any section, is an error")
    func unknownSection() {
        #expect(
            throws: ConfigError.unknownKey(
                path: Self.path, line: 2, key: "dispaly", known: ["[gmail]", "[display]", "[app]", "[[account]]"])
        ) {
            try ConfigFile.parse("# typo\n[dispaly]\nwidth = 100\n", path: Self.path)
        }
        #expect(
            throws: ConfigError.unknownKey(
                path: Self.path, line: 1, key: "width", known: ["[gmail]", "[display]", "[app]", "[[account]]"])
        ) {
            try ConfigFile.parse("width = 100\n", path: Self.path)
        }
    }

    @Test("a value of the wrong type is an error naming its line and both types")
    func wrongType() {
        #expect(
            throws: ConfigError.wrongType(
                path: Self.path, line: 3, key: "display.width", expected: "an integer", found: "a string")
        ) {
            try ConfigFile.parse("[display]\nascii = true\nwidth = \"wide\"\n", path: Self.path)
        }
        #expect(
            throws: ConfigError.wrongType(
                path: Self.path, line: 2, key: "display.ascii", expected: "true or false", found: "a string")
        ) {
            try ConfigFile.parse("[display]\nascii = \"yes\"\n", path: Self.path)
        }
        #expect(
            throws: ConfigError.wrongType(
                path: Self.path, line: 1, key: "gmail", expected: "a table ([gmail])", found: "a string")
        ) {
            try ConfigFile.parse("gmail = \"x\"\n", path: Self.path)
        }
        let error = ConfigError.wrongType(
            path: Self.path, line: 3, key: "display.width", expected: "an integer", found: "a string")
        #expect(
            ExitStatus.summary(of: error)
                == "config file \(Self.path), line 3: display.width must be an integer, not a string")
    }

    @Test(
        "values chatmail cannot use are refused with their line",
        arguments: [
            ("[display]\ncolor = \"blue\"\n", 2, "display.color"),
            ("[display]\nwidth = 5\n", 2, "display.width"),
            ("[gmail]\n\napi_url = \"ftp://x.example\"\n", 3, "gmail.api_url"),
            ("[gmail]\nclient_id = \"\"\n", 2, "gmail.client_id"),
            ("[app]\nsync_interval = 0\n", 2, "app.sync_interval"),
        ])
    func invalidValue(text: String, line: Int, key: String) {
        #expect {
            try ConfigFile.parse(text, path: Self.path)
        } throws: { error in
            guard case ConfigError.invalidValue(Self.path, line: line, key: key, reason: _) = error else {
                return false
            }
            return true
        }
    }

    @Test("a key in a multi-line value's table is still found by its line")
    func lineAfterMultiLineValue() {
        let text = "[display]\npager = \"\"\"\nless\n-R\"\"\"\nwidth = \"x\"\n"
        #expect(
            throws: ConfigError.wrongType(
                path: Self.path, line: 5, key: "display.width", expected: "an integer", found: "a string")
        ) {
            try ConfigFile.parse(text, path: Self.path)
        }
    }

    @Test("a missing default file means no settings; a missing --config file is an error")
    func missingFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chatmail-config-\(UUID().uuidString)")
        #expect(try ConfigFile.load(option: nil, environment: ["XDG_CONFIG_HOME": directory.path]) == ChatmailConfig())
        let missing = directory.appendingPathComponent("nope.toml").path
        #expect(throws: ConfigError.fileMissing(path: missing)) {
            try ConfigFile.load(option: missing, environment: [:])
        }
        #expect(ExitStatus(for: ConfigError.fileMissing(path: missing)) == .usage)
    }

    @Test("the default file is $XDG_CONFIG_HOME/chatmail/config.toml, else ~/.config/chatmail/config.toml")
    func defaultLocation() {
        #expect(
            ConfigFile.defaultLocation(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]).path
                == "/x/chatmail/config.toml")
        #expect(
            ConfigFile.defaultLocation(environment: ["XDG_CONFIG_HOME": "", "HOME": "/h"]).path
                == "/h/.config/chatmail/config.toml")
    }

    @Test("the default file is read when it exists")
    func readsDefaultFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chatmail-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("chatmail"), withIntermediateDirectories: true)
        try "[display]\nwidth = 44\n".write(
            to: directory.appendingPathComponent("chatmail/config.toml"), atomically: true, encoding: .utf8)
        #expect(try ConfigFile.load(option: nil, environment: ["XDG_CONFIG_HOME": directory.path]).display.width == 44)
    }
}
