import Foundation
import Synchronization

/// Named places in a sync where a test can kill the process, as `kill -9` would, to prove that a sync
/// killed there leaves a store the next run completes with exactly a clean run's data.
///
/// Only the CLI arms it, from `CHATMAIL_TEST_CRASH_AT=<point>` or `<point>:<n>` (the n-th time the
/// point is reached, counting from 1), read once when `chatmail sync` starts; every other caller gets
/// the unarmed value, whose ``reach(_:)`` does nothing. When the armed point is reached, one line
/// `chatmail: crash point <point> reached` goes to stderr and the process raises SIGKILL: no cleanup,
/// no transaction commit, no flush, so the test can tell this death from any other.
public struct CrashPoints: Sendable {
    /// Where a sync can be killed, in the order a run reaches them.
    public enum Point: String, Sendable, CaseIterable {
        /// Push: Gmail accepted a label change; the action's progress is not saved locally yet.
        case actionSent
        /// Outbox: the message is marked as possibly sent (committed); the send request is not written yet.
        case sendMarked
        /// Outbox: Gmail accepted the message; the local copy does not know it yet.
        case sendAnswered
        /// Initial: the id listing and the download queue are committed; nothing is downloaded yet.
        case idsListed
        /// Initial: a chunk's messages are written inside its transaction; the rollups and the commit are not.
        case chunkPersisted
        /// Initial: a chunk's transaction committed (its rollups deferred, in a mailbox large enough).
        case chunkCommitted
        /// Initial: the final account-wide rollup pass committed; the catch-up pass has not run.
        case rollupsCommitted
        /// Incremental: history is applied inside the transaction; the history id is not saved yet.
        case historyApplied
        /// Incremental: the transaction with the new history id committed; the run has not returned.
        case historyCommitted
    }

    /// The environment variable the CLI reads.
    public static let environmentVariable = "CHATMAIL_TEST_CRASH_AT"

    private let armed: Armed?

    private final class Armed: Sendable {
        let point: Point
        let occurrence: Int
        let reached = Atomic<Int>(0)

        init(point: Point, occurrence: Int) {
            self.point = point
            self.occurrence = occurrence
        }
    }

    /// Unarmed: no point ever stops the process.
    public init() {
        armed = nil
    }

    /// Armed to kill the process the `occurrence`-th time `point` is reached.
    public init(killingAt point: Point, occurrence: Int = 1) {
        armed = Armed(point: point, occurrence: max(1, occurrence))
    }

    /// Parses `<point>` or `<point>:<n>`; `nil` for anything else.
    public init?(parsing spec: String) {
        let parts = spec.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let point = Point(rawValue: String(parts[0])) else { return nil }
        var occurrence = 1
        if parts.count == 2 {
            guard let n = Int(parts[1]), n >= 1 else { return nil }
            occurrence = n
        }
        self.init(killingAt: point, occurrence: occurrence)
    }

    /// Kills the process if this is the armed point's chosen occurrence.
    func reach(_ point: Point) {
        guard let armed, armed.point == point,
            armed.reached.wrappingAdd(1, ordering: .relaxed).newValue == armed.occurrence
        else { return }
        FileHandle.standardError.write(Data("chatmail: crash point \(point.rawValue) reached\n".utf8))
        raise(SIGKILL)
    }
}
