import Foundation
import GmailEmulator
import GmailModel
import Testing

/// Mailbox files as the emulator loads them: the mbox `From ` separator line never reaches a client,
/// and mbox `>From ` quoting is undone.
@Suite struct MboxLoadingTests {
    static let separator = "From someone@host  Fri Aug 23 11:08:46 2002\n"
    static let message = """
        Return-Path: <real@example.org>
        From: Real Sender <real@example.org>
        To: me@example.com
        Subject: separator test
        Date: Fri, 23 Aug 2002 11:08:46 +0000
        Message-ID: <separator@example.org>
        Content-Type: text/plain; charset=us-ascii

        Hello there.
        >From the start, quoted by whoever wrote the file.

        """

    /// A fresh directory under the temporary directory, removed after `body`.
    static func withDirectory(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory)
    }

    static func raw(_ h: Harness, _ id: String) async throws -> String {
        let message = try await h.get(Harness.me + "/messages/\(id)?format=raw").json
        return String(decoding: message["raw"]?.stringValue.flatMap(Base64URL.decode) ?? [], as: UTF8.self)
    }

    static func onlyId(_ h: Harness, _ query: String) async throws -> String {
        let list = try await h.get(Harness.me + "/messages?" + query).json["messages"]?.arrayValue ?? []
        #expect(list.count == 1)
        return try #require(list.first?["id"]?.stringValue)
    }

    @Test("an .eml that starts with a separator line is served without it: raw, headers, snippet, search")
    func emlSeparator() async throws {
        try await MboxLoadingTests.withDirectory { directory in
            try Data((MboxLoadingTests.separator + MboxLoadingTests.message).utf8).write(
                to: directory.appendingPathComponent("a.eml"))
            try await withEmulator({ $0.mailbox = .path(directory.path) }) { h in
                let id = try await MboxLoadingTests.onlyId(h, "")
                let raw = try await MboxLoadingTests.raw(h, id)
                #expect(raw.hasPrefix("Return-Path: <real@example.org>\n"))
                #expect(!raw.contains("someone@host"))
                // An .eml is not mbox-escaped: its `>From ` line stays as written.
                #expect(raw.contains("\n>From the start"))
                let full = try await h.get(Harness.me + "/messages/\(id)?format=full").json
                let headers = full["payload"]?["headers"]?.arrayValue ?? []
                #expect(headers.first?["name"] == .string("Return-Path"))
                #expect(headers.allSatisfy { $0["value"]?.stringValue?.contains("someone@host") != true })
                let from = headers.filter { $0["name"] == .string("From") }
                #expect(from.map { $0["value"] } == [.string("Real Sender <real@example.org>")])
                #expect(full["snippet"]?.stringValue?.hasPrefix("Hello there.") == true)
                #expect(try await MboxLoadingTests.onlyId(h, "q=from:real@example.org") == id)
                let bySeparator = try await h.get(Harness.me + "/messages?q=from:someone@host").json
                #expect(bySeparator["resultSizeEstimate"] == .int(0))
            }
        }
    }

    @Test("an mbox file loses its separators and undoes mboxo/mboxrd >From quoting")
    func mboxUnescaping() async throws {
        let second = """
            From: Other <other@example.org>
            To: me@example.com
            Subject: second
            Date: Sat, 24 Aug 2002 11:08:46 +0000
            Message-ID: <second@example.org>

            >From here, escaped once.
            >>From there, escaped twice.
            >>>From afar.
            > From is not escaped (a space first).

            """
        try await MboxLoadingTests.withDirectory { directory in
            let mbox = directory.appendingPathComponent("all.mbox")
            let text =
                MboxLoadingTests.separator + MboxLoadingTests.message + "\n" + MboxLoadingTests.separator + second
            try Data(text.utf8).write(to: mbox)
            try await withEmulator({ $0.mailbox = .path(mbox.path) }) { h in
                let first = try await MboxLoadingTests.raw(
                    h, try await MboxLoadingTests.onlyId(h, "q=subject:separator"))
                #expect(first.hasPrefix("Return-Path: <real@example.org>\n"))
                #expect(first.contains("\nFrom the start"))
                #expect(!first.contains("someone@host"))
                let other = try await MboxLoadingTests.raw(h, try await MboxLoadingTests.onlyId(h, "q=subject:second"))
                #expect(other.hasPrefix("From: Other <other@example.org>\n"))
                #expect(other.contains("\nFrom here, escaped once.\n>From there, escaped twice.\n>>From afar.\n"))
                #expect(other.contains("\n> From is not escaped"))
            }
        }
    }

    @Test("a single message file without a separator loads as one message")
    func singleFile() async throws {
        try await MboxLoadingTests.withDirectory { directory in
            let file = directory.appendingPathComponent("one.eml")
            try Data(MboxLoadingTests.message.utf8).write(to: file)
            try await withEmulator({ $0.mailbox = .path(file.path) }) { h in
                let raw = try await MboxLoadingTests.raw(h, try await MboxLoadingTests.onlyId(h, ""))
                #expect(raw.hasPrefix("Return-Path: <real@example.org>\n"))
                #expect(raw.contains("\n>From the start"))
            }
        }
    }
}
