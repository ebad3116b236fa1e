import Foundation
import GmailEmulator
import Testing

/// An emulator started with a journal comes back, after a restart, exactly as it stopped: the same
/// labels, history ids and history records, and the logins it issued still work.
@Suite struct JournalTests {
    static func configure(_ journal: String) -> (inout EmulatorConfiguration) -> Void {
        { configuration in
            configuration.mailbox = .synthetic(count: 12)
            configuration.seed = 5
            configuration.journalPath = journal
        }
    }

    static func temporaryJournal() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString).jsonl").path
    }

    @Test("changes, new mail, history and refresh tokens survive a restart; a refused change is not journaled")
    func restart() async throws {
        let journal = Self.temporaryJournal()
        defer { try? FileManager.default.removeItem(atPath: journal) }  // a temporary file
        var before: (profile: JSONValue, history: JSONValue, labels: JSONValue, start: String, refresh: String)?
        try await withEmulator(Self.configure(journal)) { harness in
            let start = try #require(try await harness.get(Harness.me + "/profile").json["historyId"]?.stringValue)
            let ids =
                try await harness.get(Harness.me + "/messages?maxResults=3").json["messages"]?.arrayValue?
                .compactMap { $0["id"]?.stringValue } ?? []
            try #require(ids.count == 3)
            #expect(
                try await harness.post(
                    Harness.me + "/messages/\(ids[0])/modify", json: #"{"removeLabelIds":["INBOX"]}"#
                ).status == 200)
            #expect(try await harness.post(Harness.me + "/messages/\(ids[1])/trash", json: "{}").status == 200)
            #expect(
                try await harness.post(Harness.me + "/messages/\(ids[2])/modify", json: #"{"addLabelIds":["NO_SUCH"]}"#)
                    .status == 400)
            _ = try await harness.deliver("From: a@example.org\r\nTo: me@example.com\r\nSubject: late\r\n\r\nhello\r\n")
            let tokens = try await harness.control("issue-tokens", "{}").json
            let refresh = try #require(tokens["refresh_token"]?.stringValue)
            before = (
                try await harness.get(Harness.me + "/profile").json,
                try await harness.get(Harness.me + "/history?startHistoryId=\(start)").json,
                try await harness.get(Harness.me + "/messages/\(ids[0])?format=minimal").json,
                start, refresh
            )
        }
        let saved = try #require(before)
        let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 4, "modify, trash, insert and one refresh token; the refused modify is not written")

        try await withEmulator(Self.configure(journal)) { harness in
            #expect(try await harness.get(Harness.me + "/profile").json == saved.profile)
            #expect(try await harness.get(Harness.me + "/history?startHistoryId=\(saved.start)").json == saved.history)
            let id = try #require(saved.labels["id"]?.stringValue)
            #expect(try await harness.get(Harness.me + "/messages/\(id)?format=minimal").json == saved.labels)
            let form =
                "grant_type=refresh_token&client_id=\(OAuthServer.Settings().clientId)&refresh_token=\(saved.refresh)"
            let refreshed = try await harness.request(
                "POST", "/token", body: Array(form.utf8), contentType: "application/x-www-form-urlencoded", token: nil)
            #expect(refreshed.status == 200, "\(refreshed.text)")
        }
    }

    @Test(
        "a journal that cannot be read, or does not fit the mailbox, stops the start and names the line",
        arguments: [
            "{\"refreshTokenIssued\":{\"_0\":\"t\"}}\nnot json\n",
            "{\"refreshTokenIssued\":{\"_0\":\"t\"}}\n{\"trash\":{\"id\":\"no-such-message\"}}\n",
        ])
    func damaged(contents: String) async throws {
        let journal = Self.temporaryJournal()
        defer { try? FileManager.default.removeItem(atPath: journal) }  // a temporary file
        try Data(contents.utf8).write(to: URL(fileURLWithPath: journal))
        let error = await #expect(throws: MailboxJournal.Unreadable.self) {
            try await withEmulator(Self.configure(journal)) { _ in }
        }
        #expect(error?.line == 2)
        #expect(error?.localizedDescription.contains(journal) == true)
    }
}
