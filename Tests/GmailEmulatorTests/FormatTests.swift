import Foundation
import GmailEmulator
import GmailModel
import MailText
import Testing

@Suite struct FormatTests {
    static func lunchId(_ h: Harness) async throws -> String {
        let list = try await h.get(Harness.me + "/messages?q=subject:lunch").json
        return try #require(list["messages"]?.arrayValue?.first?["id"]?.stringValue)
    }

    @Test("minimal, metadata, full and raw for a multipart message with an attachment")
    func formats() async throws {
        try await withEmulator { h in
            let id = try await FormatTests.lunchId(h)
            let minimal = try await h.get(Harness.me + "/messages/\(id)?format=minimal").json
            #expect(minimal["payload"] == nil && minimal["raw"] == nil)
            #expect(minimal["snippet"]?.stringValue?.hasPrefix("Hi Ann, Lunch at 12? Café it&#39;s on me") == true)
            #expect(minimal["internalDate"] == .string("1731488400000"))
            let metadata = try await h.get(
                Harness.me + "/messages/\(id)?format=metadata&metadataHeaders=From&metadataHeaders=subject"
            ).json
            #expect(
                metadata["payload"]
                    == .object([
                        ("mimeType", .string("multipart/mixed")),
                        (
                            "headers",
                            .array([
                                .object([
                                    ("name", .string("From")), ("value", .string("Bob Example <bob@example.org>")),
                                ]),
                                .object([("name", .string("Subject")), ("value", .string("lunch"))]),
                            ])
                        ),
                    ]))
            let full = try await h.get(Harness.me + "/messages/\(id)").json
            let payload = try #require(full["payload"])
            #expect(payload["partId"] == .string("") && payload["filename"] == .string(""))
            #expect(payload["body"] == .object([("size", .int(0))]))
            #expect(payload["headers"]?.arrayValue?.first?["name"] == .string("From"))
            let parts = payload["parts"]?.arrayValue ?? []
            #expect(parts.map { $0["partId"] } == [.string("0"), .string("1")])
            let leaves = parts[0]["parts"]?.arrayValue ?? []
            #expect(leaves.map { $0["partId"] } == [.string("0.0"), .string("0.1")])
            let plainData = try #require(leaves[0]["body"]?["data"]?.stringValue)
            #expect(plainData.contains("=") || plainData.count % 4 == 0)
            #expect(Base64URL.decode(plainData) == Array("Hi Ann, Lunch at 12? Café it's on me".utf8))
            #expect(leaves[0]["body"]?["size"] == .int(Int64("Hi Ann, Lunch at 12? Café it's on me".utf8.count)))
            let attachment = parts[1]
            #expect(attachment["filename"] == .string("menu.pdf"))
            let attachmentId = try #require(attachment["body"]?["attachmentId"]?.stringValue)
            #expect(attachment["body"]?["data"] == nil)
            let fetched = try await h.get(Harness.me + "/messages/\(id)/attachments/\(attachmentId)").json
            let expected = TransferDecoding.base64(
                Array("JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoKPDwvTGVuZ3RoIDMgMCBSPj4Kc3RyZWFtCg==".utf8))
            #expect(fetched["data"]?.stringValue.flatMap(Base64URL.decode) == expected)
            #expect(fetched["size"] == .int(Int64(expected.count)))
            let raw = try await h.get(Harness.me + "/messages/\(id)?format=raw").json
            #expect(raw["payload"] == nil)
            #expect(raw["raw"]?.stringValue.flatMap(Base64URL.decode) == Array(Fixtures.multipart.utf8))
            #expect(raw["sizeEstimate"] == .int(Int64(Fixtures.multipart.utf8.count)))
        }
    }

    @Test("fields= keeps only the selected fields")
    func partialResponse() async throws {
        try await withEmulator { h in
            let list = try await h.get(Harness.me + "/messages?maxResults=2&fields=nextPageToken,messages/id").json
            #expect(list["resultSizeEstimate"] == nil)
            #expect(list["messages"]?.arrayValue?.allSatisfy { $0["threadId"] == nil && $0["id"] != nil } == true)
            let id = try await FormatTests.lunchId(h)
            let message = try await h.get(Harness.me + "/messages/\(id)?fields=id,payload(mimeType,parts/partId)").json
            #expect(message["labelIds"] == nil)
            #expect(message["payload"]?["mimeType"] == .string("multipart/mixed"))
            #expect(message["payload"]?["headers"] == nil)
            #expect(message["payload"]?["parts"]?.arrayValue?.first == .object([("partId", .string("0"))]))
        }
    }
}
