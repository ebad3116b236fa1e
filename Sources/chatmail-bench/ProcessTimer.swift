import Foundation

/// Times whole processes: launch to exit, output to a scratch file, as a user's shell would run them.
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
    static func time(_ executable: URL, arguments: [String], environment: [String: String], runs: Int) throws -> [Double] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-bench-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }  // best-effort cleanup of a scratch file
        var times: [Double] = []
        for run in 0...runs {
            guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
                throw Failure(description: "cannot create \(output.path)")
            }
            let handle = try FileHandle(forWritingTo: output)
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardOutput = handle
            process.standardError = handle
            let start = ContinuousClock.now
            try process.run()
            process.waitUntilExit()
            let elapsed = (ContinuousClock.now - start).seconds
            try handle.close()
            guard process.terminationStatus == 0 else {
                let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                throw Failure(description: "\(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(text.prefix(300))")
            }
            if run > 0 { times.append(elapsed) }
        }
        return times
    }
}
