import Foundation

/// Runs `work` on its own thread and waits at most `seconds`, without blocking a thread of Swift's
/// cooperative pool: a parser that loops forever fails the test with the input's name instead of
/// hanging the suite, and other async tests keep running meanwhile.
func withDeadline<T: Sendable>(seconds: Double, _ work: @escaping @Sendable () -> T) async -> T? {
    await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        let once = ResumeOnce()
        let thread = Thread {
            let value = work()
            if once.claim() { continuation.resume(returning: value) }
        }
        thread.stackSize = 8 << 20  // deep MIME and HTML nesting recurse
        thread.start()
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            if once.claim() { continuation.resume(returning: nil) }
        }
    }
}

/// Lets exactly one of two racing callers resume a continuation.
final class ResumeOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }
            return !claimed
        }
    }
}
