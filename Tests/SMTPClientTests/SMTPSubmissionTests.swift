import ChatmailTestSupport
import Foundation
import SMTPClient
import Testing

/// SMTP submission through libcurl to a real SMTP server (aiosmtpd) on loopback: what arrives, and how
/// each way of failing is told apart. One server at a time, each test with its own.
@Suite("SMTP submission to a loopback aiosmtpd server", .serialized)
struct SMTPSubmissionTests {
    static let user = "me@example.org"
    static let password = "secret"
    static let token = "ya29.test-access-token"

    /// To, Cc and Bcc alike: the envelope names every recipient, the headers only some.
    static let envelope = SMTPEnvelope(
        from: user, recipients: ["to@example.net", "cc@example.com", "hidden-bcc@example.org"])

    /// A message with 8-bit UTF-8 in its body, CRLF line ends throughout.
    static let message = lines([
        "From: Me <me@example.org>", "To: To <to@example.net>", "Cc: cc@example.com", "Subject: Grüße",
        "Message-ID: <submission-test@example.org>", "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: 8bit", "", "Grüße aus Köln — 你好", "Second line.",
    ])

    static func lines(_ lines: [String]) -> [UInt8] {
        Array(lines.map { $0 + "\r\n" }.joined().utf8)
    }

    /// Runs `body` against a fresh server in a scratch directory, and stops and removes both afterwards.
    static func withServer(
        _ security: SMTPTestServer.Security = .plain, token: String? = nil,
        mechanisms: [SMTPTestServer.Mechanism] = SMTPTestServer.Mechanism.allCases,
        _ body: (SMTPTestServer) async throws -> Void
    ) async throws {
        try #require(await SMTPTestServer.isAvailable, "python3-aiosmtpd is missing: run scripts/install-deps")
        let directory = try scratchDirectory("smtp")
        defer { try? FileManager.default.removeItem(at: directory) }  // best-effort cleanup of scratch files
        let server = try await SMTPTestServer.start(
            security: security, user: user, password: password, token: token, mechanisms: mechanisms, in: directory)
        defer { server.stop() }
        try await body(server)
    }

    static func submitter(
        _ server: SMTPTestServer, security: SMTPSecurity = .none, authentication: SMTPAuthentication? = nil,
        trustingItsCertificate: Bool = true
    ) -> SMTPSubmitter {
        SMTPSubmitter(
            endpoint: SMTPEndpoint(
                host: server.host, port: server.port, security: security,
                caCertificatePath: trustingItsCertificate ? server.certificatePath : nil),
            authentication: authentication ?? .password(user: user, password: password))
    }

    /// The submission's outcome as a value, so a test can say which failure it expects.
    static func outcome(
        _ submitter: SMTPSubmitter, _ message: [UInt8] = message, envelope: SMTPEnvelope = envelope
    ) async -> Result<SMTPReceipt, SMTPError> {
        do { return .success(try await submitter.submit(message, envelope: envelope)) } catch { return .failure(error) }
    }

    @Test(
        "a password login delivers the exact bytes to every envelope recipient, one message per submission",
        arguments: [SMTPTestServer.Mechanism.plain, .login])
    func passwordLogin(mechanism: SMTPTestServer.Mechanism) async throws {
        // The server requires a login and offers only `mechanism`, so a delivery proves that one worked.
        try await Self.withServer(mechanisms: [mechanism]) { server in
            let submitter = Self.submitter(server)
            let receipt = try await submitter.submit(Self.message, envelope: Self.envelope)
            #expect(receipt.code == 250)
            #expect(receipt.serverText.contains("queued as 000001"))

            let second = Self.lines(["Subject: second", "", "another"])
            _ = try await submitter.submit(
                second, envelope: SMTPEnvelope(from: Self.user, recipients: ["x@example.net"]))

            let received = try server.received()
            try #require(received.count == 2, "\(server.log)")
            #expect(received[0].raw == Self.message)
            #expect(received[0].from == Self.envelope.from)
            #expect(received[0].recipients == Self.envelope.recipients)
            #expect(received[1].raw == second)
            #expect(received[1].recipients == ["x@example.net"])
        }
    }

    @Test(
        "STARTTLS and implicit TLS deliver, trusting the test server's own certificate",
        arguments: [(SMTPTestServer.Security.starttls, SMTPSecurity.starttls), (.tls, .tls)])
    func tls(server security: SMTPTestServer.Security, client clientSecurity: SMTPSecurity) async throws {
        try await Self.withServer(security) { server in
            let receipt = try await Self.submitter(server, security: clientSecurity).submit(
                Self.message, envelope: Self.envelope)
            #expect(receipt.code == 250)
            let received = try server.received()
            #expect(received.map(\.raw) == [Self.message])
        }
    }

    @Test(
        "a TLS server whose certificate is not trusted is unreachable, and nothing is sent",
        arguments: [(SMTPTestServer.Security.starttls, SMTPSecurity.starttls), (.tls, .tls)])
    func untrustedCertificate(server security: SMTPTestServer.Security, client clientSecurity: SMTPSecurity)
        async throws
    {
        try await Self.withServer(security) { server in
            let result = await Self.outcome(
                Self.submitter(server, security: clientSecurity, trustingItsCertificate: false))
            guard case .failure(.unreachable(let reason)) = result else {
                Issue.record("expected unreachable, got \(result)")
                return
            }
            #expect(reason.contains("127.0.0.1:\(server.port)"))
            let received = try server.received()
            #expect(received.isEmpty)
        }
    }

    @Test("STARTTLS asked of a server that does not offer it is unreachable: nothing goes in the clear")
    func startTLSNotOffered() async throws {
        try await Self.withServer(.plain) { server in
            let result = await Self.outcome(Self.submitter(server, security: .starttls))
            guard case .failure(.unreachable(let reason)) = result else {
                Issue.record("expected unreachable, got \(result)")
                return
            }
            #expect(reason.contains("STARTTLS"))
            let received = try server.received()
            #expect(received.isEmpty)
        }
    }

    @Test("XOAUTH2 with the right token delivers")
    func xoauth2() async throws {
        try await Self.withServer(token: Self.token, mechanisms: [.xoauth2]) { server in
            let submitter = Self.submitter(server, authentication: .xoauth2(user: Self.user, token: Self.token))
            let receipt = try await submitter.submit(Self.message, envelope: Self.envelope)
            #expect(receipt.code == 250)
            #expect(try server.received().map(\.raw) == [Self.message])
        }
    }

    @Test("a message whose lines start with dots, or are a lone dot, arrives byte for byte")
    func dotStuffing() async throws {
        let message = Self.lines([
            ".starts with a dot", "Subject: dots", "", "above is empty", ".", "..", "...three", ". a dot and a space",
            "a line ending in a dot.", ".", "last",
        ])
        try await Self.withServer { server in
            _ = try await Self.submitter(server).submit(message, envelope: Self.envelope)
            #expect(try server.received().map(\.raw) == [message])
        }
    }
}
