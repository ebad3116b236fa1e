import Foundation
import GmailAPI
import GmailEmulator
import GmailModel
import Testing

/// Every endpoint of the client against the emulator over real sockets.
@Suite("End to end: endpoints")
struct EndToEndEndpointTests {
    @Test("profile, labels and sendAs round-trip")
    func mailboxReads() async throws {
        try await withEmulator { e in
            let client = e.client()
            let profile = try await client.getProfile()
            #expect(profile.emailAddress == "me@example.com")
            #expect(profile.messagesTotal == EndToEndFixtures.raws.count)
            #expect(profile.historyID > 0)
            let labels = try await client.listLabels()
            let ids = Set(labels.map(\.id))
            for system in ["INBOX", "UNREAD", "TRASH", "SPAM", "SENT", "STARRED"] {
                #expect(ids.contains(system), "missing \(system)")
            }
            #expect(labels.first { $0.id == "INBOX" }?.isSystem == true)
            let sendAs = try await client.listSendAs()
            #expect(sendAs.contains { $0.sendAsEmail == "me@example.com" && $0.isPrimary == true })
        }
    }

    @Test("messages.get in full, metadata, minimal and raw; raw decodes to the delivered bytes")
    func messageFormats() async throws {
        try await withEmulator { e in
            let client = e.client()
            let refs = try await client.listAllMessages()
            #expect(refs.count == EndToEndFixtures.raws.count)
            // raw: every fixture comes back byte for byte.
            var raws: Set<Data> = []
            for ref in refs {
                let message = try await client.getMessage(id: ref.id, format: .raw)
                #expect(message.id == ref.id)
                let raw = try #require(message.raw)
                raws.insert(Data(try #require(Base64URL.decode(raw))))
            }
            #expect(raws == Set(EndToEndFixtures.raws.map { Data($0.utf8) }))

            // A message delivered later, through the control API, too.
            let delivered = EndToEndFixtures.plain(40)
            let newID = try await e.deliver(delivered)
            let fetched = try await client.getMessage(id: newID, format: .raw)
            #expect(Base64URL.decode(try #require(fetched.raw)) == Array(delivered.utf8))

            let full = try await client.getMessage(id: newID, format: .full)
            #expect(full.payload?.header("Subject") == "note 40")
            #expect(full.payload?.body?.data.flatMap(Base64URL.decode) == Array("Body of note 40.\r\n".utf8))
            #expect(full.labelIds.contains("INBOX"))
            #expect(full.historyID != nil && full.internalDateMs != nil)

            let metadata = try await client.getMessage(id: newID, format: .metadata(headers: ["Subject"]))
            #expect(metadata.payload?.headers.map(\.name) == ["Subject"])
            #expect(metadata.payload?.body?.data == nil)

            let minimal = try await client.getMessage(id: newID, format: .minimal)
            #expect(minimal.payload == nil)
            #expect(minimal.raw == nil)
            #expect(Set(minimal.labelIds) == ["INBOX", "UNREAD"])
        }
    }

    @Test("attachments.get returns the attachment part's bytes")
    func attachment() async throws {
        try await withEmulator { e in
            let client = e.client()
            var found = false
            for ref in try await client.listAllMessages() {
                let message = try await client.getMessage(id: ref.id)
                guard let part = message.payload?.parts.first(where: { $0.filename == "menu.pdf" }) else { continue }
                found = true
                let attachmentID = try #require(part.body?.attachmentId)
                let body = try await client.getAttachment(messageID: ref.id, attachmentID: attachmentID)
                let expected = try #require(Data(base64Encoded: EndToEndFixtures.attachmentBase64))
                #expect(body.data.flatMap(Base64URL.decode) == Array(expected))
                #expect(body.size == expected.count)
            }
            #expect(found)
        }
    }

    @Test("modify, trash, untrash, batchModify: labels via getMessage and via typed history records in order")
    func mutationsAndHistory() async throws {
        try await withEmulator { e in
            let client = e.client()
            let start = try await client.getProfile().historyID
            let ids = try await client.listAllMessages().map(\.id)
            let (a, b, c, d) = (ids[0], ids[1], ids[2], ids[3])

            let modified = try await client.modify(id: a, add: ["STARRED"], remove: ["UNREAD"])
            #expect(modified.id == a)
            #expect(Set(try await client.getMessage(id: a, format: .minimal).labelIds) == ["INBOX", "STARRED"])

            _ = try await client.trash(id: b)
            let trashed = try await client.getMessage(id: b, format: .minimal).labelIds
            #expect(trashed.contains("TRASH"))
            _ = try await client.untrash(id: b)
            let untrashed = try await client.getMessage(id: b, format: .minimal).labelIds
            #expect(!untrashed.contains("TRASH"))
            #expect(untrashed.contains("INBOX"), "the emulator restores INBOX that trash removed")

            try await client.batchModify(ids: [c, d], add: ["IMPORTANT"], remove: ["UNREAD"])
            for id in [c, d] {
                #expect(Set(try await client.getMessage(id: id, format: .minimal).labelIds) == ["INBOX", "IMPORTANT"])
            }
            let newID = try await e.deliver(EndToEndFixtures.plain(50))

            let listing = try await client.listHistory(startHistoryID: start)
            let end = try await client.getProfile().historyID
            #expect(listing.finalHistoryID == end)
            #expect(end > start)
            let recordIDs = listing.records.map(\.id)
            #expect(
                recordIDs == recordIDs.sorted() && Set(recordIDs).count == recordIDs.count,
                "records in increasing id order")
            #expect(listing.records.allSatisfy { $0.id > start && $0.id <= end })

            // Flatten typed records into (type, message, labels) events.
            struct Event: Equatable {
                var type: String
                var id: String
                var labels: Set<String>
            }
            var events: [Event] = []
            for record in listing.records {
                events += record.messagesAdded.map { Event(type: "added", id: $0.message.id, labels: []) }
                events += record.messagesDeleted.map { Event(type: "deleted", id: $0.message.id, labels: []) }
                events += record.labelsAdded.map {
                    Event(type: "labelsAdded", id: $0.message.id, labels: Set($0.labelIds))
                }
                events += record.labelsRemoved.map {
                    Event(type: "labelsRemoved", id: $0.message.id, labels: Set($0.labelIds))
                }
            }
            let expected = [
                Event(type: "labelsAdded", id: a, labels: ["STARRED"]),
                Event(type: "labelsAdded", id: b, labels: ["TRASH"]),
                Event(type: "labelsRemoved", id: b, labels: ["TRASH"]),
                Event(type: "labelsAdded", id: c, labels: ["IMPORTANT"]),
                Event(type: "added", id: newID, labels: []),
            ]
            #expect(isSubsequence(expected, of: events), "events: \(events)")
            #expect(events.contains(Event(type: "labelsRemoved", id: a, labels: ["UNREAD"])))
            #expect(events.contains(Event(type: "labelsAdded", id: d, labels: ["IMPORTANT"])))
            #expect(events.contains(Event(type: "labelsRemoved", id: d, labels: ["UNREAD"])))
            // Nothing for messages we did not touch.
            let touched: Set<String> = [a, b, c, d, newID]
            #expect(events.allSatisfy { touched.contains($0.id) })

            // History pages: the same records with a tiny page size.
            let paged = try await client.listHistory(startHistoryID: start, maxResults: 2)
            #expect(paged.records == listing.records)
            #expect(paged.pageCount > 1)
            #expect(paged.finalHistoryID == end)
        }
    }

    @Test("history.list: an injected empty page with a nextPageToken is followed, nothing is lost")
    func emptyHistoryPage() async throws {
        try await withEmulator { e in
            let client = e.client()
            let start = try await client.getProfile().historyID
            let id = try await client.listAllMessages()[0].id
            _ = try await client.modify(id: id, add: ["STARRED"])
            let expected = try await client.listHistory(startHistoryID: start)
            #expect(expected.records.count == 1)
            try await e.faults(#"[{"method": "history.list", "kind": "emptyHistoryPage", "count": 1}]"#)
            let listing = try await client.listHistory(startHistoryID: start)
            #expect(listing.pageCount == 2)
            #expect(listing.records == expected.records)
            #expect(listing.finalHistoryID == expected.finalHistoryID)
        }
    }
}
