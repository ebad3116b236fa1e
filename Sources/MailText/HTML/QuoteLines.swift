import CLibXML2
import Foundation

/// Reads a DOM as lines of text, the way `TextExtractor` lays text out, for the quote rules that look at the
/// lines just after a separator or just before a quote.
enum QuoteLines {
    /// Elements that end the line before them and start a new one after them.
    static let lineBreakingElements: Set<String> = TextExtractor.lineBlocks
        .union(TextExtractor.paragraphBlocks)
        .union(["br", "hr", "li", "ul", "ol", "menu", "tr", "td", "th", "pre"])

    /// A field of Outlook's reply header block.
    enum HeaderField {
        case from, sent, to, cc, subject
    }

    /// The fields of Outlook's reply header block, by their lowercased names in the languages Outlook writes.
    static let headerFields: [String: HeaderField] = {
        var table: [String: HeaderField] = [:]
        let groups: [(HeaderField, [String])] = [
            (
                .from,
                [
                    "from", "fra", "från", "von", "de", "da", "van", "od", "от", "lähettäjä", "feladó", "差出人",
                    "发件人", "寄件者",
                ]
            ),
            (
                .sent,
                [
                    "sent", "date", "sendt", "skickat", "gesendet", "datum", "envoyé", "date d'envoi", "inviato",
                    "data", "verzonden", "wysłano", "отправлено", "дата", "enviado", "enviada", "fecha",
                    "lähetetty", "elküldve", "送信日時", "发送时间", "日期", "寄件日期",
                ]
            ),
            (
                .to,
                [
                    "to", "til", "till", "an", "à", "a", "aan", "do", "кому", "para", "vastaanottaja", "címzett",
                    "宛先", "收件人", "收件者",
                ]
            ),
            (.cc, ["cc", "kopi", "kopia", "kopie", "copie", "copia", "копия", "抄送", "副本"]),
            (
                .subject,
                [
                    "subject", "emne", "ämne", "betreff", "objet", "oggetto", "onderwerp", "temat", "тема",
                    "asunto", "assunto", "aihe", "tárgy", "件名", "主题", "主旨",
                ]
            ),
        ]
        for (key, names) in groups {
            for name in names { table[name] = key }
        }
        return table
    }()

    /// Whether an Outlook-style header block (From/Sent/To/Subject, in many languages) starts right after
    /// `separator`: its first line must be a header field, and the fields in a row must include From and two
    /// others. A rule above a single "From:" line, or above prose, is not a quote.
    static func headerBlockFollows(_ separator: xmlNodePtr, within root: xmlNodePtr) -> Bool {
        var keys: Set<HeaderField> = []
        for line in self.lines(after: separator, within: root, limit: 8) {
            guard let key = self.headerField(line) else { break }
            keys.insert(key)
        }
        return keys.contains(.from) && keys.count >= 3
    }

    /// The header field a line starts with ("From: Ann", "De : Ann", "**Emne:** Lunsj"), if any.
    static func headerField(_ line: String) -> HeaderField? {
        guard let colon = line.prefix(30).firstIndex(where: { $0 == ":" || $0 == "：" }) else { return nil }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces.union(["*"])).lowercased()
        return self.headerFields[name]
    }

    /// Up to `limit` non-empty lines of text after `node` (not inside it), in document order within `root`.
    static func lines(after node: xmlNodePtr, within root: xmlNodePtr, limit: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var pendingSpace = false
        func endLine() {
            if !line.isEmpty { lines.append(line) }
            line = ""
            pendingSpace = false
        }
        var next = node.following(within: root)
        while let current = next, lines.count < limit {
            var breaksLine = false
            if let name = current.elementName {
                breaksLine = self.lineBreakingElements.contains(name)
                if breaksLine { endLine() }
                if TextExtractor.invisibleElements.contains(name) {
                    next = current.following(within: root)
                    continue
                }
                if let child = current.pointee.children {
                    next = child
                    continue
                }
            } else if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE {
                for character in current.textContent {
                    if character.isWhitespace {
                        pendingSpace = !line.isEmpty
                    } else if line.utf8.count < 400 {
                        if pendingSpace { line.append(" ") }
                        pendingSpace = false
                        line.append(character)
                    }
                }
            }
            if breaksLine { endLine() }
            // Climb to the next sibling, ending the line at every line-breaking element left on the way.
            var climbing = current
            next = nil
            while true {
                if let sibling = climbing.pointee.next {
                    next = sibling
                    break
                }
                guard let parent = climbing.pointee.parent, parent != root else { break }
                if let name = parent.elementName, self.lineBreakingElements.contains(name) { endLine() }
                climbing = parent
            }
        }
        endLine()
        return Array(lines.prefix(limit))
    }

    /// Whether a subtree shows anything: text other than whitespace, or an image. Iterative: mail nests deep.
    static func hasVisibleContent(_ node: xmlNodePtr) -> Bool {
        var next: xmlNodePtr? = node
        while let current = next {
            switch current.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if current.textContent.contains(where: { !$0.isWhitespace }) { return true }
            case XML_ELEMENT_NODE:
                let name = current.elementName ?? ""
                if name == "img" { return true }
                if !TextExtractor.invisibleElements.contains(name), let child = current.pointee.children {
                    next = child
                    continue
                }
            default:
                break  // comments and processing instructions show nothing (libxml2's C enum, not ours)
            }
            next = current == node ? nil : current.following(within: node)
        }
        return false
    }

    /// The text of a subtree, as libxml2 concatenates it (no line breaks for blocks).
    static func text(of node: xmlNodePtr) -> String {
        guard let content = xmlNodeGetContent(node) else { return "" }
        defer { chatmail_xmlFree(content) }
        return String(cString: content)
    }
}
