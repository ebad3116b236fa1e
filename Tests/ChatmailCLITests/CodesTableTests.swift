import ChatmailStore
import Foundation
import Testing

/// The table of `chatmail codes` is the app's codes drawer, drawn by one renderer: it keeps to `--width`
/// and draws with `--ascii` like every other listing.
@Suite struct CodesTableTests {
    static let me = EmailAddress(address: "me@example.org", name: "Me")

    func fixture() throws -> CLIFixture {
        let fixture = try CLIFixture()
        let senders = [
            EmailAddress(
                address: "security-notifications@accounts.very-long-company-name.example",
                name: "Accounts Team of the Very Long Company Name Incorporated International"),
            EmailAddress(address: "noreply@github.com", name: "GitHub"),
        ]
        let services = ["Very Long Company Name Incorporated", "GitHub"]
        try fixture.seed(
            senders.indices.map { index in
                MessageInput(
                    gmailID: "code\(index)", threadID: "t-code\(index)",
                    internalDateMs: CLIFixture.now - Int64(index + 1) * 600_000, from: senders[index], to: [Self.me],
                    subject: "Your code", bodyText: "Your code is 55667\(index).", labelIDs: ["INBOX"],
                    verificationCode: VerificationCodeInput(code: "55667\(index)", service: services[index]))
            }, account: Self.me)
        return fixture
    }

    @Test("every row keeps to --width, and --ascii cuts with ASCII dots", arguments: [20, 40, 80])
    func width(columns: Int) async throws {
        let fixture = try fixture()
        let result = try await fixture.run(["codes", "--since", "7d", "--ascii", "--width", String(columns)])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n")
        #expect(rows.count == 2 && rows.allSatisfy { $0.hasPrefix("55667") }, "\(result.stdout)")
        #expect(rows.allSatisfy { $0.count <= columns }, "\(result.stdout)")
        #expect(result.stdout.allSatisfy { $0.isASCII }, "\(result.stdout)")
        // The age stays at the end of every row.
        #expect(rows.allSatisfy { $0.hasSuffix(" min ago") }, "\(result.stdout)")
    }

    @Test("the sender is named as the app names it: a name that repeats the service gives way to the address")
    func sender() async throws {
        let fixture = try fixture()
        let result = try await fixture.run(["codes", "--since", "7d", "--width", "100"])
        let github = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("556671") })
        #expect(github.contains("noreply@github.com"), "\(github)")
        #expect(github.count <= 100)
    }
}
