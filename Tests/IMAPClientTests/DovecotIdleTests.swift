import ChatmailTestSupport
import DovecotLauncher
import Foundation
import IMAPClient
import IMAPProtocol
import Testing

/// IDLE against a real Dovecot: changes arrive as events, a quiet IDLE outlives the command time-out, and
/// a dying server ends it.
@Suite("IMAPConnection's IDLE against Dovecot", .timeLimit(.minutes(5)))
struct DovecotIdleTests {
    typealias Fixture = DovecotFixture

    /// Bounds a broken run only: a passing one gets its event at once.
    static let eventLimit: Duration = .seconds(30)

    @Test("Another session's APPEND arrives as EXISTS; after stop() the connection takes commands")
    func existsFromAnotherSession() async throws {
        try await Fixture.withDovecot { server in
            let connection = try await Fixture.connect(server)
            #expect(try await connection.select("INBOX").exists == 0)
            let session = try await connection.idle()

            let other = try await Fixture.connect(server)
            _ = try await other.append(Fixture.message("new"), to: "INBOX", flags: [])
            await other.logout()

            let event = await Self.firstEvent(of: session) { if case .exists = $0 { true } else { false } }
            #expect(event == .exists(1))
            try await session.stop()
            try await connection.noop()
            let selection = try await connection.select("INBOX")
            #expect(selection.exists == 1)
            #expect(try await Fixture.messageIDs([1], on: connection) == [1: "new@example.net"])
            await connection.logout()
        }
    }

    @Test("A quiet IDLE outlives several command time-outs")
    func quietIdleOutlivesTheTimeout() async throws {
        try await Fixture.withDovecot { server in
            let timeouts = IMAPTimeouts(connect: .seconds(30), command: .seconds(2))
            let connection = try await Fixture.connect(server, timeouts: timeouts)
            _ = try await connection.select("INBOX")
            let session = try await connection.idle()
            // Three times the time-out of silence: with the time-out running, the connection would have
            // failed, ending the events and making stop() throw.
            try await Task.sleep(for: .seconds(6))
            try await session.stop()
            var events: [IMAPIdleEvent] = []
            for await event in session.events { events.append(event) }
            #expect(events == [])
            try await connection.noop()
            await connection.logout()
        }
    }

    @Test("Killing the server ends the events, and stop() throws")
    func serverDeathEndsTheIdle() async throws {
        try await Fixture.withDovecot { server in
            let connection = try await Fixture.connect(server)
            _ = try await connection.select("INBOX")
            let session = try await connection.idle()
            try await offThePool { server.kill9() }
            let finished = await Self.firstEvent(of: session) { _ in false }
            #expect(finished == nil)
            await #expect {
                try await session.stop()
            } throws: { error in
                guard case .disconnected = error as? IMAPClientError else { return false }
                return true
            }
            await #expect(throws: IMAPClientError.self) { try await connection.noop() }
        }
    }

    /// The first event `matches` accepts, or nil when the events finish first. Fails the test (and
    /// returns nil) if neither happens within ``eventLimit``.
    static func firstEvent(
        of session: IMAPIdleSession, where matches: @escaping @Sendable (IMAPIdleEvent) -> Bool
    ) async -> IMAPIdleEvent? {
        enum Outcome: Sendable {
            case event(IMAPIdleEvent?)
            case timedOut
        }
        let outcome = await withTaskGroup(of: Outcome.self) { group in
            group.addTask {
                for await event in session.events where matches(event) { return .event(event) }
                return .event(nil)
            }
            group.addTask {
                do { try await Task.sleep(for: eventLimit) } catch { return .event(nil) }
                return .timedOut
            }
            let first = await group.next() ?? .timedOut
            group.cancelAll()
            return first
        }
        switch outcome {
        case .event(let event): return event
        case .timedOut:
            Issue.record("no IDLE event and no end within \(eventLimit)")
            return nil
        }
    }
}
