import Foundation

/// Runs the emulator's server tasks on threads of its own.
///
/// An emulator started inside another program (the test suites start hundreds) would otherwise share
/// Swift's cooperative pool with its host: one thread per core, two on a small machine. A host that
/// keeps those threads busy with CPU-bound work leaves requests unanswered until the client's time-out
/// fires, so the emulator would fail by how busy its host is. With its own threads it answers whatever
/// the host is doing.
///
/// Invariant: once ``stop()`` has been called, no job waits in the queue for ever: the threads drain it
/// and exit, and a job enqueued later (a shutdown handler's last task) runs on a thread made for it.
final class EmulatorExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    /// Guarded by `condition`.
    private var isStopped = false

    init(threads: Int = 2) {
        precondition(threads > 0, "an executor needs at least one thread")
        for index in 0..<threads {
            // Each thread holds the executor until it exits, after `stop()`.
            let thread = Thread { [self] in work() }
            thread.name = "gmail-emulator-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        guard !isStopped else {
            condition.unlock()
            Thread.detachNewThread { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the threads finish what is queued and exit.
    func stop() {
        condition.lock()
        isStopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty && !isStopped { condition.wait() }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
