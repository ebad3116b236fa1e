import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real Dovecot IMAP server on 127.0.0.1, for tests and benchmarks: its configuration, users, mail
/// and logs all live under one directory, and it listens on a port of its own.
///
/// Every method blocks (it waits for processes and sockets): async callers run it on a thread of their
/// own. Nothing is left running when the server is released: `deinit` stops it, and a small watcher
/// process (`sh`, reading a pipe this process holds open) sends Dovecot SIGTERM if this process dies
/// first, since Dovecot has no exit-on-stdin-close of its own.
public final class DovecotServer: @unchecked Sendable {
    static let dovecotPath = "/usr/sbin/dovecot"
    static let doveadmPath = "/usr/bin/doveadm"

    /// Whether Dovecot and doveadm are installed, so tests can skip themselves on machines without them.
    public static var executableIsInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: dovecotPath)
            && FileManager.default.isExecutableFile(atPath: doveadmPath)
    }

    public let host = "127.0.0.1"
    /// Chosen free at start and kept across ``restart()``, so a client's account stays valid.
    public let port: Int
    /// Where everything of this server lives.
    public let directory: URL
    public let configuration: DovecotConfiguration
    let layout: DovecotLayout
    let owner: MailOwner

    /// Guards `running` and `nextMaildirSequence`; held across a whole stop or start, so they never
    /// interleave.
    let lock = NSLock()
    /// The master process and its watcher while the server runs; nil once stopped.
    private var running: RunningDovecot?
    /// Orders the files ``fillMaildir(_:folder:user:seen:)`` writes: Dovecot gives new Maildir files
    /// their UIDs in the order of the time and sequence parts of their names.
    var nextMaildirSequence = 0

    private init(directory: URL, configuration: DovecotConfiguration, port: Int, owner: MailOwner) {
        self.directory = directory
        self.configuration = configuration
        self.port = port
        self.owner = owner
        layout = DovecotLayout(directory: directory)
    }

    deinit {
        // Nobody is left to tell about a failed stop; the watcher still ends Dovecot when this process exits.
        do { try stop() } catch {}
    }

    /// Writes the configuration under `directory` (created if needed), starts `dovecot -F -c CONF` and
    /// returns once its port greets with `* OK`, after creating the configuration's extra folders.
    public static func start(in directory: URL, configuration: DovecotConfiguration = DovecotConfiguration())
        throws(DovecotError) -> DovecotServer
    {
        guard executableIsInstalled else { throw .notInstalled }
        let owner = try MailOwner.current()
        let layout = DovecotLayout(directory: directory)
        try prepareFiles(layout: layout, configuration: configuration, owner: owner)
        let instanceName = "chatmail-\(UUID().uuidString.prefix(8).lowercased())"

        var lastFailure = DovecotError.startFailed(reason: "no attempt was made", log: "")
        // A free port can be taken by another process between choosing it and Dovecot binding it.
        for _ in 0..<4 {
            let port = try LoopbackProbe.freePort()
            let text = DovecotConfigWriter.configText(
                configuration, layout: layout, port: port, instanceName: instanceName, owner: owner)
            try write(text, to: layout.configFile)
            let server = DovecotServer(directory: directory, configuration: configuration, port: port, owner: owner)
            do {
                try server.lock.locked { () throws(DovecotError) in try server.launchLocked() }
            } catch {
                lastFailure = error
                guard case .startFailed(_, let log) = error, log.contains("Address already in use") else { throw error }
                continue
            }
            try server.createExtraFolders()
            return server
        }
        throw lastFailure
    }

    /// Stops Dovecot: SIGTERM, and SIGKILL to its whole process group if it has not exited within 10 s;
    /// returns once it has been reaped and its port refuses connections. Does nothing when stopped.
    public func stop() throws(DovecotError) {
        try lock.locked { () throws(DovecotError) in try stopLocked() }
    }

    /// Stops and starts Dovecot again on the same port with the same configuration.
    public func restart() throws(DovecotError) {
        try lock.locked { () throws(DovecotError) in
            try stopLocked()
            try relaunchLocked()
        }
    }

    /// Kills Dovecot and every process it started (open IMAP sessions included) with SIGKILL, as a crash
    /// would, and returns once the port refuses connections. ``restart()`` brings it back.
    public func kill9() {
        lock.withLock {
            guard let current = running else { return }
            running = nil
            current.stopWatcher()
            // Dovecot's children stay in the group Foundation gave the master, so this reaches them all.
            kill(-current.process.processIdentifier, SIGKILL)
            current.process.waitUntilExit()
            waitUntilPortIsClosed(deadline: .now + .seconds(10))
        }
    }

    /// The last ~4 KB of Dovecot's log, and of what the master wrote on its own output, for failure messages.
    public var logTail: String {
        let output = fileTail(layout.outputFile, limit: 1024)
        return fileTail(layout.logFile) + (output.isEmpty ? "" : "\n--- dovecot output ---\n\(output)")
    }

    /// Stops Dovecot, runs `body` while it is down, and starts it again.
    func whileStopped(_ body: () throws(DovecotError) -> Void) throws(DovecotError) {
        try lock.locked { () throws(DovecotError) in
            try stopLocked()
            try body()
            try relaunchLocked()
        }
    }

    // MARK: - Processes (called with `lock` held)

    private func launchLocked() throws(DovecotError) {
        // A master killed with SIGKILL leaves its pid file; its pid may be some other process's by now.
        unlink(layout.baseDirectory.appendingPathComponent("master.pid").path)
        let logStart = fileSize(layout.logFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.dovecotPath)
        process.arguments = ["-F", "-c", layout.configFile.path]
        process.standardInput = FileHandle.nullDevice
        // A file, not a pipe: nothing has to drain it, and it survives to explain a failed start.
        guard FileManager.default.createFile(atPath: layout.outputFile.path, contents: nil),
            let output = FileHandle(forWritingAtPath: layout.outputFile.path)
        else { throw .fileSystem(path: layout.outputFile.path, reason: "cannot create") }
        defer { output.closeFile() }
        process.standardOutput = output
        process.standardError = output
        do { try Self.runWithSignalsUnblocked(process) } catch {
            throw .startFailed(reason: "cannot run \(Self.dovecotPath): \(error)", log: "")
        }
        let current = RunningDovecot(process: process, watcher: Self.startWatcher(for: process.processIdentifier))
        running = current

        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if !process.isRunning {
                running = nil
                current.stopWatcher()
                throw .startFailed(
                    reason: "dovecot exited with status \(process.terminationStatus)",
                    log: newLog(since: logStart))
            }
            if let greeting = LoopbackProbe.greeting(port: port), greeting.hasPrefix("* OK") { return }
            usleep(50_000)
        }
        let log = newLog(since: logStart)
        try stopLocked()
        throw .startFailed(reason: "no `* OK` greeting on 127.0.0.1:\(port) within 30 s", log: log)
    }

    /// Starts again on the kept port. Another process choosing a free port binds it for a moment, which
    /// makes Dovecot's bind fail; a few tries spaced out get past that.
    private func relaunchLocked() throws(DovecotError) {
        for attempt in 1...5 {
            do {
                try launchLocked()
                return
            } catch {
                guard attempt < 5, case .startFailed(_, let log) = error, log.contains("Address already in use") else {
                    throw error
                }
                usleep(300_000)
            }
        }
    }

    private func stopLocked() throws(DovecotError) {
        guard let current = running else { return }
        running = nil
        current.stopWatcher()
        let process = current.process
        let pid = process.processIdentifier
        if process.isRunning {
            kill(pid, SIGTERM)
            let deadline = ContinuousClock.now + .seconds(10)
            while !Self.hasExited(pid) && ContinuousClock.now < deadline { usleep(20_000) }
            // Foundation learns of the exit only when every process holding the end of its socketpair the
            // master inherited has exited, and Dovecot's log and stats processes and open sessions hold it
            // and outlive the master. Once the master is gone the server is down: a moment's grace, then
            // its stragglers are killed. The unreaped master keeps its pid, so the group is still ours.
            let grace = ContinuousClock.now + .seconds(1)
            while process.isRunning && ContinuousClock.now < grace { usleep(20_000) }
            if process.isRunning { kill(-pid, SIGKILL) }
        }
        process.waitUntilExit()
        if waitUntilPortIsClosed(deadline: .now + .seconds(10)) { return }
        // A child of the old master still holds the listener; the group outlives its leader, so this
        // cannot reach an unrelated process.
        kill(-process.processIdentifier, SIGKILL)
        guard waitUntilPortIsClosed(deadline: .now + .seconds(5)) else {
            throw .stopFailed(reason: "127.0.0.1:\(port) still accepts connections after dovecot exited")
        }
    }

    /// Whether the child `pid` has exited, without reaping it (Foundation does that).
    private static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        // ECHILD: already reaped, so certainly exited.
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return errno == ECHILD }
        return info._sifields._sigchld.si_pid == pid
    }

    @discardableResult
    private func waitUntilPortIsClosed(deadline: ContinuousClock.Instant) -> Bool {
        while LoopbackProbe.isAccepting(port: port) {
            guard ContinuousClock.now < deadline else { return false }
            usleep(20_000)
        }
        return true
    }

    /// A shell that waits for end-of-file on a pipe only this process holds the write end of, then sends
    /// the master SIGTERM (when that pid is still a dovecot). The kernel closes the pipe however this
    /// process ends, a crash included. Stopping kills the watcher first, so it never signals a reused pid.
    private static func startWatcher(for pid: Int32) -> RunningDovecot.Watcher? {
        let lifeline = Pipe()
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: "/bin/sh")
        watcher.arguments = [
            "-c", "read _; [ \"$(cat /proc/\(pid)/comm 2>/dev/null)\" = dovecot ] && kill -TERM \(pid)",
        ]
        watcher.standardInput = lifeline
        watcher.standardOutput = FileHandle.nullDevice
        watcher.standardError = FileHandle.nullDevice
        // Without a watcher the server still works and `deinit` still stops it; only a crash of this
        // process would leave Dovecot running.
        do { try watcher.run() } catch { return nil }
        return RunningDovecot.Watcher(process: watcher, lifeline: lifeline)
    }

    /// Starts `process` with the signals Dovecot acts on unblocked. A child inherits the spawning thread's
    /// signal mask, and the threads of a test runner or of Dispatch block nearly all signals; Dovecot does
    /// not unblock SIGTERM itself, so it would ignore both ``stop()`` and the watcher.
    ///
    /// Only these are unblocked on this thread, for the moment of the spawn: a process-directed signal that
    /// arrives meanwhile may be handled here instead of by the thread waiting for it, and terminal signals
    /// (SIGWINCH, SIGCONT, SIGTSTP) that another part of the process waits for must never be taken by it.
    private static func runWithSignalsUnblocked(_ process: Process) throws {
        var dovecotSignals = sigset_t()
        sigemptyset(&dovecotSignals)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE] {
            sigaddset(&dovecotSignals, signal)
        }
        var previous = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &dovecotSignals, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
    }

    private func newLog(since offset: UInt64) -> String {
        var log = ""
        if let handle = FileHandle(forReadingAtPath: layout.logFile.path) {
            handle.seek(toFileOffset: offset)
            log = String(decoding: handle.readDataToEndOfFile().suffix(4096), as: UTF8.self)
            handle.closeFile()
        }
        let output = fileTail(layout.outputFile, limit: 1024)
        return output.isEmpty ? log : log + "\n--- dovecot output ---\n" + output
    }
}

/// A started master and its watcher. Owned by one ``DovecotServer`` and only touched under its lock.
private final class RunningDovecot {
    struct Watcher {
        let process: Process
        /// Held open for as long as the server runs; its end-of-file is the watcher's signal.
        let lifeline: Pipe
    }

    let process: Process
    let watcher: Watcher?

    init(process: Process, watcher: Watcher?) {
        self.process = process
        self.watcher = watcher
    }

    func stopWatcher() {
        guard let watcher else { return }
        if watcher.process.isRunning { kill(watcher.process.processIdentifier, SIGKILL) }
        watcher.process.waitUntilExit()
    }
}

func fileSize(_ url: URL) -> UInt64 {
    var status = stat()
    guard stat(url.path, &status) == 0 else { return 0 }
    return UInt64(status.st_size)
}

extension NSLock {
    /// `withLock` keeping the body's typed error, which `rethrows` would widen to `any Error`.
    func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
