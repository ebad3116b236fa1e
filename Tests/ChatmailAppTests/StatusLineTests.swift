import ChatmailApp
import ChatmailStore
import TerminalKit
import TerminalUI
import Testing
import TextFormatting

/// The status line at the width of a common terminal: whose mail this is comes first, and what is
/// happening (an error, a note) is shortened rather than the account's name.
@Suite("App view: status line")
struct StatusLineTests {
    typealias Data = AppTestData

    static let account = "timo.lindfors.private@example.org"
    static let revoked = "Gmail no longer accepts the saved login (the grant was revoked). Run `chatmail login` again."

    static func statusLine(_ state: AppState) -> String {
        let frame = AppView.frame(
            for: state, size: state.size, palette: Palette(isEnabled: false), glyphs: .rounded,
            time: TimeFormatting(timeZone: Data.utc, nowMs: Data.nowMs))
        return frame.lines.last ?? ""
    }

    static func state(columns: Int = 80) -> AppState {
        var state = Data.state(columns: columns, rows: 24)
        state.account = account
        return state
    }

    @Test("at 80 columns a real error is shortened, and the account's name stays whole")
    func errorGivesWay() {
        var state = Self.state()
        _ = AppReducer.reduce(&state, .syncFailed(message: Self.revoked, isOffline: false))
        let line = Self.statusLine(state)
        #expect(DisplayWidth.of(line) == 80, "\(line)")
        #expect(line.hasPrefix(" \(Self.account) "), "\(line)")
        #expect(line.contains("Error: Gmail no longer"), "\(line)")
        #expect(line.contains("…") && !line.contains("again."), "the error is the part shortened: \(line)")
    }

    @Test("offline: the account, the offline fact and the start of the error all show at 80 columns")
    func offline() {
        var state = Self.state()
        _ = AppReducer.reduce(
            &state, .syncFailed(message: "Could not reach Gmail: the network is unreachable.", isOffline: true))
        let line = Self.statusLine(state)
        #expect(line.hasPrefix(" \(Self.account) "), "\(line)")
        #expect(line.contains("Error: Could not reach Gmail"), "\(line)")
    }

    @Test("an account too long for the line is cut last, and only then")
    func accountCutOnlyWhenItCannotFit() {
        var state = Self.state(columns: 24)
        _ = AppReducer.reduce(&state, .syncFailed(message: Self.revoked, isOffline: false))
        let line = Self.statusLine(state)
        #expect(DisplayWidth.of(line) == 24, "\(line)")
        #expect(line.hasPrefix(" timo.lindfors.privat"), "\(line)")
        #expect(!line.contains("Error"), "no room is left for the error: \(line)")
    }

    @Test("wide, everything fits: facts on the left, the error whole on the right")
    func wideKeepsEverything() {
        var state = Self.state(columns: 200)
        _ = AppReducer.reduce(&state, .syncFailed(message: Self.revoked, isOffline: false))
        let line = Self.statusLine(state)
        #expect(line.hasPrefix(" \(Self.account) · Inbox · synced "), "\(line)")
        #expect(line.hasSuffix("Error: \(Self.revoked) "), "\(line)")
    }
}
