import ArgumentParser
import Foundation
import TerminalUI
import Testing

@testable import ChatmailCLI

#if canImport(Glibc)
import Glibc
#endif

/// Each setting comes from its option, else its environment variable, else the config file, else the
/// built-in default.
@Suite struct ConfigPrecedenceTests {
    static func environment(
        _ arguments: [String] = [], variables: [String: String] = [:], file: ChatmailConfig = .init()
    ) throws
        -> AppEnvironment
    {
        AppEnvironment(try GlobalOptions.parse(arguments), environment: variables, config: file)
    }

    static func file(_ change: (inout ChatmailConfig) -> Void) -> ChatmailConfig {
        var config = ChatmailConfig()
        change(&config)
        return config
    }

    @Test("colour: --color, then NO_COLOR and TERM=dumb, then the file, then auto")
    func color() throws {
        let always = Self.file { $0.display.color = .always }
        #expect(try Self.environment().colorMode == .auto)
        #expect(try Self.environment(file: always).colorMode == .always)
        #expect(try Self.environment(variables: ["NO_COLOR": "1"], file: always).colorMode == .never)
        #expect(try Self.environment(variables: ["TERM": "dumb"], file: always).colorMode == .never)
        #expect(
            try Self.environment(["--color", "always"], variables: ["NO_COLOR": "1"], file: always).colorMode == .always
        )
        #expect(try Self.environment(["--color", "never"], file: always).colorMode == .never)
        #expect(try Self.environment(["--color", "always"], variables: ["NO_COLOR": "1"]).palette.isEnabled)
    }

    @Test("width: --width, then the file, then the terminal or $COLUMNS, then 80")
    func width() throws {
        let file = Self.file { $0.display.width = 44 }
        #expect(try Self.environment(["--width", "30"], variables: ["COLUMNS": "100"], file: file).width == 30)
        #expect(try Self.environment(variables: ["COLUMNS": "100"], file: file).width == 44)
        // The tests' stdout and stderr may be a terminal; without one, $COLUMNS, then 80.
        if isatty(STDOUT_FILENO) == 0, isatty(STDERR_FILENO) == 0 {
            #expect(try Self.environment(variables: ["COLUMNS": "100"]).width == 100)
            #expect(try Self.environment().width == 80)
        }
    }

    @Test("ASCII: --ascii, then the file's ascii = true, then the locale")
    func ascii() throws {
        let utf8 = ["LANG": "C.UTF-8"]
        #expect(try Self.environment(variables: utf8).glyphs == .rounded)
        #expect(try Self.environment(variables: utf8, file: Self.file { $0.display.ascii = true }).glyphs == .ascii)
        #expect(try Self.environment(variables: utf8, file: Self.file { $0.display.ascii = false }).glyphs == .rounded)
        #expect(
            try Self.environment(["--ascii"], variables: utf8, file: Self.file { $0.display.ascii = false }).glyphs
                == .ascii)
        #expect(
            try Self.environment(variables: ["LANG": "C"], file: Self.file { $0.display.ascii = false }).glyphs
                == .ascii)
    }

    @Test("pager: $CHATMAIL_PAGER, then the file, then $PAGER, then less -FRX")
    func pager() throws {
        let file = Self.file { $0.display.pager = "most" }
        #expect(
            try Self.environment(variables: ["CHATMAIL_PAGER": "more", "PAGER": "pg"], file: file).pagerCommand
                == "more")
        #expect(try Self.environment(variables: ["CHATMAIL_PAGER": "", "PAGER": "pg"], file: file).pagerCommand == nil)
        #expect(try Self.environment(variables: ["PAGER": "pg"], file: file).pagerCommand == "most")
        #expect(
            try Self.environment(variables: ["PAGER": "pg"], file: Self.file { $0.display.pager = "cat" }).pagerCommand
                == nil)
        #expect(try Self.environment(variables: ["PAGER": "pg"]).pagerCommand == "pg")
        #expect(try Self.environment().pagerCommand == "less -FRX")
    }

    @Test("sync interval: the file's, else 60 seconds")
    func syncInterval() throws {
        #expect(try Self.environment().syncInterval == .seconds(60))
        #expect(try Self.environment(file: Self.file { $0.app.syncInterval = 300 }).syncInterval == .seconds(300))
    }

    @Test("Gmail: options, then the environment, then the file, then Google's")
    func gmail() throws {
        var file = ChatmailConfig.Gmail()
        file.apiURL = URL(string: "http://127.0.0.1:1/api")
        file.authorizationURL = URL(string: "http://127.0.0.1:1/auth")
        file.tokenURL = URL(string: "http://127.0.0.1:1/token")
        file.clientID = "file-id"
        file.clientSecret = "file-secret"

        let fromFile = try GmailSettings.resolve(environment: [:], file: file)
        #expect(
            fromFile
                == GmailSettings(
                    apiURL: file.apiURL!, authorizationURL: file.authorizationURL!, tokenURL: file.tokenURL!,
                    clientID: "file-id", clientSecret: "file-secret"))

        let variables = [
            "CHATMAIL_GMAIL_API_URL": "http://127.0.0.1:2/api", "CHATMAIL_OAUTH_AUTH_URL": "http://127.0.0.1:2/auth",
            "CHATMAIL_OAUTH_TOKEN_URL": "http://127.0.0.1:2/token", "CHATMAIL_CLIENT_ID": "env-id",
            "CHATMAIL_CLIENT_SECRET": "env-secret",
        ]
        let fromEnvironment = try GmailSettings.resolve(environment: variables, file: file)
        #expect(fromEnvironment.apiURL.absoluteString == "http://127.0.0.1:2/api")
        #expect(fromEnvironment.authorizationURL.absoluteString == "http://127.0.0.1:2/auth")
        #expect(fromEnvironment.tokenURL.absoluteString == "http://127.0.0.1:2/token")
        #expect(fromEnvironment.clientID == "env-id" && fromEnvironment.clientSecret == "env-secret")

        let fromOptions = try GmailSettings.resolve(
            clientIDOption: "flag-id", clientSecretOption: "flag-secret", environment: variables, file: file)
        #expect(fromOptions.clientID == "flag-id" && fromOptions.clientSecret == "flag-secret")

        let defaults = try GmailSettings.resolve(environment: [:], file: .init())
        #expect(defaults.apiURL.absoluteString == GmailSettings.defaultAPIURL)
        #expect(defaults.tokenURL.absoluteString == GmailSettings.defaultTokenURL)
    }
}
