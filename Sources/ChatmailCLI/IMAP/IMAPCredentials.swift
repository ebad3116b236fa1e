import ChatmailStore
import Foundation
import GmailAPI
import IMAPClient

/// Where an IMAP account's secret comes from at each connection: a token command (XOAUTH2), a password
/// command, or the password `login` stored in the IMAP credentials file (0600 in the 0700 home).
struct IMAPCredentials {
    /// The stored passwords, by account address.
    struct StoredPasswords: Codable, Equatable {
        var passwords: [String: String] = [:]
    }

    /// The file beside the Gmail credentials that holds the passwords `login --imap` read from stdin or a prompt.
    static let fileName = "imap-credentials.json"

    let home: URL

    var file: CredentialStore { CredentialStore(directory: home, fileName: Self.fileName) }

    func storedPassword(for address: String) throws -> String? {
        try file.load(StoredPasswords.self)?.passwords[EmailNormalizer.identityKey(for: address)]
    }

    func storePassword(_ password: String, for address: String) throws {
        var stored = try file.load(StoredPasswords.self) ?? StoredPasswords()
        stored.passwords[EmailNormalizer.identityKey(for: address)] = password
        try file.save(stored)
    }

    /// The authentication for one connection: the token command's token, else the password command's
    /// password, else the stored password.
    /// - throws: ``IMAPCredentialError`` when a command fails or nothing was stored.
    func authentication(address: String, settings: IMAPAccountSettings, environment: [String: String]) throws
        -> IMAPAuthentication
    {
        if let command = settings.tokenCommand {
            return .xoauth2(user: settings.login, token: try Self.firstLine(of: command, environment: environment))
        }
        if let command = settings.passwordCommand {
            return .password(user: settings.login, password: try Self.firstLine(of: command, environment: environment))
        }
        guard let password = try storedPassword(for: address) else { throw IMAPCredentialError.noPassword(address) }
        return .password(user: settings.login, password: password)
    }

    /// Runs `command` through `sh -c` and returns the first line of its output. Its stderr goes to ours, so
    /// a password manager can ask for a passphrase.
    static func firstLine(of command: String, environment: [String: String]) throws -> String {
        let (status, output): (Int32, [UInt8])
        do {
            (status, output) = try ShellCommand.run(command, environment: environment)
        } catch {
            throw IMAPCredentialError.commandFailed(command: command, reason: error.reason)
        }
        guard status == 0 else {
            throw IMAPCredentialError.commandFailed(command: command, reason: "exit status \(status)")
        }
        let data = output
        let line =
            String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .first.map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) } ?? ""
        guard !line.isEmpty else {
            throw IMAPCredentialError.commandFailed(command: command, reason: "it printed nothing")
        }
        return line
    }
}

/// Why no secret could be had for an IMAP connection.
enum IMAPCredentialError: Error, Equatable {
    /// The password or token command failed (the command itself is named; its output never is).
    case commandFailed(command: String, reason: String)
    /// No command is set and no password was stored for the account.
    case noPassword(String)
    /// `login` found no password on stdin or at the prompt.
    case emptyPassword
}

extension IMAPCredentialError: LocalizedError {
    var errorDescription: String? {
        switch self {
        case .commandFailed(let command, let reason):
            "The password command `\(command)` failed: \(reason)."
        case .noPassword(let address):
            "No password is stored for \(address). Run `chatmail login --imap \(address) --host HOST` again."
        case .emptyPassword:
            "No password was given (stdin was empty)."
        }
    }
}
