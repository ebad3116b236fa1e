import ChatmailTestSupport
import Foundation
import Testing

extension ComposeEndToEnd {
    /// The app's codes drawer and screener filter in a real tmux pane, on a home synced from the emulator.
    @Suite struct AppScreenerTmuxTests {
        /// A code sent half an hour before the pinned clock: inside the drawer's 24 hours.
        static let recentCode = """
            From: GitHub <noreply@github.com>\r\nTo: Me <me@example.org>\r\nSubject: Your GitHub verification code\r\n\
            Date: Wed, 5 Mar 2025 11:30:00 +0000\r\nMessage-ID: <recent-code@github.com>\r\n\r\n\
            Hey me!\r\n\r\nA sign in attempt requires further verification.\r\n\r\n\
            Verification code: 482913\r\n\r\nThanks,\r\nThe GitHub Team\r\n
            """
        /// A code from a day and a half before the pinned clock: outside them.
        static let oldCode = """
            From: Sparkasse <service@sparkasse.example>\r\nTo: Me <me@example.org>\r\nSubject: Ihr Bestätigungscode\r\n\
            Date: Tue, 4 Mar 2025 00:00:00 +0000\r\nMessage-ID: <old-code@sparkasse.example>\r\n\
            Content-Type: text/plain; charset=utf-8\r\n\r\nIhr Bestätigungscode lautet 731-904.\r\n
            """
        /// Mail from someone the account has never written to: the screener holds it.
        static let stranger = """
            From: Robin Stranger <robin@stranger.example>\r\nTo: Me <me@example.org>\r\n\
            Subject: A question about your bike\r\nDate: Wed, 5 Mar 2025 11:00:00 +0000\r\n\
            Message-ID: <q1@stranger.example>\r\n\r\nIs the bike still for sale?\r\n
            """

        @Test("C lists the last day's codes over the list; Enter opens the code's mail; Esc closes")
        func codes() async throws {
            let home = try await ComposeHome()
            for mail in [Self.recentCode, Self.oldCode] { try await ComposeHome.deliver(mail, to: home.setup) }
            #expect(try await home.run(["sync"]).status == 0)
            let tmux = try await AppTmuxTests().shell(home)
            try await tmux.type(#"chatmail app; echo "exit=$?""#)
            _ = try await tmux.rows("the app should open") { rows in rows.last?.contains("? help") == true }

            try await tmux.press("C")
            let drawer = try await tmux.rows("C should list the GitHub code") { rows in
                guard let title = rows.firstIndex(where: { $0.hasPrefix("Codes from the last 24 hours") }) else {
                    return false
                }
                return rows[title...].contains {
                    $0.hasPrefix("> 482913  GitHub") && $0.contains("noreply@github.com") && $0.hasSuffix("30 min ago")
                }
            }
            // The older code is past the window; the list stays in sight above the drawer.
            #expect(!drawer.contains { $0.contains("731-904") }, "\(drawer.joined(separator: "\n"))")
            let title = try #require(drawer.firstIndex { $0.hasPrefix("Codes from the last 24 hours") })
            #expect(title > 2 && drawer[..<title].contains { $0.contains("│") })

            try await tmux.press("Enter")
            _ = try await tmux.rows("Enter should open the code's mail and close the drawer") { rows in
                rows.contains { $0.contains("Verification code: 482913") }
                    && !rows.contains { $0.hasPrefix("Codes from the last 24 hours") }
            }
            try await tmux.press("C")
            _ = try await tmux.rows("C should open the drawer again") { rows in
                rows.contains { $0.hasPrefix("Codes from the last 24 hours") }
            }
            try await tmux.press("Escape")
            _ = try await tmux.rows("Esc should close the drawer") { rows in
                !rows.contains { $0.hasPrefix("Codes from the last 24 hours") } && rows.last?.contains("? help") == true
            }
            // The drawer closed, so the app has read Esc on its own: the next key cannot join it as Alt.
            try await tmux.press("q")
            _ = try await tmux.rows("q should quit") { rows in rows.contains("exit=0") }
        }

        @Test("with the screener on, the inbox counts what it holds and its filter lists it with the count")
        func screener() async throws {
            let home = try await ComposeHome()
            try await ComposeHome.deliver(Self.stranger, to: home.setup)
            #expect(try await home.run(["sync"]).status == 0)
            let on = try await home.run(["screener", "on"])
            #expect(on.status == 0, "\(on.stderr)")
            // "The screener is on: N conversations waiting. …"
            let held = try #require(
                on.stdout.firstMatch(of: /on: (\d+) conversation/).flatMap { Int($0.1) }, "\(on.stdout)")
            try #require(held > 0, "the stranger's conversation should be held")

            let tmux = try await AppTmuxTests().shell(home)
            try await tmux.type(#"chatmail app; echo "exit=$?""#)
            let inbox = try await tmux.rows("the inbox should count what the screener holds") { rows in
                rows.last?.contains("Inbox · \(held) screened") == true
                    && rows.contains { $0.hasPrefix("> ") || $0.contains("No conversations in Inbox") }
            }
            #expect(!inbox.contains { $0.contains("Robin") }, "\(inbox.joined(separator: "\n"))")

            // inbox → unread → people → lists → newsletters → all → screener
            for _ in 0..<6 { try await tmux.press("f") }
            _ = try await tmux.rows("the screener's filter should list Robin with the count") { rows in
                // Robin's row in the list: the name (cut to the column) beside the snippet.
                rows.last?.contains("Screener (\(held))") == true
                    && rows.contains { $0.contains("Robin Str") && $0.contains("Is the bike") }
            }
            try await tmux.press("q")
            _ = try await tmux.rows("q should quit") { rows in rows.contains("exit=0") }
        }
    }
}
