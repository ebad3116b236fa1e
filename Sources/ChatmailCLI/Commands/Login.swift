import ArgumentParser
import ChatmailStore
import ChatmailSync
import Foundation
import GmailAPI

/// `chatmail login`: authorizes chatmail for a Gmail account and remembers the refresh token, or with
/// `--imap` checks and stores an IMAP account.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Log in to Gmail (OAuth in the browser) or, with --imap, to any IMAP server.",
        usage: """
            chatmail login [--client-id ID] [--client-secret SECRET] [--refresh-token-file FILE] [--no-browser] [--timeout S]
            chatmail login --imap ADDRESS --host HOST [--port N] [--security tls|starttls|none] [--user LOGIN]
                           [--password-command CMD | --token-command CMD] [--alias ADDRESS]...
                           [--smtp-host HOST] [--smtp-port N] [--smtp-security tls|starttls|none]
            """,
        discussion: """
            Gmail: opens Google's consent page (the URL is printed too) and waits on 127.0.0.1 for the answer, \
            with PKCE. The refresh token is stored in the chatmail home with mode 0600; access tokens are never \
            stored.

            IMAP (--imap ADDRESS --host HOST): connects, logs in and reads the folder list before storing \
            anything; SMTP settings are stored for sending but not checked. With --password-command or \
            --token-command the command runs at each connection and nothing secret is stored. Otherwise the \
            password is read from stdin (when it is not a terminal) or asked for without echo, and stored in \
            the chatmail home's imap-credentials.json with mode 0600 (the home is 0700). A rejected password \
            exits 3; an unreachable server or a TLS failure exits 1. The config file's [[account]] table with \
            the same address (kind = "imap") can hold every one of these settings.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var imapOptions: IMAPLoginOptions

    @Option(help: "The OAuth client id (default: $CHATMAIL_CLIENT_ID).") var clientID: String?
    @Option(help: "The OAuth client secret, if the client has one (default: $CHATMAIL_CLIENT_SECRET).")
    var clientSecret: String?
    @Option(help: ArgumentHelp("Use this existing refresh token instead of a browser login.", valueName: "file"))
    var refreshTokenFile: String?
    @Flag(help: "Do not try to open a browser; only print the URL.") var noBrowser = false
    // Unconditional, so "--timeout -1" reaches validate() instead of reading as a missing value.
    @Option(parsing: .unconditional, help: "Give up waiting for the browser after this many seconds.") var timeout = 300

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be at least 1 second.") }
    }

    func run() async throws {
        let env = makeEnvironment()
        if let address = imapOptions.imap {
            try await IMAPLogin(options: imapOptions, address: address, env: env).run()
            return
        }
        let settings = try GmailSettings.resolve(
            clientIDOption: clientID, clientSecretOption: clientSecret, environment: env.environment,
            file: env.config.gmail)
        guard let clientID = settings.clientID else {
            throw ValidationError(
                "Set --client-id or CHATMAIL_CLIENT_ID to your Google OAuth client (type: Desktop app).")
        }
        let oauth = OAuthConfiguration(
            clientID: clientID, clientSecret: settings.clientSecret, authorizationURL: settings.authorizationURL,
            tokenURL: settings.tokenURL)
        let transport = URLSessionTransport()
        let tokenClient = OAuthTokenClient(configuration: oauth, transport: transport)

        let grant: TokenGrant
        let refreshToken: String
        if let refreshTokenFile {
            refreshToken = try Self.readRefreshToken(refreshTokenFile)
            grant = try await tokenClient.refresh(refreshToken: refreshToken)  // verifies it before storing
        } else {
            let openBrowser = !noBrowser && BrowserOpener.isAvailable(environment: env.environment)
            grant = try await LoginFlow(tokenClient: tokenClient).run(timeoutSeconds: timeout) { url in
                FileHandle.standardError.write(
                    Data("Open this page to let chatmail read your Gmail:\n\(url.absoluteString)\n".utf8))
                if openBrowser { BrowserOpener.open(url) }
            }
            guard let issued = grant.refreshToken else {
                throw CommandError.badInput(
                    "Google returned no refresh token; remove chatmail's access in your Google account and log in again"
                )
            }
            refreshToken = issued
        }

        let email = try await LoginCompletion.complete(
            grant: grant, refreshToken: refreshToken, tokenClient: tokenClient, settings: settings, environment: env)
        try env.write(email.summary + "\n")
    }

    /// The first non-empty line of the file, trimmed; the token is never echoed in errors.
    static func readRefreshToken(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandError.badInput("\(path): cannot be read")
        }
        let token = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
        guard let token else { throw CommandError.badInput("\(path): holds no refresh token") }
        return token
    }
}

/// Opens a URL in the user's browser when there is one to open (a desktop session).
enum BrowserOpener {
    static func isAvailable(environment: [String: String]) -> Bool {
        let hasDisplay =
            environment["DISPLAY"].map { !$0.isEmpty } ?? false
            || environment["WAYLAND_DISPLAY"].map { !$0.isEmpty } ?? false
        return hasDisplay && FileManager.default.isExecutableFile(atPath: "/usr/bin/xdg-open")
    }

    /// Starts `xdg-open` and does not wait for it; failing to open a browser is fine, the URL is printed.
    static func open(_ url: URL) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdg-open")
        process.arguments = [url.absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return }  // best effort: the printed URL is the fallback
    }
}

/// What every login does once Google has answered: learn who this is and every address that is "me",
/// store the refresh token (0600) and the account with its aliases.
enum LoginCompletion {
    struct Outcome {
        var email: String
        var otherAddresses: [String]

        var summary: String {
            "Logged in as \(email)"
                + (otherAddresses.isEmpty
                    ? "" : " (\(otherAddresses.count) more addresses: \(otherAddresses.joined(separator: ", ")))") + "."
        }
    }

    static func complete(
        grant: TokenGrant, refreshToken: String, tokenClient: OAuthTokenClient, settings: GmailSettings,
        environment env: AppEnvironment
    ) async throws -> Outcome {
        let tokens = TokenProvider(refreshToken: refreshToken, client: tokenClient)
        await tokens.seed(grant)
        let client = GmailClient(
            configuration: .init(baseURL: settings.apiURL), transport: URLSessionTransport(), tokens: tokens,
            pacer: QuotaPacer(sleeper: ContinuousSleeper()))
        let profile = try await client.getProfile()
        let sendAs = try await client.listSendAs()
        try CredentialStore(directory: env.home).save(
            StoredCredentials(
                refreshToken: refreshToken, clientID: tokenClient.configuration.clientID, account: profile.emailAddress,
                scopes: tokenClient.configuration.scopes))
        let store = try env.openStore(creating: true)
        let aliases = try await store.write { tx in
            try tx.replaceAliases(
                withOwnAddressesIn: sendAs, for: try tx.ensureAccount(email: profile.emailAddress))
        }
        let me = EmailNormalizer.identityKey(for: profile.emailAddress)
        return Outcome(
            email: profile.emailAddress,
            otherAddresses: aliases.map(\.sendAsEmail).filter { EmailNormalizer.identityKey(for: $0) != me })
    }
}
