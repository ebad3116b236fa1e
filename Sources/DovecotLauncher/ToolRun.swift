import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One run of a command-line tool (`doveadm`) to its end: its input from a file, both outputs to files,
/// then read back.
///
/// It spawns with `posix_spawn` and waits with `waitpid`, not with Foundation's `Process`: on Linux every
/// `Process` registers a socket with Foundation's `select()`-based socket manager, and in a test process
/// with more than 1,024 descriptors open (many servers and stores at once) that overflows `select`'s
/// fixed descriptor set and corrupts memory. Tools run this way many times per test, so they stay clear
/// of it. Files rather than pipes, so no thread has to drain anything.
struct ToolRun: Sendable {
    let status: Int32
    let output: Data
    let errors: Data

    static func run(_ executable: String, _ arguments: [String], input: [UInt8]? = nil) throws(DovecotError) -> ToolRun
    {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("doveadm-\(UUID().uuidString)")
        let inputFile = scratch.appendingPathExtension("in")
        let outputFile = scratch.appendingPathExtension("out")
        let errorFile = scratch.appendingPathExtension("err")
        defer {
            for file in [inputFile, outputFile, errorFile] { unlink(file.path) }  // scratch files of this run only
        }
        do {
            try Data(input ?? []).write(to: inputFile)
        } catch {
            throw .commandFailed(arguments: arguments, status: -1, stderr: "cannot write its input: \(error)")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputFile.path, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The caller's thread may block most signals (a test runner's do); the tool starts with none blocked.
        var all = sigset_t()
        var none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            throw .commandFailed(
                arguments: arguments, status: -1,
                stderr: "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, which Swift does not import: the low 7 bits are the signal, if any.
        let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ToolRun(
            status: exitStatus, output: FileManager.default.contents(atPath: outputFile.path) ?? Data(),
            errors: FileManager.default.contents(atPath: errorFile.path) ?? Data())
    }
}

/// The last `limit` bytes of a file as text, or an empty string when it does not exist yet.
func fileTail(_ url: URL, limit: Int = 4096) -> String {
    guard let handle = FileHandle(forReadingAtPath: url.path) else { return "" }
    defer { handle.closeFile() }
    let size = handle.seekToEndOfFile()
    handle.seek(toFileOffset: size > UInt64(limit) ? size - UInt64(limit) : 0)
    return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
}
