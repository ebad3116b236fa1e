import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Times whole processes: launch to exit, output to a scratch file, as a user's shell would run them.
///
/// It uses `posix_spawn` and `waitpid` directly: Foundation's `Process.waitUntilExit` on Linux polls
/// its run loop in 50 ms steps, which rounds every measurement up to a multiple of 50 ms.
enum ProcessTimer {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// An executable built beside this one (`.build/release/chatmail` next to `chatmail-bench`).
    static func siblingExecutable(named name: String) throws -> URL {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let sibling = me.deletingLastPathComponent().appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: sibling.path) else {
            throw Failure(description: "\(sibling.path) is missing; build it first (swift build -c release)")
        }
        return sibling
    }

    /// Wall-clock seconds of each of `runs` runs, after one untimed warm-up run.
    static func time(_ executable: URL, arguments: [String], environment: [String: String], runs: Int) throws
        -> [Double]
    {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chatmail-bench-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }  // best-effort cleanup of a scratch file
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        var times: [Double] = []
        for run in 0...runs {
            let start = ContinuousClock.now
            let status = try spawnAndWait(
                executable.path, arguments: arguments, environment: merged, outputPath: output.path)
            let elapsed = (ContinuousClock.now - start).seconds
            guard status == 0 else {
                let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                throw Failure(description: "\(arguments.joined(separator: " ")) exited \(status): \(text.prefix(300))")
            }
            if run > 0 { times.append(elapsed) }
        }
        return times
    }

    /// Runs `path` with stdout and stderr sent to `outputPath` (truncated) and returns its exit status.
    static func spawnAndWait(_ path: String, arguments: [String], environment: [String: String], outputPath: String)
        throws -> Int32
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw Failure(description: "cannot start \(path): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                throw Failure(description: "waitpid failed: \(String(cString: strerror(errno)))")
            }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import as functions.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
