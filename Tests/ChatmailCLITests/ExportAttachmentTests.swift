import ChatmailStore
import ChatmailTestSupport
import CommonMarkTestSupport
import Foundation
import GRDB
import GmailModel
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `export --attachments` against the emulator: downloads, safe names and links.
@Suite struct ExportAttachmentTests {
    @Test(
        "--attachments downloads through attachments.get into attachments/<conversation>/ with safe names, linked from the message"
    )
    func attachments() async throws {
        let emulator = try await EmulatorProcess.start(synthetic: 3)
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }  // best-effort cleanup
        let home = scratch.appendingPathComponent("home")
        let token = try #require(try await emulator.post("_emulator/issue-tokens")["refresh_token"] as? String)
        let tokenFile = scratch.appendingPathComponent("token")
        try Data(token.utf8).write(to: tokenFile)
        let login = try await CLIFixture.run(
            ["login", "--home", home.path, "--refresh-token-file", tokenFile.path], environment: emulator.environment)
        try #require(login.status == 0, "\(login.stderr)")

        let report = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let evil = Data("#!/bin/sh\necho pwned\n".utf8)
        let raw = """
            From: Zoe Files <zoe@example.net>\r
            To: me@example.org\r
            Subject: the files\r
            Date: Wed, 5 Mar 2025 10:00:00 +0000\r
            Content-Type: multipart/mixed; boundary="b"\r
            \r
            --b\r
            Content-Type: text/plain; charset=utf-8\r
            \r
            Here are the files.\r
            --b\r
            Content-Type: application/pdf\r
            Content-Disposition: attachment; filename="Q3 report.pdf"\r
            Content-Transfer-Encoding: base64\r
            \r
            \(report.base64EncodedString(options: .lineLength76Characters).replacingOccurrences(of: "\n", with: "\r\n"))\r
            --b\r
            Content-Type: text/x-sh\r
            Content-Disposition: attachment; filename="../../.bashrc"\r
            Content-Transfer-Encoding: base64\r
            \r
            \(evil.base64EncodedString())\r
            --b\r
            Content-Type: application/pdf\r
            Content-Disposition: attachment; filename="q3 REPORT.pdf"\r
            Content-Transfer-Encoding: base64\r
            \r
            \(evil.base64EncodedString())\r
            --b--\r

            """
        let encoded = Base64URL.encode(Array(raw.utf8), padded: true)
        let delivered = try await emulator.post(
            "_emulator/deliver",
            json: String(
                decoding: try JSONSerialization.data(withJSONObject: ["raw": encoded, "labelIds": ["INBOX"]]),
                as: UTF8.self))
        try #require(delivered["id"] is String, "\(delivered)")
        let sync = try await CLIFixture.run(["sync", "--home", home.path], environment: emulator.environment)
        try #require(sync.status == 0, "\(sync.stderr)")

        let out = scratch.appendingPathComponent("out")
        let result = try await CLIFixture.run(
            [
                "export", "zoe@example.net", "--home", home.path, "-o", out.appendingPathComponent("zoe.md").path,
                "--attachments",
            ],
            environment: emulator.environment)
        // -o FILE in a directory that does not exist yet is a write error, reported in one line.
        #expect(result.status == 1 && result.stderr.contains("Could not write"))
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let exported = try await CLIFixture.run(
            [
                "export", "zoe@example.net", "--home", home.path, "-o", out.appendingPathComponent("zoe.md").path,
                "--attachments",
            ],
            environment: emulator.environment)
        #expect(exported.status == 0, "\(exported.stderr)")
        // The attachment folder is named after the file (unique in its folder), not after the title (which is not).
        let again = try await CLIFixture.run(
            [
                "export", "zoe@example.net", "--home", home.path, "-o", out.appendingPathComponent("Zoe again.md").path,
                "--attachments",
            ],
            environment: emulator.environment)
        #expect(again.status == 0, "\(again.stderr)")
        let files = try filesUnder(out)
        #expect(files["attachments/zoe/Q3-report.pdf"] == report)
        #expect(files["attachments/zoe/bashrc"] == evil)
        #expect(files["attachments/zoe/q3-REPORT-2.pdf"] == evil)
        #expect(files["attachments/zoe-again/Q3-report.pdf"] == report)
        let (_, body) = try await parseExport(String(decoding: try #require(files["zoe.md"]), as: UTF8.self))
        #expect(
            try body.linkDestinations() == [
                "attachments/zoe/Q3-report.pdf", "attachments/zoe/bashrc", "attachments/zoe/q3-REPORT-2.pdf",
            ])
        // The GmailAPI client fetched each attachment through attachments.get.
        let log = try await emulator.get("_emulator/requests")
        let calls = (log["requests"] as? [[String: Any]] ?? []).compactMap { $0["gmailMethod"] as? String }
        #expect(calls.filter { $0 == "messages.attachments.get" }.count >= 3, "\(calls)")
        // Exported again unchanged: up to date, with nothing downloaded or rewritten.
        let unchanged = try await CLIFixture.run(
            [
                "export", "zoe@example.net", "--home", home.path, "-o", out.appendingPathComponent("zoe.md").path,
                "--attachments",
            ],
            environment: emulator.environment)
        #expect(unchanged.status == 0, "\(unchanged.stderr)")
        let unchangedCalls = ((try await emulator.get("_emulator/requests"))["requests"] as? [[String: Any]] ?? [])
            .compactMap { $0["gmailMethod"] as? String }
        #expect(
            unchangedCalls.count(where: { $0 == "messages.attachments.get" })
                == calls.count(where: { $0 == "messages.attachments.get" }))
        #expect(try filesUnder(out) == files)

        // Attachment ids are ephemeral: with the saved ids expired, the exporter fetches the message again and
        // uses the fresh id of the same part. Again into a fresh directory with --all: the same files.
        try await DatabaseQueue(path: home.appendingPathComponent("chatmail.sqlite").path).write { db in
            try db.execute(sql: "UPDATE attachment SET gmail_attachment_id = 'expired-id'")
        }
        let all = scratch.appendingPathComponent("all")
        let exportAll = try await CLIFixture.run(
            ["export", "--all", "--home", home.path, "-o", all.path, "--attachments"], environment: emulator.environment
        )
        #expect(exportAll.status == 0, "\(exportAll.stderr)")
        let laterLog = try await emulator.get("_emulator/requests")
        let laterCalls = (laterLog["requests"] as? [[String: Any]] ?? []).compactMap { $0["gmailMethod"] as? String }
        #expect(laterCalls.count(where: { $0 == "messages.get" }) > calls.count(where: { $0 == "messages.get" }))
        let allFiles = try filesUnder(all)
        #expect(allFiles["attachments/zoe-files/Q3-report.pdf"] == report)
        #expect(allFiles["attachments/zoe-files/bashrc"] == evil)
        #expect(allFiles.keys.contains("index.md") && allFiles.keys.contains("zoe-files.md"))

        // A revoked login is not one failed attachment after another: the export stops with exit 3.
        _ = try await emulator.post("revoke", form: "token=\(token)")
        let revoked = try await CLIFixture.run(
            [
                "export", "--all", "--home", home.path, "-o", scratch.appendingPathComponent("revoked").path,
                "--attachments",
            ],
            environment: emulator.environment)
        #expect(revoked.status == 3, "\(revoked.stderr)")
        #expect(
            revoked.stderr.contains("chatmail login") && revoked.stderr.split(separator: "\n").count == 1,
            "\(revoked.stderr)")
    }
}
