import Foundation
import MailText

/// Builds Gmail-style snippets: the start of the plain text, whitespace collapsed, HTML-escaped
/// the way Gmail does it (`&#39;` for apostrophes).
enum SnippetMaker {
    static let maximumLength = 200

    static func snippet(raw: [UInt8]) -> String {
        let parsed = ParsedMessage(raw: raw)
        var text = parsed.plainPart?.text ?? parsed.htmlPart.map { stripTags($0.text) } ?? ""
        text = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        if text.count > maximumLength { text = String(text.prefix(maximumLength)) }
        return escape(text)
    }

    static func stripTags(_ html: String) -> String {
        var out = ""
        var inTag = false
        for character in html {
            if character == "<" {
                inTag = true
                continue
            }
            if character == ">" {
                inTag = false
                out.append(" ")
                continue
            }
            if !inTag { out.append(character) }
        }
        return out.replacingOccurrences(of: "&nbsp;", with: " ")
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
