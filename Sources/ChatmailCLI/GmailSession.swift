import ChatmailStore
import EmulatorLauncher
import Foundation
import GmailAPI
import Logging

/// Builds the Gmail client of a logged-in home: saved refresh token → token provider → paced client.
///
/// One pacer per account, shared by every request of this process, so the quota is respected however
/// the work is split.
enum GmailSession {
    /// Whether `env`'s home has a saved login, as ``client(environment:settings:)`` looks for it: the
    /// credentials file exists. A file that exists but cannot be read counts, so its error is reported
    /// when the login is used rather than passed off as a mailbox with no login.
    static func hasSavedLogin(_ env: AppEnvironment) -> Bool {
        FileManager.default.fileExists(atPath: CredentialStore(directory: env.home).fileURL.path)
    }

    static func client(environment env: AppEnvironment, settings: GmailSettings) throws -> GmailClient {
        let credentials: StoredCredentials
        do {
            guard let saved = try CredentialStore(directory: env.home).load() else { throw StoreError.noAccount }
            credentials = saved
        }
        let oauth = OAuthConfiguration(
            clientID: credentials.clientID, clientSecret: settings.clientSecret,
            authorizationURL: settings.authorizationURL, tokenURL: settings.tokenURL)
        let transport = URLSessionTransport()
        let tokens = TokenProvider(
            refreshToken: credentials.refreshToken, client: OAuthTokenClient(configuration: oauth, transport: transport)
        )
        return GmailClient(
            configuration: .init(baseURL: settings.apiURL), transport: transport, tokens: tokens,
            pacer: QuotaPacer(sleeper: ContinuousSleeper()), logger: env.logger)
    }
}

/// The Gmail one command talks to, open for as long as the command needs it.
///
/// For a real account that is Google (or whatever the environment points at). For the demo's home it
/// is the emulator serving the demo mailbox, started here and stopped by ``close()``: the demo keeps
/// no server running between commands, yet `sync`, `pending run` and `export --attachments` work
/// there as they would against Gmail.
final class GmailConnection {
    let settings: GmailSettings
    let client: GmailClient
    private let emulator: EmulatorChild?

    private init(settings: GmailSettings, client: GmailClient, emulator: EmulatorChild?) {
        self.settings = settings
        self.client = client
        self.emulator = emulator
    }

    /// Connects the logged-in account of `env`'s home.
    ///
    /// A demo home uses its own emulator unless the environment names a Gmail API URL itself.
    /// - throws: ``StoreError/noAccount`` without a saved login; ``DemoError`` when the demo's
    ///   emulator cannot start; ``GmailSettings/Problem`` for a malformed endpoint.
    static func open(_ env: AppEnvironment) throws -> GmailConnection {
        if env.environment["CHATMAIL_GMAIL_API_URL"] == nil, let demo = try DemoHome.existing(at: env.home) {
            let emulator = try demo.startEmulator(home: env.home)
            let settings = DemoHome.settings(for: emulator)
            do {
                return GmailConnection(
                    settings: settings, client: try GmailSession.client(environment: env, settings: settings),
                    emulator: emulator)
            } catch {
                emulator.stop()
                throw error
            }
        }
        let settings = try GmailSettings.resolve(environment: env.environment, file: env.config.gmail)
        return GmailConnection(
            settings: settings, client: try GmailSession.client(environment: env, settings: settings), emulator: nil)
    }

    /// Stops the demo's emulator, if this connection started one. Call it once the client's work is
    /// done (a `defer` right after opening).
    func close() { emulator?.stop() }
}
