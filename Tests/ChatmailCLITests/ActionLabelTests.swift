import ChatmailStore
import Foundation
import Testing

@testable import ChatmailApp
@testable import ChatmailCLI
@testable import ChatmailSync

/// An action reads the same wherever it was taken: the command's summary and the app's note share one table.
@Suite struct ActionLabelTests {
    /// The words before the target: "Moved to the trash" in "Moved to the trash: Lunch (2 messages). …".
    static func words(_ line: String, before target: String) -> String {
        let head = line.components(separatedBy: target).first ?? line
        return head.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: ":"))
    }

    @Test(
        "a command's summary and the app's note say what an action did in the same words",
        arguments: PendingActionKind.allCases.filter { $0 != .send })
    func sameWords(kind: PendingActionKind) {
        var outcome = ActionQueue.Outcome()
        outcome.messagesChanged = 2
        let summary = ActionRunner.summary(kind, target: "Lunch", countingMessages: true, outcome)
        let note = AppReducer.note(
            for: ActionReport(
                kind: kind, conversation: ConversationID(rawValue: 1), title: "Lunch", actionIDs: [], messagesChanged: 2
            ))
        #expect(Self.words(summary, before: "Lunch") == Self.words(note, before: "“Lunch”"), "\(summary) / \(note)")
    }
}
