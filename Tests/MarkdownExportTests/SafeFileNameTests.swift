import Foundation
import Testing

@testable import MarkdownExport

@Suite struct SafeFileNameTests {
    /// A name is safe when it is one non-empty path component with no hidden, traversal or control part.
    func isSafe(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && !name.contains("\\") && !name.hasPrefix(".") && name != ".."
            && name != "."
            && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            && name.utf8.count <= SafeFileName.maximumBytes
    }

    @Test("slugs: lowercase words of any script joined by hyphens; traversal, controls and reserved names are defused")
    func slugs() {
        let cases: [(String, String)] = [
            ("Alice Liddell", "alice-liddell"),
            ("Alice, Bob", "alice-bob"),
            ("../../etc/passwd", "etc-passwd"),
            ("..", "conversation"),
            ("", "conversation"),
            ("a\u{0}b\u{1B}[31mc\nd", "a-b-31mc-d"),
            ("Ärger & Co.", "ärger-co"),
            ("张伟", "张伟"),
            ("CON", "con-chat"),
            ("index", "index-chat"),
            ("Attachments", "attachments-chat"),
            ("lpt1", "lpt1-chat"),
            ("COM¹", "com¹-chat"),
            ("LPT0", "lpt0-chat"),
            ("\u{202E}evil\u{200B}", "evil"),
        ]
        for (title, expected) in cases {
            #expect(SafeFileName.slug(title) == expected, "\(title)")
            #expect(isSafe(SafeFileName.slug(title) + ".md"))
        }
        let long = SafeFileName.slug(String(repeating: "é", count: 300))
        #expect(long.utf8.count <= SafeFileName.maximumBytes - 12)
        #expect(long.allSatisfy { $0 == "é" })
    }

    @Test("attachment names keep their extension and lose every path part")
    func attachmentNames() {
        let cases: [(String, String, String)] = [
            ("report.pdf", "report", "pdf"),
            ("Q3 report (final).PDF", "Q3-report-final", "PDF"),
            ("../../.bashrc", "bashrc", ""),
            ("C:\\Windows\\system32\\evil.exe", "evil", "exe"),
            ("..", "attachment", ""),
            ("", "attachment", ""),
            ("nul.txt", "nul-file", "txt"),
            // Windows reserves a device name whatever follows its first dot.
            ("CON.tar.gz", "CON-file.tar", "gz"),
            ("aux.", "aux-file", ""),
            ("Com3.backup.zip", "Com3-file.backup", "zip"),
            ("lpt².txt", "lpt²-file", "txt"),
            ("a\u{0}b.txt", "a-b", "txt"),
            ("archive.tar.gz", "archive.tar", "gz"),
            ("name.with a very long extension", "name.with-a-very-long-extension", ""),
        ]
        for (filename, base, ext) in cases {
            let safe = SafeFileName.attachmentName(filename)
            #expect(safe.base == base && safe.extension == ext, "\(filename) → \(safe)")
            #expect(isSafe(safe.base + (ext.isEmpty ? "" : "." + ext)))
        }
        let long = SafeFileName.attachmentName(String(repeating: "x", count: 400) + ".jpeg")
        #expect(long.extension == "jpeg")
        #expect((long.base + ".jpeg").utf8.count <= SafeFileName.maximumBytes)
    }

    @Test("the allocator gives unique names, case-insensitively, and respects names already taken")
    func allocator() {
        var names = SafeFileName.Allocator(taken: ["index.md"])
        #expect(names.claim(base: "alice", extension: "md") == "alice.md")
        #expect(names.claim(base: "Alice", extension: "md") == "Alice-2.md")
        #expect(names.claim(base: "alice", extension: "md") == "alice-3.md")
        #expect(names.claim(base: "index", extension: "md") == "index-2.md")
        #expect(names.claim(base: "alice-2", extension: "md") == "alice-2-2.md")
        #expect(names.claim(base: "notes", extension: "") == "notes")
        // Case-insensitive file systems fold more than `lowercased()` does: final sigma, sharp s.
        #expect(names.claim(base: "λόγος", extension: "md") == "λόγος.md")
        #expect(names.claim(base: "λόγοσ", extension: "md") == "λόγοσ-2.md")
        #expect(names.claim(base: "straße", extension: "pdf") == "straße.pdf")
        #expect(names.claim(base: "STRASSE", extension: "pdf") == "STRASSE-2.pdf")
    }
}
