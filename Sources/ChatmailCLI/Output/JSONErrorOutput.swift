import Foundation
import JSONOutput
import TerminalUI

/// A command that prints JSON on request. When such a run fails, ``ChatmailCommand`` prints the error
/// as a JSON document on stdout too (``JSONErrorDocument``), so a script reading stdout always gets JSON,
/// while stderr keeps its one line and the exit code stays the same.
protocol JSONOutputCommand {
    /// Whether this run prints JSON (`--json`).
    var printsJSON: Bool { get }
}

extension JSONError {
    init(status: ExitStatus, message: String) {
        self.init(code: status.code, kind: status.kind, message: message)
    }

    /// The status and message chatmail reports for `error`.
    init(_ error: any Error) {
        self.init(status: ExitStatus(for: error) ?? .failure, message: ExitStatus.summary(of: error))
    }
}

extension JSONErrorDocument {
    /// Prints the document on stdout. The process is about to exit with the error's status, which
    /// says everything even if stdout is gone, so a failed write is not reported again.
    func write() {
        guard let text = try? JSONRenderer.encode(self) else { return }
        try? FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
    }
}

/// An error a command has already put into the JSON it printed (a partial result with an `error`
/// member): it is still reported on stderr and decides the exit code, but no second document follows.
struct ErrorReportedInJSON: Error {
    var error: any Error
}

extension Sync: JSONOutputCommand { var printsJSON: Bool { json } }
extension Import: JSONOutputCommand { var printsJSON: Bool { json } }
extension View: JSONOutputCommand { var printsJSON: Bool { json } }
extension Status: JSONOutputCommand { var printsJSON: Bool { json } }
extension Conversations: JSONOutputCommand { var printsJSON: Bool { json } }
extension Show: JSONOutputCommand { var printsJSON: Bool { json } }
extension Search: JSONOutputCommand { var printsJSON: Bool { json } }
extension Codes: JSONOutputCommand { var printsJSON: Bool { json } }
extension Reply: JSONOutputCommand { var printsJSON: Bool { json } }
extension Send: JSONOutputCommand { var printsJSON: Bool { json } }
extension Pending.List: JSONOutputCommand { var printsJSON: Bool { json } }
extension Pending.Run: JSONOutputCommand { var printsJSON: Bool { json } }
extension Archive: JSONOutputCommand { var printsJSON: Bool { options.json } }
extension Unarchive: JSONOutputCommand { var printsJSON: Bool { options.json } }
extension Read: JSONOutputCommand { var printsJSON: Bool { options.json } }
extension Unread: JSONOutputCommand { var printsJSON: Bool { options.json } }
extension Star: JSONOutputCommand { var printsJSON: Bool { options.json } }
extension Unstar: JSONOutputCommand { var printsJSON: Bool { options.json } }
extension Trash: JSONOutputCommand { var printsJSON: Bool { options.json } }
