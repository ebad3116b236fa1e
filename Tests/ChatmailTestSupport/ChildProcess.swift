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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
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
        // bash closes every descriptor above 2 (closefrom is not visible from Swift), then runs the command.
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
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, which Swift does not import: the low 7 bits are the signal, if any.
        let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""  // no file: no output
        let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""  // no file: nothing said
        return (exitStatus, output, errors)
    }
}
