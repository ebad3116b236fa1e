import ChatmailStore
import ChatmailSync
import Foundation
import IMAPClient
import SMTPClient

/// Builds what talks to an IMAP account from its stored settings, the config file and the credentials.
enum IMAPSession {
    /// The stored settings of `account`, with the password and token commands of the config file's
    /// `[[account]]` table for it when it has them (the file is where a user changes them).
    static func settings(of account: Account, in store: ChatmailStore, env: AppEnvironment) throws
        -> IMAPAccountSettings
    {
        guard var settings = try store.imapSettings(of: account.id) else { throw StoreError.noAccount }
        if let configured = env.config.account(for: account.email) {
            if let command = configured.passwordCommand {
                settings.passwordCommand = command
                settings.tokenCommand = nil
            }
            if let command = configured.tokenCommand {
                settings.tokenCommand = command
                settings.passwordCommand = nil
            }
        }
        return settings
    }

    static func endpoint(_ settings: IMAPAccountSettings) -> IMAPEndpoint {
        IMAPEndpoint(
            host: settings.host, port: settings.port,
            security: IMAPSecurity(rawValue: settings.security.rawValue) ?? .tls)
    }

    /// Connections to the account, authenticated afresh each time (a password command runs per connection).
    static func connector(for account: Account, in store: ChatmailStore, env: AppEnvironment) throws -> IMAPConnector {
        let settings = try settings(of: account, in: store, env: env)
        let credentials = IMAPCredentials(home: env.home)
        let environment = env.environment
        let address = account.email
        return IMAPConnector(endpoint: endpoint(settings)) {
            try credentials.authentication(address: address, settings: settings, environment: environment)
        }
    }

    /// Everything that reaches the account's servers: IMAP, SMTP with the same credentials, and the
    /// Sent-copy policy.
    static func link(for account: Account, in store: ChatmailStore, env: AppEnvironment) throws -> IMAPAccountLink {
        let settings = try settings(of: account, in: store, env: env)
        let smtp = SMTPEndpoint(
            host: settings.smtpHost, port: settings.smtpPort,
            security: SMTPSecurity(rawValue: settings.smtpSecurity.rawValue) ?? .tls)
        return IMAPAccountLink(
            imap: try connector(for: account, in: store, env: env), smtp: smtp, sentCopy: settings.sentCopy)
    }

    /// The queue's pusher for the account: IMAP commands for actions, SMTP for messages.
    static func pusher(
        for account: Account, in store: ChatmailStore, env: AppEnvironment,
        tracker: ModificationTracker = ModificationTracker(), crashes: CrashPoints = CrashPoints()
    ) throws -> IMAPActionPusher {
        IMAPActionPusher(
            store: store, link: try link(for: account, in: store, env: env), clock: env.clock, tracker: tracker,
            crashes: crashes)
    }
}
