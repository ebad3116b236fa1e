import Foundation
import Testing

extension ComposeEndToEnd {
    /// `chatmail codes` on a home synced from the emulator: codes are found as mail is stored, and listed
    /// by a query.
    @Suite struct CodesCommandTests {
        static let githubMail = """
            From: GitHub <noreply@github.com>\r\nTo: Me <me@example.org>\r\nSubject: [GitHub] Please verify your device\r\n\
            Date: Tue, 4 Mar 2025 11:00:00 +0000\r\nMessage-ID: <code1@github.com>\r\n\r\n\
            Hey me!\r\n\r\nA sign in attempt requires further verification. To complete the sign in, enter the \
            verification code on the unrecognized device.\r\n\r\nVerification code: 482913\r\n\r\nThanks,\r\nThe GitHub Team\r\n
            """
        static let germanMail = """
            From: Sparkasse <service@sparkasse.example>\r\nTo: Me <me@example.org>\r\nSubject: Ihr Bestätigungscode\r\n\
            Date: Tue, 4 Mar 2025 11:30:00 +0000\r\nMessage-ID: <code2@sparkasse.example>\r\n\
            Content-Type: text/plain; charset=utf-8\r\n\r\nIhr Bestätigungscode lautet 731-904.\r\nEr ist 10 Minuten gültig.\r\n
            """
        static let orderMail = """
            From: Shop <orders@shop.example>\r\nTo: Me <me@example.org>\r\nSubject: Order 20250304 confirmed\r\n\
            Date: Tue, 4 Mar 2025 12:00:00 +0000\r\nMessage-ID: <order@shop.example>\r\n\r\n\
            Your order number is 448812. Total: $125.40. Delivery on 2025-03-07 at 10:30.\r\n
            """

        @Test("codes lists the codes of recent mail, newest first; --latest prints one; ordinary mail has none")
        func codes() async throws {
            let home = try await ComposeHome()
            for mail in [Self.githubMail, Self.germanMail, Self.orderMail] {
                try await ComposeHome.deliver(mail, to: home.setup)
            }
            #expect(try await home.run(["sync"]).status == 0)

            let listed = try await home.run(["codes", "--json", "--since", "7d"])
            #expect(listed.status == 0, "\(listed.stderr)")
            let codes = try #require(try listed.json() as? [[String: Any]], "\(listed.stdout)")
            // Newest first: both codes by internal date, not the order mail.
            #expect(Set(codes.compactMap { $0["code"] as? String }) == ["482913", "731-904"], "\(codes)")
            #expect(codes.allSatisfy { Set($0.keys) == ["code", "service", "from", "receivedAt", "gmailId"] })
            let github = try #require(codes.first { $0["code"] as? String == "482913" })
            #expect(github["service"] as? String == "GitHub")
            #expect((github["from"] as? [String: Any])?["address"] as? String == "noreply@github.com")

            let latest = try await home.run(["codes", "--latest", "--since", "7d"])
            #expect(latest.status == 0)
            #expect(["482913\n", "731-904\n"].contains(latest.stdout), "\(latest.stdout)")

            let table = try await home.run(["codes", "--since", "7d"])
            #expect(table.stdout.contains("482913") && table.stdout.contains("GitHub"), "\(table.stdout)")

            let none = try await home.run(
                ["codes", "--latest", "--since", "1s"], environment: ComposeHome.later(60 * 24 * 400))
            #expect(none.status == 2, "\(none.stdout) \(none.stderr)")
            let bad = try await home.run(["codes", "--since", "yesterday"])
            #expect(bad.status == 64 && bad.stderr.contains("--since takes a duration"), "\(bad.stderr)")
        }
    }
}
