import Foundation

/// What the IMAP tests of several targets share: their messages, another mail client's session, and the
/// canonical form of a store they compare.
public enum IMAPTestMail {
    /// A message with a unique Message-ID (`<id@example.net>`), to alice unless `to` says otherwise.
    public static func message(
        _ id: String, from: String = "Bob <bob@example.net>", to: String = "alice@example.org",
        subject: String? = nil, body: String? = nil, date: String = "Mon, 2 Mar 2026 10:00:00 +0000"
    ) -> String {
        """
        From: \(from)\r
        To: \(to)\r
        Subject: \(subject ?? "Message \(id)")\r
        Date: \(date)\r
        Message-ID: <\(id)@example.net>\r
        Content-Type: text/plain; charset=utf-8\r
        \r
        \(body ?? "Hello, this is message \(id).")\r

        """
    }

    /// One line per message, independent of row ids and of how the store was synced: its Message-ID,
    /// subject, labels and conversation's participants, sorted. `?1` is the account's address, or NULL for all.
    public static let canonicalContentsSQL = """
        SELECT coalesce(m.rfc822_message_id, '-') || ' | ' || m.subject || ' | ' ||
            coalesce((SELECT group_concat(gmail_id, ',') FROM (SELECT l.gmail_id FROM message_label ml
                JOIN label l ON l.id = ml.label_id WHERE ml.message_id = m.id ORDER BY l.gmail_id)), '') ||
            ' | ' || c.participant_hash
        FROM message m JOIN conversation c ON c.id = m.conversation_id JOIN account a ON a.id = m.account_id
        WHERE ?1 IS NULL OR a.email = ?1 ORDER BY 1
        """

    /// Runs IMAP commands in a second, independent IMAP session (Python's imaplib), as another mail client
    /// would: `[["UID", "STORE", "1", "+FLAGS", "(\\Seen)"], ["EXPUNGE"]]`, each required to answer OK.
    public static func secondSession(
        host: String, port: Int, user: String, password: String, folder: String, _ commands: [[String]]
    ) async throws {
        let script = """
            import imaplib, json, sys
            host, port, user, password, folder, commands = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], json.loads(sys.argv[6])
            imap = imaplib.IMAP4(host, port)
            imap.login(user, password)
            status, _ = imap.select('"' + folder + '"')
            assert status == "OK", "select " + folder
            for command in commands:
                if command[0] == "UID":
                    status, data = imap.uid(*command[1:])
                else:
                    status, data = getattr(imap, command[0].lower())(*command[1:])
                assert status == "OK", " ".join(command) + ": " + repr(data)
            imap.logout()
            """
        let json = String(decoding: try JSONSerialization.data(withJSONObject: commands), as: UTF8.self)
        let arguments = ["python3", "-c", script, host, String(port), user, password, folder, json]
        let outcome = try await offThePool { try ChildProcess.run(arguments) }
        if outcome.status != 0 { throw SecondSessionFailed(detail: outcome.errors) }
    }

    public struct SecondSessionFailed: Error, CustomStringConvertible {
        public var detail: String
        public var description: String { "the second IMAP session failed: \(detail)" }
    }
}
