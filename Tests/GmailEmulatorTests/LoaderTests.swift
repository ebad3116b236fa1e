import Foundation
import GmailEmulator
import GmailModel
import Testing

@Suite struct LoaderTests {
    @Test("a Takeout mbox loads with X-Gmail-Labels, >From unescaping and threads from In-Reply-To")
    func takeoutMbox() async throws {
        let mbox = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/import/takeout.mbox").path
        try await withEmulator({
            $0.mailbox = .path(mbox)
            $0.account = "me@example.org"
        }) { h in
            let lunch = try await h.get(Harness.me + "/messages?q=subject:lunch&labelIds=INBOX").json
            let first = try #require(lunch["messages"]?.arrayValue?.first)
            let id = try #require(first["id"]?.stringValue)
            let message = try await h.get(Harness.me + "/messages/\(id)?format=raw").json
            let labelIds = Set((message["labelIds"]?.arrayValue ?? []).compactMap(\.stringValue))
            #expect(labelIds.isSuperset(of: ["INBOX", "UNREAD", "CATEGORY_PERSONAL"]))
            let raw = String(decoding: message["raw"]?.stringValue.flatMap(Base64URL.decode) ?? [], as: UTF8.self)
            #expect(raw.contains("\nFrom the archives"))
            let sent = try await h.get(Harness.me + "/messages?labelIds=SENT").json["messages"]?.arrayValue?.first
            #expect(sent?["threadId"] == first["threadId"])
            let labels = try await h.get(Harness.me + "/labels").json["labels"]?.arrayValue ?? []
            #expect(labels.contains { $0["name"] == .string("Work") })
        }
    }
}
