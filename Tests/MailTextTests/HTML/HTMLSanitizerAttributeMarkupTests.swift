import MailText
import Testing

/// Markup inside an attribute value is inert where it stands, but a value holding `<` or `-->` becomes markup
/// when the sanitized HTML is parsed again in another context (foster parenting in a table, a `select`, foreign
/// content, `noscript` with scripts off): mutation XSS. The sanitizer drops such an attribute, whatever its name,
/// its element's surroundings or the way the markup was spelled, and keeps the element.
@Suite struct HTMLSanitizerAttributeMarkupTests {
    let sanitizer = HTMLSanitizer()

    /// Markup as it may be spelled inside a double-quoted attribute value; each decodes to `<` or `-->`.
    static let payloads = [
        "&lt;img src=1 onerror=alert(1)&gt;",  // named entities
        "<img src=1 onerror=alert(1)>",  // a literal < inside the quoted value
        "&#60;img src=1 onerror=alert(1)&#62;",  // decimal entities
        "&#x3c;img src=1 onerror=alert(1)&#x3e;",  // hex entities
        "&#X3C;/title&#x3E;&#x3C;img src=1 onerror=alert(1)>",  // upper-case hex, ending a title element
        "--&gt;&lt;img src=1 onerror=alert(1)&gt;",  // a comment's end, then a tag, as entities
        "--><img src=1 onerror=alert(1)>",  // the same, literally
        "--&gt; x",  // a comment's end alone
        "--!&gt; x",  // the comment's end parsers also accept
    ]

    /// Where the element stands: contexts where a second parse moves or re-reads markup.
    static let contexts = [
        "<table>%@</table>",  // a table's direct content is foster-parented out of it
        "<table><tr><td>%@</td></tr></table>",
        "<select>%@</select>",  // the select is unwrapped; its content is re-read as ordinary HTML
        "<svg>%@</svg>",  // foreign content parses comments and CDATA differently
        "<noscript>%@</noscript>",  // raw text when scripts run, markup when they do not
    ]

    /// The attributes carrying the payload, the allowed element each sits on, and where in the value it goes.
    static let carriers: [(attribute: String, element: String, value: String)] = [
        ("title", "img", "%@"),
        ("alt", "img", "%@"),
        ("title", "span", "%@"),
        // Inside a CSS string, where a property that allows text would keep it.
        ("style", "img", "font-family: '%@'"),
        ("style", "span", "font-family: &quot;%@&quot;"),
    ]

    static let cases: [(String, String, String)] = carriers.flatMap { carrier in
        contexts.flatMap { context in
            payloads.map { payload in
                let value = carrier.value.replacing("%@", with: payload)
                let element = "<\(carrier.element) width=\"7\" \(carrier.attribute)=\"\(value)\">"
                let close = carrier.element == "span" ? "x</span>" : ""
                return (carrier.attribute, context.replacing("%@", with: element + close), payload)
            }
        }
    }

    @Test("no attribute value in the output decodes to markup", arguments: cases)
    func dropsMarkupInAttributes(attribute: String, html: String, payload: String) throws {
        let output = self.sanitizer.sanitize(html)
        let tags = try #require(OutputTags.parse(output), "the output should be well-formed: \(output)")
        for tag in tags {
            for (name, value) in tag.attributes {
                #expect(!value.contains("<"), "\(name) keeps markup in \(output)")
                #expect(
                    !value.contains("-->") && !value.contains("--!>"), "\(name) keeps a comment's end in \(output)")
            }
        }
        // Only the attribute goes: the element it was on stays, with its harmless attributes.
        #expect(tags.contains { $0.attributes.contains { $0.name == "width" && $0.value == "7" } }, "\(output)")
        #expect(!tags.contains { $0.attributes.contains { $0.name == attribute } }, "\(output)")
        #expect(self.sanitizer.sanitize(output) == output)
    }

    @Test(
        "values that only look like part of markup stay",
        arguments: [
            #"<img alt="5 > 3" src="cid:a">"#,  // a lone > opens nothing
            #"<span title="Q&amp;A -- notes">x</span>"#,  // a dash pair without a comment's end
            #"<span title="arrows ->, =>, >>">x</span>"#,
            #"<span style="font-family: 'Segoe UI', Arial">x</span>"#,
        ])
    func keepsHarmlessValues(html: String) throws {
        let output = self.sanitizer.sanitize(html)
        let attributes = try #require(OutputTags.parse(output)).flatMap(\.attributes)
        #expect(attributes.contains { ["alt", "title", "style"].contains($0.name) }, "\(output)")
    }

    @Test("a value with a lone < is dropped too: telling a comparison from a tag is not worth the risk")
    func dropsLoneLessThan() {
        #expect(self.sanitizer.sanitize(#"<span title="a < b" class="c">x</span>"#) == #"<span class="c">x</span>"#)
        #expect(self.sanitizer.sanitize(#"<img alt="a &lt; b" src="cid:a">"#) == #"<img src="cid:a">"#)
    }
}

/// The start tags of the sanitizer's output with their attribute values decoded, read by a deliberately strict
/// reader: the output is always written as `<name a="v">` with `&`, `<`, `>` and `"` escaped in values, and
/// anything else makes `parse` return nil, so the check above cannot pass by misreading the output.
struct OutputTags {
    var name: String
    var attributes: [(name: String, value: String)]

    static func parse(_ html: String) -> [OutputTags]? {
        var tags: [OutputTags] = []
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            if rest.hasPrefix("/") {
                guard let close = rest.firstIndex(of: ">") else { return nil }
                rest = rest[rest.index(after: close)...]
                continue
            }
            guard let tag = parseStartTag(&rest) else { return nil }
            tags.append(tag)
        }
        return tags
    }

    /// Reads `name a="v" b="w">` (after the `<`), leaving `rest` after the `>`.
    private static func parseStartTag(_ rest: inout Substring) -> OutputTags? {
        let name = rest.prefix { $0.isLetter || $0.isNumber }
        guard !name.isEmpty else { return nil }
        rest = rest.dropFirst(name.count)
        var tag = OutputTags(name: String(name), attributes: [])
        while true {
            if rest.hasPrefix(">") {
                rest = rest.dropFirst()
                return tag
            }
            guard rest.hasPrefix(" ") else { return nil }
            rest = rest.dropFirst()
            let attribute = rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            guard !attribute.isEmpty else { return nil }
            rest = rest.dropFirst(attribute.count)
            guard rest.hasPrefix("=\"") else { return nil }
            rest = rest.dropFirst(2)
            guard let end = rest.firstIndex(of: "\"") else { return nil }
            let raw = rest[..<end]
            // A raw < or > inside a value would mean the writer failed to escape it.
            guard !raw.contains("<"), !raw.contains(">"), let value = decode(raw) else { return nil }
            tag.attributes.append((String(attribute), value))
            rest = rest[rest.index(after: end)...]
        }
    }

    /// Decodes the entities the writer uses, and numeric ones; any other entity is refused.
    private static func decode(_ raw: Substring) -> String? {
        var value = ""
        var rest = raw
        while let amp = rest.firstIndex(of: "&") {
            value += rest[..<amp]
            rest = rest[rest.index(after: amp)...]
            guard let semicolon = rest.firstIndex(of: ";") else { return nil }
            let entity = rest[..<semicolon]
            rest = rest[rest.index(after: semicolon)...]
            switch entity {
            case "amp": value += "&"
            case "lt": value += "<"
            case "gt": value += ">"
            case "quot": value += "\""
            default:
                let hex = entity.lowercased().hasPrefix("#x")
                guard entity.hasPrefix("#"), let code = UInt32(entity.dropFirst(hex ? 2 : 1), radix: hex ? 16 : 10),
                    let scalar = Unicode.Scalar(code)
                else { return nil }
                value.unicodeScalars.append(scalar)
            }
        }
        return value + rest
    }
}
