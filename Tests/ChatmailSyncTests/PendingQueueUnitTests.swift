import ChatmailStore
import GmailAPI
import Testing

@testable import ChatmailSync

/// A random source that always answers the same fraction, so jitter is exact in tests.
struct FixedRandom: RandomSource {
    var fraction: Double
    func next() -> UInt64 { UInt64(fraction * Double((UInt64(1) << 53) - 1)) << 11 }
}

func action(
    _ id: Int64, _ kind: PendingActionKind, _ targets: [String], sent: [String] = [],
    status: PendingActionStatus = .pending
) -> PendingAction {
    PendingAction(
        id: PendingActionID(rawValue: id), account: AccountID(rawValue: 1), kind: kind, target: "t", targetIDs: targets,
        sentIDs: sent, addLabels: kind.addLabels, removeLabels: kind.removeLabels, status: status, nextAttemptAtMs: 0,
        createdAtMs: 0, updatedAtMs: 0)
}

@Suite struct BackoffScheduleTests {
    @Test("the nominal delays double from 2 s and stop at the 10-minute cap")
    func doubling() {
        let schedule = BackoffSchedule()
        #expect(
            (1...6).map { schedule.delayMs(afterAttempt: $0, unit: 0.5) } == [
                2_000, 4_000, 8_000, 16_000, 32_000, 64_000,
            ])
        #expect(schedule.delayMs(afterAttempt: 9, unit: 0.5) == 512_000)
        #expect(schedule.delayMs(afterAttempt: 10, unit: 0.5) == 600_000)
        #expect(schedule.delayMs(afterAttempt: 60, unit: 1) == 600_000)
    }

    @Test("jitter spreads each delay by ±25%, and consecutive delays never overlap")
    func jitter() {
        let schedule = BackoffSchedule()
        #expect(schedule.delayMs(afterAttempt: 1, unit: 0) == 1_500)
        #expect(schedule.delayMs(afterAttempt: 1, unit: 1) == 2_500)
        for attempt in 1...7 {
            #expect(
                schedule.delayMs(afterAttempt: attempt, unit: 1) < schedule.delayMs(afterAttempt: attempt + 1, unit: 0))
        }
        #expect(
            schedule.nextAttemptMs(afterAttempt: 2, nowMs: 1_000, random: FixedRandom(fraction: 0)) == 1_000 + 3_000)
    }

    @Test("unreachable: the wait is half the time already waited, from 2 s up to the 10-minute cap, jittered")
    func unreachable() {
        let schedule = BackoffSchedule()
        #expect(schedule.unreachableDelayMs(waitedMs: 0, unit: 0.5) == 2_000)
        #expect(schedule.unreachableDelayMs(waitedMs: 60_000, unit: 0.5) == 30_000)
        #expect(schedule.unreachableDelayMs(waitedMs: 60_000, unit: 0) == 22_500)
        #expect(schedule.unreachableDelayMs(waitedMs: 86_400_000, unit: 1) == 600_000)
        #expect(schedule.unreachableDelayMs(waitedMs: 0, unit: 0) == 2_000)  // never below the base
    }

    @Test("a server's Retry-After lengthens the wait, but never past the cap")
    func retryAfter() {
        let schedule = BackoffSchedule()
        #expect(schedule.delayMs(afterAttempt: 1, unit: 0.5, retryAfterMs: 30_000) == 30_000)
        #expect(schedule.delayMs(afterAttempt: 3, unit: 0.5, retryAfterMs: 1_000) == 8_000)
        #expect(schedule.delayMs(afterAttempt: 1, unit: 0.5, retryAfterMs: 3_600_000) == 600_000)
    }
}

@Suite struct CoalescingTests {
    @Test("read then unread on the same messages: nothing is left to send")
    func oppositeCancels() {
        let plan = Coalescing.plan(kind: .unread, gmailIDs: ["a", "b"], live: [action(1, .read, ["a", "b", "c"])])
        #expect(plan.newTargets.isEmpty)
        #expect(plan.cancelled == ["a", "b"])
        #expect(plan.shrunk == [PendingActionID(rawValue: 1): ["c"]])
        let all = Coalescing.plan(kind: .unstar, gmailIDs: ["a"], live: [action(1, .star, ["a"])])
        #expect(all.shrunk == [PendingActionID(rawValue: 1): []])  // the earlier action is dropped
    }

    @Test("an identical queued action already covers a message")
    func sameKind() {
        let plan = Coalescing.plan(
            kind: .archive, gmailIDs: ["a", "b"], live: [action(1, .archive, ["a"], status: .failed)])
        #expect(plan.alreadyQueued == ["a"])
        #expect(plan.newTargets == ["b"])
        #expect(plan.shrunk.isEmpty)
    }

    @Test("messages already sent, or being sent, are never cancelled: the new action sends them")
    func sentOrProcessing() {
        // An action that has sent anything was tried: "b" may be in flight, so it is not cancelled either.
        let sent = Coalescing.plan(
            kind: .unread, gmailIDs: ["a", "b"], live: [action(1, .read, ["a", "b"], sent: ["a"])])
        #expect(sent.newTargets == ["a", "b"])
        #expect(sent.cancelled.isEmpty && sent.shrunk.isEmpty)
        let processing = Coalescing.plan(
            kind: .unread, gmailIDs: ["a"], live: [action(1, .read, ["a"], status: .processing)])
        #expect(processing.newTargets == ["a"])
        #expect(processing.cancelled.isEmpty)
    }

    @Test("an opposite action is never cancelled against one that was tried: Gmail may have applied it without a word")
    func triedIsNeverCancelled() {
        var failed = action(1, .read, ["a", "b"], status: .failed)
        failed.attempts = 1
        failed.lastError = "Gmail did not answer (timed out)."
        var crashed = action(1, .read, ["a", "b"])  // `processing` returned to `pending` after a crash
        crashed.attempts = 1
        var retried = action(1, .read, ["a", "b"])  // `pending retry`: attempts reset, last error kept
        retried.lastError = "Gave up after 5 attempts. Gmail had a server error (HTTP 503)."
        for earlier in [failed, crashed, retried] {
            #expect(earlier.mayHaveReachedGmail)
            let plan = Coalescing.plan(kind: .unread, gmailIDs: ["a"], live: [earlier])
            #expect(plan.newTargets == ["a"] && plan.cancelled.isEmpty && plan.shrunk.isEmpty)
            // The same kind is still covered: resending it changes nothing.
            #expect(Coalescing.plan(kind: .read, gmailIDs: ["a"], live: [earlier]).alreadyQueued == ["a"])
        }
        #expect(!action(1, .read, ["a"]).mayHaveReachedGmail)
    }

    @Test("only the latest live action on a message decides; finished actions are ignored")
    func latestDecides() {
        // unarchive, then trash (which leaves the inbox): a new unarchive must be sent after the trash.
        let live = [action(1, .unarchive, ["a"]), action(2, .trash, ["a"])]
        #expect(Coalescing.plan(kind: .unarchive, gmailIDs: ["a"], live: live).newTargets == ["a"])
        #expect(
            Coalescing.plan(kind: .archive, gmailIDs: ["a"], live: [action(1, .unarchive, ["a"], status: .abandoned)])
                .newTargets == ["a"])
    }
}

@Suite struct ActionTargetingTests {
    static let day: Int64 = 86_400_000
    static let messages = [
        ActionCandidate(gmailID: "old", labels: ["INBOX", "STARRED"], internalDateMs: 1 * day, isFromMe: false),
        ActionCandidate(gmailID: "mid", labels: ["INBOX", "UNREAD"], internalDateMs: 2 * day, isFromMe: false),
        ActionCandidate(gmailID: "mine", labels: ["SENT"], internalDateMs: 3 * day, isFromMe: true),
        ActionCandidate(
            gmailID: "binned", labels: ["TRASH", "UNREAD", "INBOX"], internalDateMs: 4 * day, isFromMe: false),
    ]

    @Test(
        "each kind chooses the visible messages it would change",
        arguments: [
            (PendingActionKind.archive, ["mid", "old"]),
            (.unarchive, []),  // only "mine" lacks INBOX, and my own messages stay out of the inbox
            (.read, ["mid"]),
            (.unread, []),  // the newest message from the other side ("mid") is unread already
            (.star, ["mine"]),
            (.unstar, ["old"]),
            (.trash, ["mine", "mid", "old"]),
        ])
    func targets(kind: PendingActionKind, expected: [String]) {
        #expect(ActionTargeting.targets(of: kind, among: Self.messages) == expected)
    }

    @Test("unread marks the newest message from the other side; star the newest message")
    func newest() {
        var messages = Self.messages
        messages[1].labels = ["INBOX"]
        #expect(ActionTargeting.targets(of: .unread, among: messages) == ["mid"])
        #expect(ActionTargeting.targets(of: .star, among: messages) == ["mine"])
        #expect(ActionTargeting.targets(of: .archive, among: messages.filter { !$0.labels.contains("INBOX") }).isEmpty)
        messages[0].labels = ["STARRED"]
        #expect(ActionTargeting.targets(of: .unarchive, among: messages) == ["old"])
    }
}
