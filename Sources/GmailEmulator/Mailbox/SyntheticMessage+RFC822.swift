import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension SyntheticMessage {
    /// The message as the emulator serves it: RFC 5322 bytes whose decoded text, subject and
    /// participants are the message's own, in a mix of MIME structures, charsets and transfer encodings
    /// (chosen by position, so rendering draws nothing from the seed) that a sync has to decode.
    public var rfc822: [UInt8] {
        var headers = "From: \(Self.header(from))\r\nTo: \(to.map(Self.header).joined(separator: ", "))\r\n"
        if !cc.isEmpty { headers += "Cc: \(cc.map(Self.header).joined(separator: ", "))\r\n" }
        headers += "Date: \(Self.rfc5322Date(dateMs))\r\nMessage-ID: \(messageID)\r\nMIME-Version: 1.0\r\n"
        if let inReplyTo { headers += "In-Reply-To: \(inReplyTo)\r\nReferences: \(inReplyTo)\r\n" }
        let body: String
        if isNewsletter {
            headers +=
                "Subject: \(subject)\r\nList-Unsubscribe: <mailto:unsub@news.example.com>, <https://news.example.com/u/\(index)>\r\n"
            body = alternative()
        } else {
            switch index % 10 {
            case 4, 8:
                headers += "Subject: \(subject)\r\n"
                body = alternative()
            case 5:
                headers += "Subject: =?iso-8859-1?B?\(Data(subject.utf8).base64EncodedString())?=\r\n"
                body =
                    "Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n\(Self.quotedPrintable(text))\r\n"
            case 6:
                headers += "Subject: =?utf-8?B?\(Data(subject.utf8).base64EncodedString())?=\r\n"
                body = withAttachment()
            case 7:
                headers += "Subject: \(subject)\r\n"
                body =
                    "Content-Type: text/plain; charset=windows-1252\r\nContent-Transfer-Encoding: base64\r\n\r\n"
                    + Data(text.utf8).base64EncodedString(options: .lineLength76Characters) + "\r\n"
            default:
                headers += "Subject: \(subject)\r\n"
                body = "Content-Type: text/plain; charset=utf-8\r\n\r\n\(text)\r\n"
            }
        }
        return Array((headers + body).utf8)
    }

    /// The labels the emulator files it under: its own, plus Gmail's category tab for received mail.
    public var emulatorLabels: [String] {
        if labels.contains("SENT") { return labels }
        return labels + [isNewsletter ? "CATEGORY_PROMOTIONS" : "CATEGORY_PERSONAL"]
    }

    private func alternative() -> String {
        let b = "alt-\(index)"
        return
            "Content-Type: multipart/alternative; boundary=\"\(b)\"\r\n\r\n--\(b)\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\(text)\r\n--\(b)\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body><p>\(text)</p></body></html>\r\n--\(b)--\r\n"
    }

    private func withAttachment() -> String {
        let b = "mix-\(index)"
        let payload = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* index) }).base64EncodedString(
            options: .lineLength76Characters)
        return
            "Content-Type: multipart/mixed; boundary=\"\(b)\"\r\n\r\n--\(b)\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\(text)\r\n--\(b)\r\nContent-Type: application/pdf; name=\"doc-\(index).pdf\"\r\nContent-Disposition: attachment; filename=\"doc-\(index).pdf\"\r\nContent-Transfer-Encoding: base64\r\n\r\n\(payload)\r\n--\(b)--\r\n"
    }

    private static func header(_ person: SyntheticMailbox.Person) -> String { "\(person.name) <\(person.address)>" }

    /// Quoted-printable for ASCII text without `=`: only soft line breaks are needed, every 75 characters.
    static func quotedPrintable(_ text: String) -> String {
        var lines: [Substring] = []
        var rest = Substring(text)
        while rest.count > 75 {
            lines.append(rest.prefix(75))
            rest = rest.dropFirst(75)
        }
        lines.append(rest)
        return lines.joined(separator: "=\r\n")
    }

    /// `Wed, 15 Nov 2023 10:13:20 +0000`, without a `DateFormatter` per message (100,000 of them add up).
    static func rfc5322Date(_ ms: Int64) -> String {
        var seconds = time_t(ms / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(1900 + parts.tm_year) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
    }
}
