import ChatmailStore
import Foundation
import IMAPClient

#if canImport(Glibc)
import Glibc
#endif

/// `login --imap`: checks the account against its server, then stores it.
///
/// Nothing is stored until the server has accepted the login and listed the folders, so a typo never
/// leaves a half-configured account behind. SMTP is not contacted: many accounts log in long before
/// they send.
struct IMAPLogin {
    let options: IMAPLoginOptions
    let address: String
    let env: AppEnvironment

    func run() async throws {
        let configured = env.config.account(for: address)
        let settings = try options.settings(address: address, file: configured)
        let credentials = IMAPCredentials(home: env.home)
        var typedPassword: String?
        let authentication: IMAPAuthentication
        if settings.tokenCommand != nil || settings.passwordCommand != nil {
            authentication = try credentials.authentication(
                address: address, settings: settings, environment: env.environment)
        } else {
            let password = try Self.readPassword(prompt: "Password for \(settings.login) at \(settings.host): ")
            typedPassword = password
            authentication = .password(user: settings.login, password: password)
        }
        let connection = try await IMAPConnection.connect(
            to: IMAPSession.endpoint(settings), authentication: authentication)
        let folders: [String]
        do {
            folders = try await connection.listFolders().map(\.name)
        } catch {
            await connection.logout()
            throw error
        }
        await connection.logout()

        if let typedPassword { try credentials.storePassword(typedPassword, for: address) }
        let aliases = (options.alias + (configured?.aliases ?? [])).map { EmailAddress(address: $0) }
        let store = try env.openStore(creating: true)
        try await store.write { tx in
            try tx.saveIMAPAccount(email: address, settings: settings, aliases: aliases)
        }
        let count = folders.count == 1 ? "1 folder" : "\(folders.count) folders"
        try env.write(
            "Logged in to \(settings.host) as \(address) (\(count)). Run `chatmail sync` to download your mail.\n")
    }

    /// The password from stdin when it is not a terminal (its first line), else asked for on the terminal
    /// without echo.
    static func readPassword(prompt: String) throws -> String {
        if isatty(STDIN_FILENO) == 0 {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw IMAPCredentialError.emptyPassword
            }
            return line
        }
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw IMAPCredentialError.emptyPassword
        }
        return line
    }
}
