import ChatmailStore
import IMAPClient
import SMTPClient

/// Everything that reaches one IMAP account's servers: IMAP for reading and acting, SMTP for sending,
/// and whether chatmail files the Sent copy of what it sends.
public struct IMAPAccountLink: Sendable {
    public let imap: IMAPConnector
    public let smtp: SMTPEndpoint
    public let sentCopy: IMAPAccountSettings.SentCopy
    public let smtpTimeouts: SMTPTimeouts

    public init(
        imap: IMAPConnector, smtp: SMTPEndpoint, sentCopy: IMAPAccountSettings.SentCopy,
        smtpTimeouts: SMTPTimeouts = SMTPTimeouts()
    ) {
        self.imap = imap
        self.smtp = smtp
        self.sentCopy = sentCopy
        self.smtpTimeouts = smtpTimeouts
    }

    /// An SMTP submitter that logs in with the account's IMAP credentials, asked for once by the caller
    /// and shared with the IMAP connection that files the Sent copy (a password command runs once).
    func submitter(_ credentials: IMAPAuthentication) -> SMTPSubmitter {
        let authentication: SMTPAuthentication =
            switch credentials {
            case .password(let user, let password): .password(user: user, password: password)
            case .xoauth2(let user, let token): .xoauth2(user: user, token: token)
            }
        return SMTPSubmitter(endpoint: smtp, authentication: authentication, timeouts: smtpTimeouts)
    }

    /// Whether chatmail appends a copy of each sent message to the Sent folder: by the account's setting,
    /// and under `auto` unless the SMTP host is one that files its own copy (a second would be a duplicate).
    public var appendsSentCopy: Bool {
        switch sentCopy {
        case .always: true
        case .never: false
        case .auto: !Self.filesOwnSentCopy(smtpHost: smtp.host)
        }
    }

    /// The submission services known to file a copy of every message in Sent themselves: Gmail,
    /// Outlook and Office 365, and iCloud.
    static func filesOwnSentCopy(smtpHost: String) -> Bool {
        let host = smtpHost.lowercased()
        let domains = [
            "gmail.com", "googlemail.com", "google.com", "outlook.com", "office365.com", "hotmail.com",
            "live.com", "icloud.com", "me.com", "mac.com",
        ]
        return domains.contains { host == $0 || host.hasSuffix("." + $0) }
    }
}
