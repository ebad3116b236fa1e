import ChatmailStore
import Foundation
import JSONOutput
import RecordViews
import Testing
import TextFormatting

@testable import TerminalUI

@Suite struct PendingActionRendererTests {
    static let now: Int64 = 1_741_176_000_000

    func action(_ status: PendingActionStatus, next: Int64, target: String, error: String?) -> PendingAction {
        PendingAction(
            id: PendingActionID(rawValue: 7), account: AccountID(rawValue: 1), kind: .archive, target: target,
            targetIDs: ["a", "b"], addLabels: [], removeLabels: ["INBOX"], status: status, attempts: 2,
            nextAttemptAtMs: next, lastError: error, createdAtMs: 0, updatedAtMs: 0)
    }

    @Test("a listing row holds id, kind, status, attempts, next attempt and target; the last error sits below it")
    func columns() {
        let renderer = PendingActionRenderer(
            width: 100, time: TimeFormatting(timeZone: .gmt, nowMs: Self.now), palette: Palette(isEnabled: false))
        let text = renderer.render([
            action(
                .failed, next: Self.now + 4_200, target: "alice@example.com",
                error: "Gmail had a server error (HTTP 503)."),
            action(.abandoned, next: 0, target: "bob@example.net", error: nil),
        ])
        #expect(
            text == """
                ID  KIND     STATUS     ATTEMPTS  NEXT    TARGET
                #7  archive  failed     2         in 5 s  alice@example.com (2 messages)
                    last error: Gmail had a server error (HTTP 503).
                #7  archive  abandoned  2         -       bob@example.net (2 messages)

                """)
        #expect(renderer.render([PendingAction]()) == "No queued actions.\n")
    }

    @Test("targets and errors come from mail and servers: escape sequences never reach the terminal, in text or JSON")
    func hostileText() throws {
        let hostile = action(
            .pending, next: Self.now, target: "evil\u{1B}]52;c;cm0gLXJmIH4=\u{07}@example.com\u{202E}",
            error: "bad\u{1B}[2J\u{9B}31m reason")
        let time = TimeFormatting(timeZone: .gmt, nowMs: Self.now)
        let text = PendingActionRenderer(width: 100, time: time, palette: Palette(isEnabled: false)).render([hostile])
        #expect(
            !text.unicodeScalars.contains {
                $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B || $0.value == 0x202E
            })
        let json = try JSONRenderer(time: time).render([hostile])
        #expect(!json.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x202E })
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(decoded[0]["target"] as? String == hostile.target)  // escaped, not altered
        #expect(decoded[0]["nextAttemptAt"] as? String == "2025-03-05T12:00:00+00:00")
    }
}
