import Foundation

/// Generates a deterministic, realistic mailbox from a seed: people and groups,
/// replies with quoted text, plain and HTML alternatives, newsletters with List-Unsubscribe,
/// attachments and several charsets. String templates keep generation cheap for 100k messages.
struct SyntheticMailbox {
    private var random: SeededRandom
    private let account: String
    private var index = 0
    private var dateMs: Int64 = 1_700_000_000_000
    /// Recent (messageID, subject) pairs to reply to.
    private var recent: [(String, String)] = []

    static let people = ["Ann Example <ann@example.org>", "Bob Builder <bob@example.net>", "Zoë Müller <zoe@example.de>",
                         "Carlos Peña <carlos@example.es>", "Dana Lee <dana@example.com>", "Émile Roux <emile@example.fr>"]
    static let groups = ["team@lists.example.com", "family@example.org"]
    static let subjects = ["Lunch on Friday?", "Quarterly report", "Trip photos", "Re-scheduling our call", "Invoice 2024-11",
                           "Weekend plans", "Project kickoff", "Café meetup"]
    static let words = ["hello", "thanks", "meeting", "tomorrow", "draft", "budget", "review", "coffee", "plan", "ok"]

    /// How many people write to this mailbox: the six named ones, then generated ones.
    private let castSize: Int

    /// - parameter messageCount: the mailbox's size. The cast grows with it (about one correspondent per
    ///   ten messages, like a real mailbox): a fixed handful of people would make every conversation
    ///   thousands of messages long at 100,000 messages, which no real inbox looks like.
    init(seed: UInt64, account: String, messageCount: Int = 0) {
        random = SeededRandom(seed: seed ^ 0x5E7)
        self.account = account
        castSize = max(SyntheticMailbox.people.count, messageCount / 10)
    }

    /// A correspondent: one of the named six, or a generated person beyond them.
    private mutating func person() -> String {
        let index = Int(random.next() % UInt64(castSize))
        if index < SyntheticMailbox.people.count { return SyntheticMailbox.people[index] }
        return "Person \(index) <person\(index)@example.com>"
    }

    private mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }

    private mutating func sentence() -> String {
        (0..<(5 + Int(random.next() % 10))).map { _ in pick(SyntheticMailbox.words) }.joined(separator: " ").capitalized + "."
    }

    mutating func next() -> (raw: [UInt8], labels: [String]) {
        index += 1
        dateMs += Int64(60_000 + random.next() % 7_200_000)
        let date = SyntheticMailbox.rfc2822(dateMs)
        let messageID = "<syn-\(index)@synthetic.example>"
        let kind = random.next() % 10
        let fromMe = kind == 0
        let from = fromMe ? "Me <\(account)>" : person()
        let to = kind == 1 ? pick(SyntheticMailbox.groups) : (fromMe ? person() : account)
        var headers = "From: \(from)\r\nTo: \(to)\r\nDate: \(date)\r\nMessage-ID: \(messageID)\r\nMIME-Version: 1.0\r\n"
        var labels = fromMe ? ["SENT"] : ["INBOX", "CATEGORY_PERSONAL"]
        if !fromMe && random.next() % 3 == 0 { labels.append("UNREAD") }
        let body: String
        switch kind {
        case 2 where !recent.isEmpty, 3 where !recent.isEmpty:
            let (parentID, parentSubject) = pick(recent)
            headers += "Subject: Re: \(parentSubject)\r\nIn-Reply-To: \(parentID)\r\nReferences: \(parentID)\r\n"
            body = "Content-Type: text/plain; charset=utf-8\r\n\r\n\(sentence())\r\n\r\nOn an earlier day someone wrote:\r\n> \(sentence())\r\n> \(sentence())\r\n"
        case 4:
            labels = ["INBOX", "CATEGORY_PROMOTIONS"]
            headers += "Subject: Weekly digest #\(index)\r\nList-Unsubscribe: <mailto:unsub@news.example.com>, <https://news.example.com/u/\(index)>\r\n"
            body = SyntheticMailbox.alternative(sentence(), index: index)
        case 5:
            headers += "Subject: =?iso-8859-1?Q?Gr=FC=DFe_aus_M=FCnchen?=\r\n"
            body = "Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nGr=FC=DFe, \(sentence())\r\n"
        case 6:
            headers += "Subject: =?utf-8?B?" + Data("Résumé attached ✓".utf8).base64EncodedString() + "?=\r\n"
            body = SyntheticMailbox.withAttachment(sentence(), index: index)
        case 7:
            headers += "Subject: Price list\r\n"
            body = "Content-Type: text/plain; charset=windows-1252\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nPrice: 20 =80 =96 \(sentence())\r\n"
        default:
            let subject = pick(SyntheticMailbox.subjects)
            headers += "Subject: \(subject)\r\n"
            recent.append((messageID, subject))
            if recent.count > 50 { recent.removeFirst() }
            body = kind % 2 == 0 ? SyntheticMailbox.alternative(sentence(), index: index)
                : "Content-Type: text/plain; charset=utf-8\r\n\r\n\(sentence())\r\n"
        }
        return (Array((headers + body).utf8), labels)
    }

    static func alternative(_ text: String, index: Int) -> String {
        let b = "alt-\(index)"
        return "Content-Type: multipart/alternative; boundary=\"\(b)\"\r\n\r\n--\(b)\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\(text)\r\n--\(b)\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body><p>\(text)</p></body></html>\r\n--\(b)--\r\n"
    }

    static func withAttachment(_ text: String, index: Int) -> String {
        let b = "mix-\(index)"
        let payload = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* index) }).base64EncodedString(options: .lineLength76Characters)
        return "Content-Type: multipart/mixed; boundary=\"\(b)\"\r\n\r\n--\(b)\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\(text)\r\n--\(b)\r\nContent-Type: application/pdf; name=\"doc-\(index).pdf\"\r\nContent-Disposition: attachment; filename=\"doc-\(index).pdf\"\r\nContent-Transfer-Encoding: base64\r\n\r\n\(payload)\r\n--\(b)--\r\n"
    }

    static func rfc2822(_ ms: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss +0000"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(ms) / 1000))
    }
}
