import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to its end from a test, without Foundation's `Process`.
///
/// `Process` watches its children with `select()`, which corrupts memory once the test process holds
/// descriptors above 1,024 (the whole suite runs in one process), and its children inherit whatever
/// the test holds. So this spawns with `posix_spawn`: stdin from a file, stdout and stderr to files (not
/// pipes a long-lived child such as a tmux server would hold open), every other descriptor closed, and
/// every signal at its default and none blocked (the test's threads block most signals, and a server
/// inheriting that mask never notices its children exit, nor passes Ctrl-C on).
///
/// It blocks until the program exits: call it off the cooperative pool (``offThePool(_:)``).
public enum ChildProcess {
    /// Runs `arguments` (the program first, found on PATH) with `input` as stdin.
    /// - returns: the exit status (128 + the signal for a child killed by one), stdout and stderr.
    public static func run(_ arguments: [String], input: String = "/dev/null") throws -> (
        status: Int32, output: String, errors: String
    ) {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        let errorFile = outputFile.appendingPathExtension("err")
        defer {
            // best-effort cleanup of this command's scratch files
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        let pid = try spawn(arguments, input: input, output: outputFile.path, errors: errorFile.path)
        let exitStatus = waitForExit(pid)
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""  // no file: no output
        let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""  // no file: nothing said
        return (exitStatus, output, errors)
    }

    /// Starts `arguments` (the program first, found on PATH) as ``run(_:input:)`` does, without waiting:
    /// for a server that lives on. Its stdout and stderr go to the files, appended to when `appending`.
    /// - returns: the child's pid, for ``waitForExit(_:)`` or a kill.
    public static func spawn(
        _ arguments: [String], input: String = "/dev/null", output: String, errors: String, appending: Bool = false
    ) throws -> pid_t {
        let mode = O_WRONLY | O_CREAT | (appending ? O_APPEND : O_TRUNC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, mode, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errors, mode, 0o600)
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
        // bash closes every descriptor above 2 (closefrom is not visible from Swift), then runs the command
        // in its place, keeping the pid.
        let closeAll =
            #"for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done 2>/dev/null; exec "$@""#
        let argv = (["/bin/bash", "-c", closeAll, "bash"] + arguments).map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/bash", &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw SpawnFailed(errno: spawned) }
        return pid
    }

    /// Blocks until `pid` exits; its exit status, 128 + the signal for a child killed by one.
    public static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return exitStatus(status)
    }

    /// The exit status in a `waitpid` status: WIFEXITED / WEXITSTATUS, which Swift does not import (the
    /// low 7 bits are the signal, if any).
    public static func exitStatus(_ waitStatus: Int32) -> Int32 {
        waitStatus & 0x7f == 0 ? (waitStatus >> 8) & 0xff : 128 + (waitStatus & 0x7f)
    }
}
