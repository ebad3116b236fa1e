import DovecotLauncher
import Foundation
import GmailEmulator

/// The IMAP benchmark's synthetic mailbox: the emulator's synthetic messages (senders, threads, MIME
/// structures, charsets), given bodies of a few KB and subjects of their own thread, filed in Dovecot
/// folders by their labels. The same count always gives the same bytes.
struct SyntheticIMAPMail {
    static let user = ChatmailIMAPHome.user

    /// Messages that are `seen` and go to `folder`, oldest first.
    struct Run {
        var folder: String
        var seen: Bool
        var messages: [[UInt8]] = []
    }

    let count: Int

    /// Writes every message into the server's Maildir (sent mail to Sent, received mail to INBOX or, when
    /// Gmail would have archived it, to Archive; unread ones without `\Seen`). Returns how many went to
    /// each folder.
    func fill(_ server: DovecotServer) throws -> [String: Int] {
        let mailbox = SyntheticMailbox.emulator(messageCount: count, account: Self.user)
        var perFolder: [String: Int] = [:]
        var current: Run?
        func flush() throws {
            guard let run = current, !run.messages.isEmpty else { return }
            try server.fillMaildir(run.messages, folder: run.folder, user: Self.user, seen: run.seen)
            perFolder[run.folder, default: 0] += run.messages.count
            current = nil
        }
        for var message in mailbox.messages(seed: 7) {
            let folder =
                message.labels.contains("SENT") ? "Sent" : message.labels.contains("INBOX") ? "INBOX" : "Archive"
            let seen = !message.labels.contains("UNREAD")
            message.text = Self.body(index: message.index)
            if !message.isNewsletter {
                message.subject = Self.subject(thread: message.threadKey, reply: message.inReplyTo != nil)
            }
            if let run = current, run.folder != folder || run.seen != seen || run.messages.count >= 500 { try flush() }
            if current == nil { current = Run(folder: folder, seen: seen) }
            current?.messages.append(message.rfc822)
        }
        try flush()
        return perFolder
    }

    /// A new message for the incremental runs, unlike any in the mailbox: `tag` keeps them apart.
    static func newMessage(tag: String, index: Int) -> [UInt8] {
        // Tuesday 2027-01-05, a minute apart.
        let minute = index % 60
        let date = "Tue, 05 Jan 2027 \(10 + index / 60 % 10):\(minute < 10 ? "0" : "")\(minute):00 +0000"
        let text = """
            From: Newcomer \(index) <new\(index)@example.net>\r
            To: \(user)\r
            Subject: \(subject(thread: "new-\(tag)", reply: false))\r
            Date: \(date)\r
            Message-ID: <new-\(tag)-\(index)@bench.example>\r
            MIME-Version: 1.0\r
            Content-Type: text/plain; charset=utf-8\r
            \r
            \(body(index: 1_000_000 + index))\r

            """
        return Array(text.utf8)
    }

    /// Enough words that bodies and subjects differ, few enough that they repeat as in real mail.
    static let vocabulary = """
        the a meeting tomorrow lunch project update review draft thanks please could you send report numbers \
        schedule call later today week plan budget idea notes agenda slides coffee train ticket photo weekend \
        garden book movie dinner friday monday office remote deploy release bug fix test build server data \
        question answer quick note reminder invoice receipt trip hotel flight kids school birthday party \
        contract offer quarter forecast customer support ticket backlog sprint design mockup feedback launch \
        holiday rota parking lease repair plumber bank transfer statement doctor appointment pharmacy visa \
        conference talk abstract deadline paper reviewer rebuttal camera ready poster travel refund booking
        """.split(separator: " ").map(String.init)

    /// Paragraphs of vocabulary, 1.5 to 6 KB, in lines of at most 72 characters.
    static func body(index: Int) -> String {
        var random = SeededRandom(seed: 0xB0D7 &+ UInt64(index) &* 0x9E37_79B9)
        let words = vocabulary
        let target = 1_500 + Int(random.next() % 4_500)
        var paragraphs: [String] = []
        var length = 0
        while length < target {
            var lines: [String] = []
            var line = ""
            for _ in 0..<(30 + Int(random.next() % 50)) {
                let word = words[Int(random.next() % UInt64(words.count))]
                if line.count + word.count + 1 > 72 {
                    lines.append(line)
                    line = ""
                }
                line += line.isEmpty ? word : " " + word
            }
            lines.append(line)
            let paragraph = lines.joined(separator: "\r\n")
            length += paragraph.utf8.count + 4
            paragraphs.append(paragraph)
        }
        return paragraphs.joined(separator: "\r\n\r\n")
    }

    /// Three words drawn from the thread's key, `Re: ` on replies.
    static func subject(thread: String, reply: Bool) -> String {
        var random = SeededRandom(seed: thread.utf8.reduce(0xC0FFEE) { ($0 &* 31) &+ UInt64($1) })
        let words = vocabulary
        let picked = (0..<3).map { _ in words[Int(random.next() % UInt64(words.count))] }
        let subject = picked[0].prefix(1).uppercased() + picked[0].dropFirst() + " " + picked[1] + " " + picked[2]
        return reply ? "Re: " + subject : subject
    }
}
