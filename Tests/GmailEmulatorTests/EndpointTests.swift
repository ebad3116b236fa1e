import Foundation
import GmailEmulator
import Testing

@Suite struct EndpointTests {
    @Test("every endpoint answers; userId me or the address works, another address is 403")
    func endpointsAndUserId() async throws {
        try await withEmulator { h in
            for path in [
                "/profile", "/labels", "/labels/INBOX", "/settings/sendAs", "/messages", "/history?startHistoryId=1",
            ] {
                let reply = try await h.get(Harness.me + path)
                #expect(
                    reply.status == 200 || (path.hasPrefix("/history") && reply.status == 404),
                    "\(path): \(reply.status)")
            }
            let profile = try await h.get("/gmail/v1/users/me%40example.com/profile")
            #expect(profile.status == 200)
            #expect(profile.json["emailAddress"] == .string("me@example.com"))
            #expect(profile.json["messagesTotal"] == .int(7))
            let other = try await h.get("/gmail/v1/users/eve@example.com/profile")
            #expect(other.status == 403)
            #expect(
                other.text
                    == #"{"error":{"code":403,"message":"Delegation denied for eve@example.com","errors":[{"message":"Delegation denied for eve@example.com","domain":"global","reason":"forbidden"}],"status":"PERMISSION_DENIED"}}"#
            )
            let list = try await h.get(Harness.me + "/messages")
            let id = list.json["messages"]?.arrayValue?.first?["id"]?.stringValue ?? ""
            #expect(try await h.get(Harness.me + "/messages/\(id)?format=minimal").status == 200)
            let thread = list.json["messages"]?.arrayValue?.first?["threadId"]?.stringValue ?? ""
            #expect(try await h.get(Harness.me + "/threads/\(thread)?format=minimal").status == 200)
            #expect(try await h.get(Harness.me + "/messages/zzzz").status == 400)
        }
    }

    @Test("messages.list: newest first, labelIds AND-ed, q subset, empty result omits messages")
    func listFilters() async throws {
        try await withEmulator { h in
            let all = try await h.get(Harness.me + "/messages").json
            #expect(all["resultSizeEstimate"] == .int(7))
            #expect(all["nextPageToken"] == nil)
            let inboxUnread = try await h.get(Harness.me + "/messages?labelIds=INBOX&labelIds=IMPORTANT").json
            #expect(inboxUnread["messages"]?.arrayValue?.count == 1)
            let fromBob = try await h.get(Harness.me + "/messages?q=from:bob%40example.org").json
            #expect(fromBob["messages"]?.arrayValue?.count == 1)
            let sent = try await h.get(Harness.me + "/messages?q=in:sent").json
            #expect(sent["messages"]?.arrayValue?.count == 1)
            let none = try await h.get(Harness.me + "/messages?q=from:nobody").json
            #expect(none == .object([("resultSizeEstimate", .int(0))]))
            let after = try await h.get(Harness.me + "/messages?q=after:2024/11/01").json
            #expect(after["messages"]?.arrayValue?.count == 1)
            #expect(try await h.get(Harness.me + "/messages?pageToken=garbage").status == 400)
        }
    }
}
