import ChatmailTestSupport
import Foundation
import GmailModel
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The end-to-end tests of `reply` and `send`, one at a time: each runs an emulator and a dozen chatmail
/// processes, and run side by side on two cores they starve the timing-sensitive tests running beside them.
@Suite(.serialized) enum ComposeEndToEnd {}

/// A logged-in, synced home with a conversation the compose tests own: Pat Jones wrote twice in one
/// thread, with known Message-IDs, so a reply's threading headers can be checked exactly.
final class ComposeHome {
    let setup: LoggedInHome
    /// Gmail's thread of Pat's two messages.
    let patThread: String
    /// The SENT messages on Gmail before the test did anything.
    private(set) var sentBefore: Set<String>

    /// Gmail's API on a closed port; the token server still answers.
    static let offline = ["CHATMAIL_GMAIL_API_URL": "http://127.0.0.1:1"]

    /// A clock `minutes` after the pinned one: past any retry delay a failed attempt set, and a Date
    /// header of its own for the message sent then.
    static func later(_ minutes: Int64) -> [String: String] {
        ["CHATMAIL_NOW_MS": String(CLIFixture.now + minutes * 60_000)]
    }

    static let patFirstID = "<p1.dinner@pat.example>"
    static let patSecondID = "<p2.dinner@pat.example>"

    init() async throws {
        setup = try await LoggedInHome(synthetic: 12)
        let first = """
            From: Pat Jones <pat@example.net>\r\nTo: Me <me@example.org>\r\nSubject: Dinner on Friday\r\n\
            Date: Tue, 4 Mar 2025 09:00:00 +0000\r\nMessage-ID: \(Self.patFirstID)\r\n\r\nDinner on Friday?\r\n
            """
        let second = """
            From: Pat Jones <pat@example.net>\r\nTo: Me <me@example.org>\r\nSubject: Re: Dinner on Friday\r\n\
            Date: Tue, 4 Mar 2025 10:00:00 +0000\r\nMessage-ID: \(Self.patSecondID)\r\n\
            In-Reply-To: \(Self.patFirstID)\r\nReferences: \(Self.patFirstID)\r\n\r\nAt eight, say?\r\n
            """
        var threads: Set<String> = []
        for raw in [first, second] { threads.insert(try await Self.deliver(raw, to: setup)) }
        patThread = try #require(threads.count == 1 ? threads.first : nil, "Pat's messages are not one thread")
        let sync = try await setup.run(["sync"])
        try #require(sync.status == 0, "\(sync.stderr)")
        sentBefore = []
        sentBefore = Set(try await sentIDs())
    }

    /// Puts `raw` in the inbox as if it had arrived by mail; returns the Gmail thread it joined.
    @discardableResult
    static func deliver(_ raw: String, to setup: LoggedInHome) async throws -> String {
        let body = try JSONSerialization.data(withJSONObject: [
            "raw": Base64URL.encode(Array(raw.utf8), padded: true), "labelIds": ["INBOX", "UNREAD"],
        ])
        let delivered = try await setup.control("POST", "deliver", json: String(decoding: body, as: UTF8.self))
        return try #require(delivered["threadId"] as? String, "the emulator refused: \(delivered)")
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> RunResult {
        try await setup.run(arguments, environment: environment)
    }

    /// The access token the test reads Gmail with: the emulator's static one until a test expires it.
    var bearer = "emu-static-token"

    /// A Gmail API GET as the test (not chatmail) makes it.
    func gmail(_ path: String) async throws -> [String: Any] {
        var request = URLRequest(
            url: try #require(URL(string: setup.emulator.baseURL.absoluteString + "/gmail/v1/users/me/" + path)))
        request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        try #require(
            (response as? HTTPURLResponse)?.statusCode == 200, "\(path): \(String(decoding: data, as: UTF8.self))")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The SENT messages on Gmail now.
    func sentIDs() async throws -> [String] {
        let listing = try await gmail("messages?labelIds=SENT&maxResults=500")
        return (listing["messages"] as? [[String: String]] ?? []).compactMap { $0["id"] }
    }

    /// The messages Gmail has in SENT that were not there when the home was set up.
    func newSent() async throws -> [ServerMessage] {
        var found: [ServerMessage] = []
        for id in try await sentIDs() where !sentBefore.contains(id) {
            found.append(try await serverMessage(id))
        }
        return found
    }

    /// One message as Gmail stores it, with its raw bytes decoded.
    func serverMessage(_ id: String) async throws -> ServerMessage {
        let json = try await gmail("messages/\(id)?format=raw")
        let raw = try #require(json["raw"] as? String).replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        let padded = raw + String(repeating: "=", count: (4 - raw.count % 4) % 4)
        let bytes = try #require(Data(base64Encoded: padded))
        return ServerMessage(
            id: id, threadID: json["threadId"] as? String ?? "", labels: Set(json["labelIds"] as? [String] ?? []),
            raw: String(decoding: bytes, as: UTF8.self))
    }

    /// `show <person> --json`'s messages.
    func transcript(_ person: String) async throws -> [[String: Any]] {
        let result = try await run(["show", person, "--json", "--limit", "500"])
        let json = try #require(try result.json() as? [String: Any], "\(result.stderr)")
        return try #require(json["messages"] as? [[String: Any]])
    }

    /// The local messages whose text is exactly `text`.
    func local(_ person: String, text: String) async throws -> [[String: Any]] {
        try await transcript(person).filter { $0["text"] as? String == text }
    }

    /// Runs chatmail with the emulator's environment, feeding `input` to it: bytes on a pipe, or a
    /// pseudo-terminal (so it opens the editor); also says whether it was killed, and by which signal.
    func runWithInput(
        _ arguments: [String], input: Input, environment: [String: String] = [:]
    ) async throws -> (result: RunResult, signal: Int32?) {
        var extra = setup.emulator.environment.merging(environment) { $1 }
        extra["CHATMAIL_NOW_MS"] = extra["CHATMAIL_NOW_MS"] ?? String(CLIFixture.now)
        let arguments = arguments + ["--home", setup.home.path]
        let merged = extra
        return try await offThePool { try Self.runBlocking(arguments, input: input, environment: merged) }
    }

    enum Input {
        case bytes(String)
        case terminal
    }

    private static func runBlocking(_ arguments: [String], input: Input, environment extra: [String: String]) throws
        -> (result: RunResult, signal: Int32?)
    {
        let process = Process()
        process.executableURL = CLIFixture.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for key in ["LC_ALL", "LC_CTYPE", "NO_COLOR", "CHATMAIL_HOME", "VISUAL", "EDITOR", "CHATMAIL_TEST_CRASH_AT"] {
            environment.removeValue(forKey: key)
        }
        environment["TZ"] = "UTC"
        environment["LANG"] = "C.UTF-8"
        environment["COLUMNS"] = "80"
        environment["XDG_CONFIG_HOME"] =
            FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-tests-no-config").path
        process.environment = environment.merging(extra) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        var terminal: (primary: Int32, secondary: FileHandle)?
        let feed = Pipe()
        switch input {
        case .bytes: process.standardInput = feed
        case .terminal:
            // glibc hides posix_openpt from Swift; these are its steps: open the multiplexer, unlock the
            // new pair (TIOCSPTLCK), learn its number (TIOCGPTN).
            let primary = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            var unlock: CInt = 0
            var number: CInt = 0
            guard primary >= 0, ioctl(primary, UInt(0x4004_5431), &unlock) == 0,
                ioctl(primary, UInt(0x8004_5430), &number) == 0
            else { throw POSIXError(.ENODEV) }
            let secondary = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
            guard secondary >= 0 else { throw POSIXError(.ENODEV) }
            terminal = (primary, FileHandle(fileDescriptor: secondary, closeOnDealloc: true))
            process.standardInput = terminal?.secondary
        }
        defer { if let terminal { close(terminal.primary) } }
        try process.run()
        if case .bytes(let text) = input {
            feed.fileHandleForWriting.write(Data(text.utf8))
            try feed.fileHandleForWriting.close()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let signalled = process.terminationReason == .uncaughtSignal
        return (
            RunResult(
                status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                stderr: String(decoding: errData, as: UTF8.self)),
            signalled ? process.terminationStatus : nil
        )
    }
}

/// A message as Gmail stores it.
struct ServerMessage {
    var id: String
    var threadID: String
    var labels: Set<String>
    var raw: String

    /// The header's unfolded value (the first of that name), as written on the wire.
    func header(_ name: String) -> String? {
        let head = raw.components(separatedBy: "\r\n\r\n").first ?? ""
        let unfolded = head.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "\r\n\t", with: " ")
        for line in unfolded.components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].caseInsensitiveCompare(name) == .orderedSame {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// Everything after the header block, as on the wire.
    var body: String {
        guard let range = raw.range(of: "\r\n\r\n") else { return "" }
        return String(raw[range.upperBound...])
    }

    /// The body decoded from its transfer encoding (quoted-printable, base64 or none) as UTF-8, with
    /// LF line ends: what a reader of this single-part message sees.
    var text: String {
        let bytes: [UInt8]
        switch header("Content-Transfer-Encoding")?.lowercased() {
        case "base64":
            bytes = [UInt8](Data(base64Encoded: body, options: .ignoreUnknownCharacters) ?? Data())
        case "quoted-printable":
            let source = Array(body.replacingOccurrences(of: "=\r\n", with: "").utf8)
            var decoded: [UInt8] = []
            var index = 0
            while index < source.count {
                if source[index] == UInt8(ascii: "="), index + 2 < source.count,
                    let byte = UInt8(String(decoding: source[index + 1...index + 2], as: UTF8.self), radix: 16)
                {
                    decoded.append(byte)
                    index += 3
                } else {
                    decoded.append(source[index])
                    index += 1
                }
            }
            bytes = decoded
        default:
            bytes = Array(body.utf8)
        }
        return String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }
}
