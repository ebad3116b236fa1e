import ChatmailStore
import Foundation
import GmailAPI
import Logging

/// Builds the Gmail client of a logged-in home: saved refresh token → token provider → paced client.
///
/// One pacer per account, shared by every request of this process, so the quota is respected however
/// the work is split.
enum GmailSession {
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
        let tokens = TokenProvider(refreshToken: credentials.refreshToken, client: OAuthTokenClient(configuration: oauth, transport: transport))
        return GmailClient(
            configuration: .init(baseURL: settings.apiURL), transport: transport, tokens: tokens,
            pacer: QuotaPacer(sleeper: ContinuousSleeper()), logger: env.logger)
    }
}

/// One sync per account at a time: an exclusive `flock` on a file in the home, held for the process's
/// life and released by the kernel even when the process is killed.
final class SyncLock {
    private let descriptor: Int32

    /// - throws: ``CommandError/syncRunning`` when another process holds the lock.
    init(home: URL, account: AccountID) throws {
        let path = home.appendingPathComponent("sync-\(account.rawValue).lock").path
        descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CommandError.outputFailed("cannot create the sync lock (\(String(cString: strerror(errno))))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw CommandError.syncRunning
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
