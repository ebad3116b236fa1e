import CSpawn
import Foundation

/// Starts `/bin/sh -c COMMAND` children (the pager, password and token commands) the one way the CLI
/// does: every signal at its default and none blocked, whatever chatmail ignores or blocks (ignored
/// signals would otherwise survive exec), and no descriptor beyond stdin, stdout and stderr, so a child
/// never holds the database, a socket or the other end of its own pipe.
///
/// `posix_spawn` rather than Foundation's `Process`, whose child closes every possible descriptor one by
/// one before exec: tens of milliseconds that a reply's password command would cost each time.
enum ShellCommand {
    /// Starts the command with `input` as its stdin and `output` as its stdout (the caller's own when nil).
    /// - returns: the child's pid, to wait for.
    /// - throws: the `posix_spawn` error number.
    static func spawn(
        _ command: String, environment: [String: String], input: Int32? = nil, output: Int32? = nil
    ) throws(SpawnFailed) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input { posix_spawn_file_actions_adddup2(&actions, input, STDIN_FILENO) }
        if let output { posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO) }
        cspawn_addclosefrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        var none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let arguments: [String] = ["sh", "-c", command]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        guard result == 0 else { throw SpawnFailed(errno: result) }
        return pid
    }

    /// Runs the command to its end with its stdout captured (its stderr is chatmail's, so a password
    /// manager can ask for a passphrase).
    /// - returns: the exit status (128 + the signal for a child killed by one) and what it printed.
    static func run(_ command: String, environment: [String: String]) throws(SpawnFailed) -> (
        status: Int32, output: [UInt8]
    ) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SpawnFailed(errno: errno) }
        // Not inherited by anything else chatmail starts meanwhile: the reader would never see the end.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let pid: pid_t
        do {
            pid = try spawn(command, environment: environment, output: ends[1])
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
        close(ends[1])
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(ends[0], &buffer, buffer.count)
            if count > 0 {
                output += buffer[..<count]
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        close(ends[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, which Swift does not import: the low 7 bits are the signal, if any.
        let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, output)
    }

    struct SpawnFailed: Error, Equatable {
        var errno: Int32
        var reason: String { String(cString: strerror(errno)) }
    }
}
