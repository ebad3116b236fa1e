import NIOCore

/// How the connection to an IMAP server is protected.
public enum IMAPSecurity: String, Sendable {
    /// TLS from the first byte (usually port 993).
    case tls
    /// Plain text until the STARTTLS command upgrades it (usually port 143); refused if not advertised.
    case starttls
    /// No encryption at all: for a server on the loopback interface, such as the test servers.
    case none
}

/// Where an IMAP server listens, and how to protect the connection to it.
public struct IMAPEndpoint: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var security: IMAPSecurity

    public init(host: String, port: Int, security: IMAPSecurity) {
        self.host = host
        self.port = port
        self.security = security
    }

    /// `host:port`, as error messages name the server.
    var displayName: String { "\(host):\(port)" }
}

/// The credentials a connection authenticates with.
public enum IMAPAuthentication: Sendable {
    /// A password, sent with SASL PLAIN when the server offers it, else with LOGIN.
    case password(user: String, password: String)
    /// An OAuth2 access token, sent with SASL XOAUTH2.
    case xoauth2(user: String, token: String)
}

/// How long a connection waits for the server.
public struct IMAPTimeouts: Sendable {
    /// The bound on establishing a connection: TCP connect, TLS handshake (STARTTLS's too) and greeting.
    public var connect: Duration
    /// How long a command may go without receiving a single byte. It bounds silence, not duration, so a
    /// large FETCH that keeps streaming never times out.
    public var command: Duration

    public init(connect: Duration = .seconds(15), command: Duration = .seconds(60)) {
        self.connect = connect
        self.command = command
    }
}

extension Duration {
    /// Whole seconds, rounded up, for messages: a 0.5 s limit reads "1 s", never "0 s".
    var roundedUpSeconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }

    /// The same span as NIO's `TimeAmount`.
    var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
