import ChatmailTestSupport
import Foundation
import Testing

/// The app on an IMAP account in a real tmux pane: new mail shows while it is open, through IDLE, long
/// before the periodic sync would bring it.
@Suite("The app on an IMAP account hears new mail (IDLE)", .serialized)
struct IMAPAppTmuxTests {
    @Test("a message APPENDed by another client shows in the open app within seconds")
    func idleBringsNewMail() async throws {
        let server = try await DovecotHomes.start()
        defer { server.stop() }
        try await server.deliver(imapMessage("hello", subject: "Hello", body: "First message."))
        let home = server.home("idle")
        try await server.loginAndSync(home)

        let binaries = CLIFixture.executable.deletingLastPathComponent().path
        let variables = [
            "LANG": "C.UTF-8", "TZ": "UTC", "TERM": "xterm-256color", "CHATMAIL_HOME": home.path,
            "HOME": server.directory.path, "HISTFILE": "", "PS1": RealTerminalTests.prompt + " ",
            "PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        ]
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }
            .joined(separator: " ")
        let tmux = Tmux()
        try await tmux.start("env -u NO_COLOR \(assignments) bash --norc --noprofile", columns: 110, rows: 20)
        _ = try await tmux.rows("The shell should prompt") { $0.last == RealTerminalTests.prompt }
        // The periodic sync is an hour away: only IDLE can bring the message in time.
        try await tmux.type("chatmail app --sync-every 3600")
        _ = try await tmux.rows("the app should open on Bob's conversation") { rows in
            rows.last?.contains(DovecotHomes.user) == true && rows.contains { $0.contains("Bob") }
        }
        // Whenever it arrives, before or after the app's IDLE is in place, the message must show: IDLE
        // reports what comes after it starts, and the app syncs once it is listening to catch the rest.
        try await IMAPTestMail.append(
            imapMessage("news", from: "Carol <carol@example.com>", subject: "Fresh news", body: "Just arrived."),
            host: server.host, port: server.port, user: DovecotHomes.user, password: DovecotHomes.password)
        let shown = try await tmux.rows("Carol's new message should show within 30 s", within: 30) { rows in
            rows.contains { $0.contains("Carol") }
        }
        #expect(shown.contains { $0.contains("Carol") })
        // And again, long after the app's first syncs: with the periodic sync an hour away, only a report
        // from IDLE brings it.
        try await IMAPTestMail.append(
            imapMessage("later", from: "Dave <dave@example.com>", subject: "Later news", body: "Arrived later."),
            host: server.host, port: server.port, user: DovecotHomes.user, password: DovecotHomes.password)
        _ = try await tmux.rows("Dave's message should show within 30 s too", within: 30) { rows in
            rows.contains { $0.contains("Dave") }
        }
        try await tmux.press("q")
        _ = try await tmux.rows("q should quit") { $0.last == RealTerminalTests.prompt }
    }
}
