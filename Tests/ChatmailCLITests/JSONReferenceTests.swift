import Foundation
import Testing

/// `Docs/JSON.md` documents the keys of every `--json` shape. These tests run each documented command
/// with `--json` and compare the keys it prints, at every level, with the document's tables, so a key
/// added or removed without updating the document fails here.
@Suite struct JSONReferenceTests {
    static let document = packageRoot.appendingPathComponent("Docs/JSON.md")

    /// One row of a shape's key table.
    struct Key: Equatable {
        var name: String
        var nullable: Bool
        /// The shape of the value (or of each element, for an array) when it is an object.
        var shape: String?
    }

    /// The key tables of the document: the first table after each `### Shape: NAME` heading, one row per
    /// key, written `` | `key` | type | null | meaning | ``, where the type links `(#shape-NAME)` when
    /// the value is another shape and the null column says `yes` when the value can be null.
    static func shapes(in text: String) -> [String: [Key]] {
        var shapes: [String: [Key]] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                let heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
                current = heading.hasPrefix("Shape: ") ? String(heading.dropFirst("Shape: ".count)) : nil
                continue
            }
            guard let name = current else { continue }
            guard line.hasPrefix("|") else {
                if shapes[name] != nil { current = nil }  // the table has ended; later tables are prose
                continue
            }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, cells[0].count > 2, cells[0].hasPrefix("`"), cells[0].hasSuffix("`") else {
                shapes[name, default: []] += []  // the header and divider rows start the table
                continue
            }
            let nested = cells[1].firstMatch(of: /\(#shape-([a-z-]+)\)/).map { String($0.1) }
            shapes[name, default: []].append(
                Key(name: String(cells[0].dropFirst().dropLast()), nullable: cells[2] == "yes", shape: nested))
        }
        return shapes
    }

    /// Compares printed JSON with the document's shapes, and records which shapes it saw.
    final class Checker {
        let shapes: [String: [Key]]
        private(set) var seen: Set<String> = []

        init(shapes: [String: [Key]]) {
            self.shapes = shapes
        }

        /// Checks the output of `command`: one document whose root is `shape`, or a non-empty array of
        /// `shape` when `array` is set.
        func check(_ result: RunResult, _ command: String, status: Int32 = 0, shape: String, array: Bool = false) throws
        {
            #expect(result.status == status, "\(command): \(result.stderr)")
            let json = try #require(try? result.json(), "\(command) printed no JSON: \(result.stdout)")
            if array {
                let elements = try #require(json as? [Any], "\(command) printed no array")
                #expect(!elements.isEmpty, "\(command) printed an empty array, which shows no keys")
                for (index, element) in elements.enumerated() {
                    check(element, shape: shape, at: "\(command)[\(index)]")
                }
            } else {
                check(json, shape: shape, at: command)
            }
        }

        func check(_ value: Any, shape: String, at path: String) {
            guard let keys = shapes[shape] else {
                Issue.record("\(path): Docs/JSON.md has no table for shape \(shape)")
                return
            }
            guard let object = value as? [String: Any] else {
                Issue.record("\(path): expected a \(shape) object, got \(value)")
                return
            }
            seen.insert(shape)
            let printed = Set(object.keys)
            let documented = Set(keys.map(\.name))
            #expect(
                printed == documented,
                """
                \(path) (shape \(shape)): undocumented keys \(printed.subtracting(documented).sorted()), \
                documented keys not printed \(documented.subtracting(printed).sorted())
                """)
            for key in keys {
                guard let member = object[key.name] else { continue }
                if member is NSNull {
                    #expect(key.nullable, "\(path).\(key.name) is null, but Docs/JSON.md says it never is")
                } else if let nested = key.shape {
                    if let elements = member as? [Any] {
                        for (index, element) in elements.enumerated() {
                            check(element, shape: nested, at: "\(path).\(key.name)[\(index)]")
                        }
                    } else {
                        check(member, shape: nested, at: "\(path).\(key.name)")
                    }
                } else if member is [String: Any]
                    || (member as? [Any])?.contains(where: { $0 is [String: Any] }) == true
                {
                    Issue.record("\(path).\(key.name) holds objects, but Docs/JSON.md links no shape for them")
                }
            }
        }
    }

    @Test("the document's tables parse: every shape has keys, and every shape a key refers to exists")
    func documentParses() throws {
        let shapes = Self.shapes(in: try String(contentsOf: Self.document, encoding: .utf8))
        #expect(shapes.count >= 17, "\(shapes.keys.sorted())")
        for (name, keys) in shapes {
            #expect(!keys.isEmpty, "shape \(name) has no keys")
            #expect(Set(keys.map(\.name)).count == keys.count, "shape \(name) lists a key twice")
            for key in keys {
                if let nested = key.shape { #expect(shapes[nested] != nil, "\(name).\(key.name) refers to \(nested)") }
            }
        }
        #expect(shapes["address"] == [Key(name: "address", nullable: false), Key(name: "name", nullable: true)])
    }

    @Test("every command's --json output has exactly the keys Docs/JSON.md lists, at every level")
    func outputMatchesDocument() async throws {
        let checker = Checker(shapes: Self.shapes(in: try String(contentsOf: Self.document, encoding: .utf8)))

        // The standard cast and a mailing list: a store seeded directly, no Gmail needed.
        let fixture = try CLIFixture()
        try fixture.seedList()
        try checker.check(
            try await fixture.run(["conversations", "--json"]), "conversations", shape: "conversation", array: true)
        try checker.check(try await fixture.run(["show", "alice", "--json"]), "show", shape: "transcript")
        try checker.check(
            try await fixture.run(["search", "lunch", "--json"]), "search", shape: "search-hit", array: true)
        for (action, person) in [
            ("archive", "alan"), ("unarchive", "alan"), ("read", "alice"), ("unread", "alice"), ("star", "alice"),
            ("unstar", "alice"), ("trash", "alan"),
        ] {
            try checker.check(try await fixture.run([action, person, "--json"]), action, shape: "action-result")
        }
        try checker.check(
            try await fixture.run(["pending", "--json"]), "pending", shape: "pending-action", array: true)
        try checker.check(
            try await fixture.run(["pending", "list", "--all", "--json"]), "pending list", shape: "pending-action",
            array: true)
        try checker.check(try await fixture.run(["status", "--json"]), "status", shape: "status")
        try checker.check(
            try await fixture.run(["show", "nobody", "--json"]), "show nobody", status: 2, shape: "error-document")

        // A home synced from the Gmail emulator, for the commands that talk to Gmail.
        let gmail = try await LoggedInHome()
        try checker.check(try await gmail.run(["sync", "--json"]), "sync", shape: "sync")
        #expect(try await gmail.run(["star", "bob"]).status == 0)
        let offline = ["CHATMAIL_GMAIL_API_URL": "http://127.0.0.1:1"]
        try checker.check(
            try await gmail.run(["pending", "run", "--json"], environment: offline), "pending run offline", status: 1,
            shape: "pending-run")
        let later = ["CHATMAIL_NOW_MS": String(CLIFixture.now + 3_600_000)]
        try checker.check(
            try await gmail.run(["pending", "run", "--json"], environment: later), "pending run", shape: "pending-run")

        // A verification mail arrives: `codes` lists its code.
        try await ComposeHome.deliver(ComposeEndToEnd.CodesCommandTests.githubMail, to: gmail)
        #expect(try await gmail.run(["sync"]).status == 0)
        try checker.check(
            try await gmail.run(["codes", "--json", "--since", "3650d"]), "codes", shape: "code", array: true)

        // Rules: listed, and a message tested against them.
        #expect(try await gmail.run(["rules", "add", "deny", "noreply@github.com", "--archive"]).status == 0)
        try checker.check(try await gmail.run(["rules", "--json"]), "rules", shape: "rule", array: true)
        let eml = fixture.home.appendingPathComponent("github.eml")
        try Data(ComposeEndToEnd.CodesCommandTests.githubMail.utf8).write(to: eml)
        try checker.check(try await gmail.run(["rules", "test", eml.path, "--json"]), "rules test", shape: "rule-test")

        // A reply while Gmail is unreachable is queued, and shows in the transcript with its outbox state;
        // online, the next one is sent.
        try checker.check(
            try await gmail.run(["reply", "bob", "-m", "Queued while offline", "--json"], environment: offline),
            "reply offline", shape: "send-result")
        try checker.check(
            try await gmail.run(["show", "bob", "--json"], environment: offline), "show with outbox",
            shape: "transcript")
        try checker.check(
            try await gmail.run(["send", "zed@example.com", "--subject", "Hi", "-m", "Hello Zed", "--json"]), "send",
            shape: "send-result")

        // Commands on files.
        let importHome = fixture.home.appendingPathComponent("import-home")
        let mbox = packageRoot.appendingPathComponent("Fixtures/import/takeout.mbox").path
        try checker.check(
            try await CLIFixture.run(["import", mbox, "--me", "me@example.org", "--json", "--home", importHome.path]),
            "import", shape: "import")
        let message = packageRoot.appendingPathComponent("Fixtures/demo-mailbox/07-fichier-attache.eml").path
        try checker.check(try await CLIFixture.run(["view", message, "--json"]), "view", shape: "message-view")

        // Every documented shape was printed with at least one object, so no table goes unchecked.
        #expect(
            checker.seen == Set(checker.shapes.keys),
            "never printed: \(Set(checker.shapes.keys).subtracting(checker.seen).sorted())")
    }
}
