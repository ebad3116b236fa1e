import ChatmailStore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension AppBenchmark {
    /// Times `chatmail app` from spawn to its first full frame on a pseudo-terminal, `runs` times, and
    /// `chatmail --help` to its last byte the same way.
    func firstFrame(home: URL, store: ChatmailStore) throws -> (app: [Double], help: [Double]) {
        let chatmail = try ProcessTimer.siblingExecutable(named: "chatmail")
        let first = try require(
            try store.conversations(in: try store.account(.onlyAccount).id, filter: .init(limit: 1)).first,
            "the store has no conversation")
        // The list row shows the title cut to the column; its first word is enough to know the list is there.
        let marker = String(first.title.prefix { $0 != " " && $0 != "," }.prefix(8))
        var environment = ProcessInfo.processInfo.environment
        environment["CHATMAIL_HOME"] = home.path
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        // No Gmail: the app opens offline, as it would before a login; the screen is the same.
        environment["CHATMAIL_GMAIL_API_URL"] = "http://127.0.0.1:1"
        var app: [Double] = []
        var help: [Double] = []
        for run in 0...runs {
            let opened = try timeOnTerminal(chatmail.path, ["app"], environment: environment) { screen in
                screen.contains(marker) && screen.contains("? help")
            } then: { master in
                var quit = Array("q".utf8)
                _ = write(master, &quit, 1)
            }
            let helped = try timeOnTerminal(chatmail.path, ["--help"], environment: environment) { _ in false }
            if run > 0 {  // the first run warms the file cache
                app.append(opened)
                help.append(helped)
            }
        }
        return (app, help)
    }

    /// Spawns `path` on a new 120×40 pseudo-terminal and returns the seconds until `done` accepts what it
    /// drew (or until it exits, when `done` never does); then runs `then` with the terminal's master side
    /// and waits for the process.
    func timeOnTerminal(
        _ path: String, _ arguments: [String], environment: [String: String], until done: (String) -> Bool,
        then: (Int32) -> Void = { _ in }
    ) throws -> Double {
        var master: Int32 = -1
        var slave: Int32 = -1
        var window = winsize(ws_row: 40, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &window) == 0 else {
            throw ProcessTimer.Failure(description: "openpty failed: errno \(errno)")
        }
        defer { close(master) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for target in Int32(0)...2 { posix_spawn_file_actions_adddup2(&actions, slave, target) }
        posix_spawn_file_actions_addclose(&actions, master)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        let start = ContinuousClock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        close(slave)
        guard spawned == 0 else { throw ProcessTimer.Failure(description: "spawn failed: \(spawned)") }
        var screen: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var elapsed: Double?
        while elapsed == nil {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 10_000) > 0 else { break }
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { break }  // EIO: the program exited and closed the terminal
            screen += buffer[..<count]
            if done(String(decoding: screen, as: UTF8.self)) { elapsed = (ContinuousClock.now - start).seconds }
        }
        let total = elapsed ?? (ContinuousClock.now - start).seconds
        then(master)
        // Drain until the program exits, so it never blocks writing to a full terminal.
        while true {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 5_000) > 0, read(master, &buffer, buffer.count) > 0 else { break }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        if elapsed == nil && !arguments.contains("--help") {
            throw ProcessTimer.Failure(
                description: "\(arguments) never drew its frame: \(String(decoding: screen.suffix(400), as: UTF8.self))"
            )
        }
        return total
    }
}
