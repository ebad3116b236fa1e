import Foundation

/// Runs `work` on its own thread and waits at most `seconds`: a parser that loops forever fails the
/// test with the input's name instead of hanging the suite.
func withDeadline<T: Sendable>(seconds: Double, _ work: @escaping @Sendable () -> T) -> T? {
    let box = DeadlineBox<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.value = work()
        done.signal()
    }
    thread.stackSize = 8 << 20  // deep MIME and HTML nesting recurse
    thread.start()
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    return box.value
}

/// The worker's result: written once by the worker thread, read only after the semaphore.
final class DeadlineBox<T>: @unchecked Sendable {
    var value: T?
}
