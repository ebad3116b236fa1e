import Foundation

/// What one folder holds on the server, read by an independent IMAP client (Python's imaplib), so a
/// test checks the server's state with code chatmail did not write.
public struct IMAPFolderSnapshot: Sendable, Equatable {
    public struct Copy: Sendable, Equatable, Decodable {
        public var uid: UInt32
        public var flags: [String]
        /// The Message-ID header's value as written, brackets included; empty when there is none.
        public var messageID: String
    }

    public var copies: [Copy]

    /// The copies whose Message-ID contains `id`.
    public func copies(of id: String) -> [Copy] { copies.filter { $0.messageID.contains(id) } }

    /// Reads `folder` read-only (EXAMINE). A folder that does not exist reads as empty.
    public static func read(host: String, port: Int, user: String, password: String, folder: String) async throws
        -> IMAPFolderSnapshot
    {
        let script = """
            import imaplib, json, re, sys
            host, port, user, password, folder = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
            imap = imaplib.IMAP4(host, port)
            imap.login(user, password)
            status, _ = imap.select('"' + folder + '"', readonly=True)
            copies = []
            if status == "OK":
                status, data = imap.uid("FETCH", "1:*", "(UID FLAGS BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])")
                assert status == "OK", repr(data)
                for item in data:
                    if not isinstance(item, tuple):
                        continue
                    head = item[0].decode()
                    uid = int(re.search(r"UID (\\d+)", head).group(1))
                    flags = re.search(r"FLAGS \\(([^)]*)\\)", head).group(1).split()
                    header = item[1].decode(errors="replace")
                    match = re.search(r"(?im)^message-id:\\s*(.*?)\\s*$", header)
                    copies.append({"uid": uid, "flags": flags, "messageID": match.group(1) if match else ""})
            imap.logout()
            print(json.dumps(copies))
            """
        let arguments = ["python3", "-c", script, host, String(port), user, password, folder]
        let outcome = try await offThePool { try ChildProcess.run(arguments) }
        if outcome.status != 0 { throw IMAPTestMail.SecondSessionFailed(detail: outcome.errors) }
        return IMAPFolderSnapshot(copies: try JSONDecoder().decode([Copy].self, from: Data(outcome.output.utf8)))
    }
}

extension IMAPTestMail {
    /// APPENDs `message` to `folder` from an independent IMAP client (Python's imaplib), as another mail
    /// program delivering or filing mail would.
    public static func append(
        _ message: String, host: String, port: Int, user: String, password: String, folder: String = "INBOX"
    ) async throws {
        let script = """
            import imaplib, sys
            host, port, user, password, folder = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
            imap = imaplib.IMAP4(host, port)
            imap.login(user, password)
            status, data = imap.append('"' + folder + '"', None, None, sys.stdin.buffer.read())
            assert status == "OK", repr(data)
            imap.logout()
            """
        let arguments = ["python3", "-c", script, host, String(port), user, password, folder]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("append-\(UUID().uuidString).eml")
        try Data(message.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }  // best-effort cleanup of a scratch file
        let outcome = try await offThePool { try ChildProcess.run(arguments, input: file.path) }
        if outcome.status != 0 { throw SecondSessionFailed(detail: outcome.errors) }
    }
}
