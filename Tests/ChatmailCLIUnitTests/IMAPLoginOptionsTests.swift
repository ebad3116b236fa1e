import ArgumentParser
import ChatmailStore
import Testing

@testable import ChatmailCLI

/// `login --imap`'s defaults and the config file's `[[account]]` tables.
@Suite struct IMAPLoginOptionsTests {
    func parse(_ arguments: [String]) throws -> IMAPLoginOptions {
        try IMAPLoginOptions.parse(arguments)
    }

    @Test("tls on 993 by default, the address as login, SMTP on smtp. with the same security")
    func defaults() throws {
        let options = try parse(["--imap", "me@example.org", "--host", "imap.example.org"])
        let settings = try options.settings(address: "me@example.org", file: nil)
        #expect(
            settings
                == IMAPAccountSettings(
                    host: "imap.example.org", port: 993, security: .tls, login: "me@example.org",
                    smtpHost: "smtp.example.org", smtpPort: 465, smtpSecurity: .tls))
    }

    @Test("starttls and none use 143; SMTP follows: 587 for starttls, 25 for none; another host is kept")
    func portsBySecurity() throws {
        let starttls = try parse(["--imap", "a@b.c", "--host", "mail.b.c", "--security", "starttls"]).settings(
            address: "a@b.c", file: nil)
        #expect(starttls.port == 143 && starttls.smtpHost == "mail.b.c" && starttls.smtpPort == 587)
        let none = try parse(["--imap", "a@b.c", "--host", "mail.b.c", "--security", "none", "--user", "a"])
            .settings(address: "a@b.c", file: nil)
        #expect(none.port == 143 && none.smtpPort == 25 && none.login == "a")
        let mixed = try parse([
            "--imap", "a@b.c", "--host", "imap.b.c", "--smtp-security", "starttls", "--smtp-host", "out.b.c",
        ]).settings(address: "a@b.c", file: nil)
        #expect(mixed.port == 993 && mixed.smtpHost == "out.b.c" && mixed.smtpPort == 587)
    }

    @Test("IMAP options without --imap, both secret commands, and bad ports are usage errors")
    func refusals() throws {
        #expect(throws: (any Error).self) { try parse(["--host", "imap.example.org"]) }
        #expect(throws: (any Error).self) {
            try parse(["--imap", "a@b.c", "--host", "h", "--password-command", "x", "--token-command", "y"])
        }
        #expect(throws: (any Error).self) { try parse(["--imap", "a@b.c", "--host", "h", "--port", "0"]) }
        #expect(throws: (any Error).self) {
            try parse(["--imap", "a@b.c"]).settings(address: "a@b.c", file: nil)
        }
    }

    @Test("the config file's [[account]] table fills what the options leave out; options win")
    func configFileAccount() throws {
        let config = try ConfigFile.parse(
            """
            [[account]]
            kind = "imap"
            address = "Me@Example.org"
            host = "imap.example.org"
            port = 1993
            security = "tls"
            password_command = "pass show mail"
            aliases = ["me@other.example", "me@old.example"]

            [[account]]
            address = "second@example.org"
            host = "mx.example.org"
            """, path: "config.toml")
        #expect(config.accounts.count == 2)
        let file = try #require(config.account(for: "me@example.org"))
        #expect(file.aliases == ["me@other.example", "me@old.example"])
        let settings = try parse(["--imap", "me@example.org", "--user", "me"]).settings(
            address: "me@example.org", file: file)
        #expect(settings.host == "imap.example.org" && settings.port == 1993 && settings.login == "me")
        #expect(settings.passwordCommand == "pass show mail")
    }

    @Test("a bad [[account]] value names the key")
    func configFileErrors() {
        #expect(throws: ConfigError.self) {
            try ConfigFile.parse("[[account]]\naddress = \"a@b.c\"\nsecurity = \"ssl\"\n", path: "c.toml")
        }
        #expect(throws: ConfigError.self) { try ConfigFile.parse("[[account]]\nhost = \"h\"\n", path: "c.toml") }
        #expect(throws: ConfigError.self) {
            try ConfigFile.parse("[[account]]\naddress = \"a@b.c\"\ncolour = 1\n", path: "c.toml")
        }
    }
}
