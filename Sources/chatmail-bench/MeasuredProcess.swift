import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One whole-process run (posix_spawn, output to a file, `wait4`): wall and CPU time, which ``CPUTimer`` reads, plus the
/// child's peak resident set size, which `wait4` reports in `ru_maxrss` once the child has exited.
struct MeasuredProcess {
    /// What one run cost.
    struct Sample {
        var wall: Double
        /// User + system seconds.
        var cpu: Double
        /// Peak RSS in kB (Linux's unit for `ru_maxrss`): the child's own, or that of a child it waited for
        /// when larger.
        var maxRSSKB: Int

        var maxRSSMB: Double { Double(maxRSSKB) / 1024 }
    }

    let executable: URL
    /// The whole environment the child sees.
    let environment: [String: String]

    /// Runs `arguments`, stdout and stderr to `outputPath` (truncated); throws, quoting the output's
    /// start, when the child fails.
    func run(_ arguments: [String], outputPath: String) throws -> Sample {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        let start = ContinuousClock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw ProcessTimer.Failure(
                description: "cannot start \(executable.path): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else {
                throw ProcessTimer.Failure(description: "wait4 failed: \(String(cString: strerror(errno)))")
            }
        }
        let wall = (ContinuousClock.now - start).seconds
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw ProcessTimer.Failure(
                description:
                    "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) failed with status \(status): \(text.prefix(600))"
            )
        }
        let cpu =
            Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        return Sample(wall: wall, cpu: cpu, maxRSSKB: usage.ru_maxrss)
    }
}

extension MeasuredProcess.Sample {
    /// `1.23 s (CPU 0.98 s)`.
    var text: String { String(format: "%.2f s (CPU %.2f s)", wall, cpu) }
    /// `67 ms (CPU 41 ms)`, for the short runs.
    var milliseconds: String { String(format: "%.0f ms (CPU %.0f ms)", wall * 1000, cpu * 1000) }
}
