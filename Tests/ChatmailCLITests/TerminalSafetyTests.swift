import ChatmailStore
import Foundation
import Testing

/// Terminal sequences hidden in mail must never reach stdout, whether they arrive raw or only appear
/// after RFC 2047, RFC 2231 or quoted-printable decoding, and in every renderer.
@Suite struct TerminalSafetyTests {
    /// Every scalar that could act on a terminal or hide text: C0 (but newline and tab), DEL, C1,
    /// bidi overrides and isolates, and invisible characters.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200B, 0x2060, 0xFEFF, 0x00AD, 0xE0000...0xE007F: true
        default: false
        }
    }

    /// Output with our own SGR sequences taken out; whatever forbidden scalar remains came from mail.
    static func foreignScalars(in output: String) -> [Unicode.Scalar] {
        let withoutOurs = output.replacingOccurrences(of: #"\u{1B}\[[0-9;]*m"#, with: "", options: .regularExpression)
        return withoutOurs.unicodeScalars.filter(isForbidden)
    }

    /// A message whose escape sequences exist only once it is decoded: an RFC 2047 B-encoded name
    /// (OSC 0 title set), a Q-encoded subject (CSI erase + C1 CSI), an RFC 2231 file name (OSC 52
    /// clipboard write) and a quoted-printable body (OSC 8 hyperlink, bidi override and isolate).
    static let encodedHostile = """
        From: =?UTF-8?B?G10wO3B3bmVkBw==?= Mallory <mallory@example.com>\r
        To: me@example.org\r
        Subject: =?UTF-8?Q?invoice_=1B[2J=C2=9B31m_due?=\r
        Date: Tue, 4 Mar 2025 10:00:00 +0000\r
        MIME-Version: 1.0\r
        Content-Type: multipart/mixed; boundary="b"\r
        \r
        --b\r
        Content-Type: text/plain; charset=utf-8\r
        Content-Transfer-Encoding: quoted-printable\r
        \r
        Pay here: =1B]8;;https://evil.example=07click=1B]8;;=07 now =E2=80=AEtxt.exe =E2=81=A6x=E2=81=A9\r
        --b\r
        Content-Type: application/octet-stream\r
        Content-Disposition: attachment; filename*=UTF-8''%1B%5D52%3Bc%3BZm9v%07notes.txt\r
        Content-Transfer-Encoding: base64\r
        \r
        aGVsbG8=\r
        --b--\r
        """

    @Test("sequences that appear only after decoding never reach stdout")
    func afterDecoding() async throws {
        let fixture = try CLIFixture()
        let file = try temporaryFile(Self.encodedHostile)
        defer { try? FileManager.default.removeItem(at: file) }  // best-effort cleanup
        let imported = try await fixture.run(["import", file.path, "--me", "me@example.org"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let commands = [
            ["conversations"], ["show", "mallory"], ["show", "mallory", "--full"], ["show", "mallory", "--json"],
            ["view", file.path], ["view", file.path, "--json"], ["view", file.path, "--full"],
        ]
        for command in commands {
            for colour in ["never", "always"] {
                let pager = command[0] == "view" ? [] : ["--no-pager"]
                let result = try await fixture.run(command + ["--color", colour] + pager)
                #expect(result.status == 0, "\(command): \(result.stderr)")
                #expect(Self.foreignScalars(in: result.stdout + result.stderr).isEmpty, "\(command) \(colour)")
            }
        }
        // The decoded text is still there, only its controls are gone.
        let shown = try await fixture.run(["show", "mallory", "--color", "never"])
        #expect(
            shown.stdout.contains("invoice") && shown.stdout.contains("click") && shown.stdout.contains("notes.txt"))
    }

    @Test("raw controls stored in names, subjects, bodies and file names are neutralized by every renderer")
    func rawInStore() async throws {
        let fixture = try CLIFixture()
        let hostile =
            "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{9D}8;;x\u{9C}\u{202E}\u{2066}Mallory\u{200B}\u{1B}]52;c;Zm9v\u{07}"
        try await fixture.store.write { tx in
            let account = try tx.ensureAccount(email: "me@example.org")
            var touched = Set<ConversationID>()
            // Two hostile people, so a prefix is ambiguous and stderr lists both names.
            for (index, address) in ["mallory@example.com", "mallet@example.com"].enumerated() {
                touched.formUnion(
                    try tx.upsert(
                        MessageInput(
                            gmailID: "x\(index)", threadID: "t", internalDateMs: CLIFixture.now - 1000,
                            from: EmailAddress(address: address, name: hostile),
                            to: [EmailAddress(address: "me@example.org")],
                            subject: hostile,
                            bodyText: hostile + "\nbody \u{1B}]8;;https://evil\u{07}x\u{1B}]8;;\u{07}",
                            labelIDs: ["INBOX", "UNREAD"],
                            attachments: [
                                .init(partID: "1", filename: hostile + ".pdf", mimeType: "application/pdf", size: 1)
                            ]), in: account
                    ).affectedConversations)
            }
            try tx.recomputeRollups(for: touched)
        }
        let commands: [([String], Int32)] = [
            (["conversations"], 0), (["conversations", "--json"], 0), (["show", "mallory@example.com"], 0),
            (["show", "mallory@example.com", "--ascii"], 0), (["show", "mallory@example.com", "--width", "20"], 0),
            (["show", "mallory@example.com", "--json"], 0), (["status"], 0),
            (["show", "zzz"], 2), (["show", "mal"], 2),  // not found, and ambiguous: stderr lists both hostile names
        ]
        for (command, status) in commands {
            for colour in ["never", "always"] {
                let result = try await fixture.run(command + ["--color", colour])
                #expect(result.status == status, "\(command): \(result.stderr)")
                #expect(Self.foreignScalars(in: result.stdout + result.stderr).isEmpty, "\(command) \(colour)")
            }
        }
    }
}
