import ChatmailTestSupport
import Foundation
import FoundationXML

/// Parses Markdown with cmark-gfm (GitHub's fork of the CommonMark reference parser, from Debian's
/// `cmark-gfm` package, installed by scripts/install-deps) and exposes its syntax tree.
///
/// Raw HTML is kept (`--unsafe`) and the table, autolink and strikethrough extensions are on, so an
/// export that let any of these through would show them in the tree.
public struct ParsedMarkdown {
    public static let executable = "/usr/bin/cmark-gfm"
    public let root: XMLElement

    /// Parses `markdown` (without front matter) on a dedicated thread: waiting for a process must not
    /// block a thread of Swift's small cooperative pool.
    public static func parse(_ markdown: String) async throws -> ParsedMarkdown {
        let xml = try await offThePool { try runParser(markdown) }
        // The default namespace and the DTD reference only get in the way of XPath.
        let cleaned = xmlSafe(xml).replacingOccurrences(of: "<!DOCTYPE document SYSTEM \"CommonMark.dtd\">", with: "")
            .replacingOccurrences(of: " xmlns=\"http://commonmark.org/xml/1.0\"", with: "")
        let document = try XMLDocument(xmlString: cleaned, options: [])
        guard let root = document.rootElement() else { throw ParseFailure(description: "no document element") }
        return ParsedMarkdown(root: root)
    }

    /// `xml` with every scalar XML 1.0 does not allow (U+FFFE, U+FFFF, C0 controls but tab and line
    /// ends) replaced by U+FFFD. cmark-gfm copies them from the Markdown into its XML as they are, and
    /// libxml2 then *recovers* from the error by dropping the rest of the element, so a test would
    /// silently see less of the document than there is.
    public static func xmlSafe(_ xml: String) -> String {
        var output = String.UnicodeScalarView()
        for scalar in xml.unicodeScalars {
            let value = scalar.value
            let allowed =
                value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
                || (0xE000...0xFFFD).contains(value) || value >= 0x10000
            output.append(allowed ? scalar : "\u{FFFD}")
        }
        return String(output)
    }

    public struct ParseFailure: Error, CustomStringConvertible {
        public var description: String
    }

    private static func runParser(_ markdown: String) throws -> String {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("cmark-\(UUID().uuidString).md")
        try Data(markdown.utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }  // best-effort cleanup of a scratch file
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "--unsafe", "-e", "table", "-e", "autolink", "-e", "strikethrough", "-t", "xml", input.path,
        ]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ParseFailure(description: "cmark-gfm exited \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Every element named `name`, anywhere in the tree.
    public func all(_ name: String) throws -> [XMLElement] {
        try root.nodes(forXPath: "//\(name)").compactMap { $0 as? XMLElement }
    }

    public func count(_ name: String) throws -> Int { try all(name).count }

    /// Heading counts by level.
    public func headings() throws -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for heading in try all("heading") {
            counts[Int(heading.attribute(forName: "level")?.stringValue ?? "") ?? 0, default: 0] += 1
        }
        return counts
    }

    public func linkDestinations() throws -> [String] {
        try all("link").map { $0.attribute(forName: "destination")?.stringValue ?? "" }
    }

    /// The raw HTML fragments the parser found.
    public func rawHTML() throws -> [String] {
        try (all("html_inline") + all("html_block")).map { $0.stringValue ?? "" }
    }

    /// All rendered text with every whitespace character removed, for "is this text present" checks
    /// that do not depend on line breaks.
    public func compactText() -> String {
        (root.stringValue ?? "").filter { !$0.isWhitespace }
    }
}

/// Splits a document into its YAML front matter lines and the Markdown after it.
public func splitFrontMatter(_ text: String) -> (frontMatter: [String], body: String)? {
    guard text.hasPrefix("---\n"),
        let end = text.range(of: "\n---\n", range: text.index(text.startIndex, offsetBy: 3)..<text.endIndex)
    else { return nil }
    let front = text[text.index(text.startIndex, offsetBy: 4)..<end.lowerBound].split(separator: "\n").map(String.init)
    return (front, String(text[end.upperBound...]))
}

/// Checks that front matter lines are the simple YAML the exporter writes: `key: value` where the value is a
/// double-quoted string, a number, a boolean or `[]`, and list items of participants.
public func frontMatterProblems(_ lines: [String]) -> [String] {
    let scalar = #"("([^"\\]|\\.)*"|[0-9]+|true|false|\[\])"#
    let patterns = [
        #"^[a-zA-Z]+: "# + scalar + "$",
        #"^[a-zA-Z]+:$"#,
        #"^  - (name|address): "# + scalar + "$",
        #"^    address: "# + scalar + "$",
    ]
    let regexes = patterns.map { try! NSRegularExpression(pattern: $0) }
    return lines.filter { line in
        !regexes.contains { $0.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil }
    }
}

/// Decodes a double-quoted YAML scalar as the exporter writes it.
public func yamlUnquote(_ quoted: String) -> String? {
    guard quoted.hasPrefix("\""), quoted.hasSuffix("\""), quoted.count >= 2 else { return nil }
    var result = ""
    var scalars = Array(quoted.unicodeScalars.dropFirst().dropLast())[...]
    while let scalar = scalars.popFirst() {
        guard scalar == "\\" else {
            result.unicodeScalars.append(scalar)
            continue
        }
        switch scalars.popFirst() {
        case "n": result += "\n"
        case "t": result += "\t"
        case "\"": result += "\""
        case "\\": result += "\\"
        case "u":
            let hex = String(String.UnicodeScalarView(scalars.prefix(4)))
            scalars = scalars.dropFirst(4)
            guard let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) else { return nil }
            result.unicodeScalars.append(decoded)
        default: return nil
        }
    }
    return result
}
