/// How the connection to the submission server is protected.
public enum SMTPSecurity: String, Sendable, Hashable {
    /// TLS from the first byte (`smtps://`, usually port 465).
    case tls
    /// A plain connection upgraded with STARTTLS before anything else is said (usually port 587); a server
    /// that does not offer STARTTLS is an error, never a reason to go on unencrypted.
    case starttls
    /// No encryption at all: for loopback servers and tests.
    case none
}

/// Where to submit mail.
public struct SMTPEndpoint: Sendable, Hashable {
    public var host: String
    public var port: Int
    public var security: SMTPSecurity
    /// Extra CA file to trust (tests' self-signed server); nil = the system's store.
    ///
    /// When set it replaces libcurl's default CA bundle file; the system's CA directory is still searched.
    public var caCertificatePath: String?

    public init(host: String, port: Int, security: SMTPSecurity, caCertificatePath: String? = nil) {
        self.host = host
        self.port = port
        self.security = security
        self.caCertificatePath = caCertificatePath
    }

    /// `host:port`, as messages name the server.
    var name: String { "\(host):\(port)" }

    /// The URL libcurl connects to; an IPv6 literal goes in brackets.
    var url: String {
        let scheme = security == .tls ? "smtps" : "smtp"
        let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(hostPart):\(port)"
    }
}

/// How to log in before submitting.
public enum SMTPAuthentication: Sendable, Hashable {
    /// No login (a server that takes mail without one, such as a local relay).
    case none
    /// PLAIN or LOGIN, whichever the server offers (libcurl picks).
    case password(user: String, password: String)
    /// SASL XOAUTH2 with an OAuth access token, as Gmail and Outlook take it.
    case xoauth2(user: String, token: String)
}

/// The SMTP envelope: who the server is told the message is from, and every address it is delivered to
/// (To, Cc and Bcc alike; the message's own headers are not read).
public struct SMTPEnvelope: Sendable, Hashable {
    public var from: String
    public var recipients: [String]

    public init(from: String, recipients: [String]) {
        self.from = from
        self.recipients = recipients
    }
}

/// How long a submission may wait.
public struct SMTPTimeouts: Sendable, Hashable {
    /// Connecting, and everything libcurl counts as connecting: the greeting, TLS, EHLO and the login.
    public var connect: Duration = .seconds(30)
    /// No progress for this long (no bytes moving, or no reply to a command) fails the submission.
    public var idle: Duration = .seconds(60)

    public init(connect: Duration = .seconds(30), idle: Duration = .seconds(60)) {
        self.connect = connect
        self.idle = idle
    }
}

/// The server's final reply to the end of the message: it took responsibility for delivering it.
public struct SMTPReceipt: Sendable, Hashable {
    /// A 2xx code, usually 250.
    public var code: Int
    /// The reply's text after the code, such as `2.0.0 Ok: queued as 4Xk2`; the lines of a multi-line
    /// reply joined with spaces.
    public var serverText: String

    public init(code: Int, serverText: String) {
        self.code = code
        self.serverText = serverText
    }
}
