import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The `gmail-emulator` executable run as a child process: started, read until it prints the URL it
/// listens on, and stopped. The demo, the benchmarks and the end-to-end tests all start theirs here.
///
/// Its output is drained for as long as it runs: a child whose pipe fills up blocks in `write` and
/// stops answering requests. The tail of its error output is kept, to explain a failed start.
public final class EmulatorChild: @unchecked Sendable {
    /// The OAuth client id the child is started with; a client must present the same one.
    public static let clientID = "emulator-client.apps.googleusercontent.com"

    /// Where the emulator listens, from the first line it prints.
    public let baseURL: URL
    private let process: Process
    /// The write end of the child's standard input, never written: when this process ends, however it
    /// ends, the kernel closes it and the child, started with `--exit-when-stdin-closes`, stops too.
    private let lifeline: Pipe
    private let errorOutput: OutputTail
    private let standardOutput: OutputTail

    /// The child's process id, to read its resource use from `/proc`.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// The `gmail-emulator` built beside the running executable (`chatmail`, `chatmail-bench`, the test bundle).
    public static var siblingExecutable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("gmail-emulator")
    }

    /// Runs `executable serve` with `serveArguments` plus ``clientID``, and returns once it has printed
    /// its base URL on its first stdout line.
    public init(executable: URL = siblingExecutable, serveArguments: [String]) throws(EmulatorLaunchError) {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw .executableMissing(path: executable.path)
        }
        process = Process()
        process.executableURL = executable
        process.arguments = ["serve"] + serveArguments + ["--client-id", Self.clientID, "--exit-when-stdin-closes"]
        lifeline = Pipe()
        process.standardInput = lifeline
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch {
            throw .exitedBeforeListening(reason: "cannot start \(executable.path): \(error)")
        }
        errorOutput = OutputTail(draining: errors.fileHandleForReading)

        // Byte by byte, so nothing after the first line is consumed here.
        var line = Data()
        while let byte = try? output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) {
            line.append(byte)
        }
        standardOutput = OutputTail(draining: output.fileHandleForReading)
        guard let url = URL(string: String(decoding: line, as: UTF8.self)), url.host != nil else {
            process.terminate()
            process.waitUntilExit()
            // It wrote why on stderr (a damaged journal, say) before exiting.
            let reason = errorOutput.finished().split(separator: "\n").last.map(String.init) ?? "no reason given"
            throw .exitedBeforeListening(reason: reason)
        }
        baseURL = url
    }

    /// Like ``init(executable:serveArguments:)``, but waits for the first line on a thread of its own, so
    /// async callers keep the cooperative pool's threads free while a child is slow to start.
    public static func start(executable: URL = siblingExecutable, serveArguments: [String])
        async throws(EmulatorLaunchError) -> EmulatorChild
    {
        let started: Result<EmulatorChild, EmulatorLaunchError> = await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(
                    returning: Result { () throws(EmulatorLaunchError) in
                        try EmulatorChild(executable: executable, serveArguments: serveArguments)
                    })
            }.start()
        }
        return try started.get()
    }

    /// Stops the child: SIGTERM, then SIGKILL once `grace` has passed. A graceful shutdown waits for idle
    /// keep-alive connections, so no caller may hang on it; `.zero` kills at once, for callers that need
    /// nothing of the child's state afterwards.
    ///
    /// Liveness is read from `/proc`, not from `Process.isRunning`: Foundation on Linux learns of a child's
    /// end through a descriptor the child inherited, and under load it was seen to report a live child as
    /// ended (so no SIGKILL was sent) and then spin in `waitUntilExit` for ever.
    public func stop(grace: Duration = .seconds(3)) {
        let pid = process.processIdentifier
        guard Self.isAlive(pid) else { return }
        if grace > .zero {
            kill(pid, SIGTERM)
            let deadline = ContinuousClock.now + grace
            while Self.isAlive(pid) && ContinuousClock.now < deadline { usleep(20_000) }
        }
        if Self.isAlive(pid) { kill(pid, SIGKILL) }
        // SIGKILL cannot be caught: the child is a zombie within moments. Foundation reaps it soon after;
        // waiting for that (bounded) means that when this returns the pid is gone, not merely dead.
        while Self.isAlive(pid) { usleep(5_000) }
        let reaped = ContinuousClock.now + .seconds(5)
        while Self.exists(pid) && ContinuousClock.now < reaped { usleep(5_000) }
    }

    /// Whether `pid` has a `/proc` entry at all, a zombie's included.
    static func exists(_ pid: Int32) -> Bool {
        FileManager.default.fileExists(atPath: "/proc/\(pid)")
    }

    /// Whether `pid` runs: it exists and is neither a zombie nor dead. Foundation reaps it on its own schedule.
    static func isAlive(_ pid: Int32) -> Bool {
        guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }  // no /proc entry: gone
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }

    /// What the child has written on stderr so far (its last 64 KiB).
    public var errorText: String { errorOutput.text }

    /// What the child has written on stdout after its first line so far (its last 64 KiB).
    public var outputText: String { standardOutput.text }
}

/// Why an emulator child did not start.
public enum EmulatorLaunchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No executable at `path`: it is built beside the program that starts it.
    case executableMissing(path: String)
    /// It exited, or printed something other than a URL, before listening; `reason` is its last word.
    case exitedBeforeListening(reason: String)

    public var description: String {
        switch self {
        case .executableMissing(let path): "the emulator is missing: \(path) does not exist or cannot be run"
        case .exitedBeforeListening(let reason): "the emulator did not start: \(reason)"
        }
    }
}

/// Reads a pipe to its end on a background thread, keeping the last `limit` bytes.
final class OutputTail: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()
    private let limit = 64 * 1024
    private let done = DispatchSemaphore(value: 0)

    init(draining handle: FileHandle) {
        Thread.detachNewThread { [self] in
            defer { done.signal() }
            while true {
                // A read error ends the stream like end-of-file: there is nothing more to keep.
                guard let chunk = try? handle.read(upToCount: 16 * 1024), !chunk.isEmpty else { return }
                lock.withLock {
                    buffer.append(chunk)
                    if buffer.count > 2 * limit { buffer = buffer.suffix(limit) }
                }
            }
        }
    }

    var text: String { lock.withLock { String(decoding: buffer.suffix(limit), as: UTF8.self) } }

    /// Waits for the end of the stream (the child has exited) and returns what was kept.
    func finished() -> String {
        done.wait()
        done.signal()
        return text
    }
}
