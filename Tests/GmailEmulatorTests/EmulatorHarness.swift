import ChatmailTestSupport
import Foundation
import GmailEmulator
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A started emulator plus small HTTP helpers over real sockets (URLSession).
struct Harness {
    let running: RunningEmulator
    let session: URLSession
    static let token = "emu-static-token"

    struct Reply {
        var status: Int
        var body: [UInt8]
        var headers: [String: String]
        var json: JSONValue { JSONValue.parse(body) ?? .null }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    func request(
        _ method: String, _ path: String, body: [UInt8] = [], contentType: String? = nil,
        token: String? = Harness.token
    ) async throws -> Reply {
        guard let url = URL(string: running.baseURL + path) else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        if !body.isEmpty || method == "POST" { request.httpBody = Data(body) }
        let (data, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (key, value) in http?.allHeaderFields ?? [:] {
            headers[String(describing: key).lowercased()] = String(describing: value)
        }
        return Reply(status: http?.statusCode ?? 0, body: [UInt8](data), headers: headers)
    }

    func get(_ path: String, token: String? = Harness.token) async throws -> Reply {
        try await request("GET", path, token: token)
    }

    func post(_ path: String, json: String, token: String? = Harness.token) async throws -> Reply {
        try await request("POST", path, body: Array(json.utf8), contentType: "application/json", token: token)
    }

    func control(_ action: String, _ json: String, method: String = "POST") async throws -> Reply {
        try await request(
            method, "/_emulator/" + action, body: Array(json.utf8), contentType: "application/json", token: nil)
    }

    func deliver(_ raw: String, labels: [String]? = nil) async throws -> String {
        let query = (labels ?? []).map { "labelIds=\($0)" }.joined(separator: "&")
        let reply = try await request(
            "POST", "/_emulator/deliver" + (query.isEmpty ? "" : "?" + query), body: Array(raw.utf8),
            contentType: "message/rfc822", token: nil)
        return reply.json["id"]?.stringValue ?? ""
    }

    static let me = "/gmail/v1/users/me"
}

/// Starts an emulator on port 0, runs `body`, and always shuts it down.
func withEmulator(
    _ configure: (inout EmulatorConfiguration) -> Void = { _ in },
    _ body: (Harness) async throws -> Void
) async throws {
    var configuration = EmulatorConfiguration()
    configuration.mailbox = .messages(Fixtures.mailbox)
    configure(&configuration)
    try await withRunningEmulator(configuration) { running, session in
        try await body(Harness(running: running, session: session))
    }
}

enum Fixtures {
    static let multipart = """
        From: Bob Example <bob@example.org>\r
        To: me@example.com\r
        Subject: lunch\r
        Date: Wed, 13 Nov 2024 09:00:00 +0000\r
        Message-ID: <lunch-1@example.org>\r
        MIME-Version: 1.0\r
        Content-Type: multipart/mixed; boundary="mix"\r
        \r
        --mix\r
        Content-Type: multipart/alternative; boundary="alt"\r
        \r
        --alt\r
        Content-Type: text/plain; charset="UTF-8"\r
        Content-Transfer-Encoding: quoted-printable\r
        \r
        Hi Ann, Lunch at 12? Caf=C3=A9 it's on me\r
        --alt\r
        Content-Type: text/html; charset="UTF-8"\r
        \r
        <p>Hi Ann,<br>Lunch at 12?</p>\r
        --alt--\r
        --mix\r
        Content-Type: application/pdf; name="menu.pdf"\r
        Content-Disposition: attachment; filename="menu.pdf"\r
        Content-Transfer-Encoding: base64\r
        \r
        JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoKPDwvTGVuZ3RoIDMgMCBSPj4Kc3RyZWFtCg==\r
        --mix--\r

        """

    static func plain(_ n: Int, from: String = "Carol <carol@example.net>", subject: String? = nil, extra: String = "")
        -> String
    {
        "From: \(from)\r\nTo: me@example.com\r\nSubject: \(subject ?? "note \(n)")\r\nDate: Thu, \(10 + n % 18) Oct 2024 08:00:\(String(format: "%02d", n % 60)) +0000\r\nMessage-ID: <note-\(n)@example.net>\r\n\(extra)Content-Type: text/plain; charset=utf-8\r\n\r\nBody of note \(n).\r\n"
    }

    static var mailbox: [(raw: [UInt8], labels: [String]?)] {
        [(Array(multipart.utf8), ["INBOX", "UNREAD", "IMPORTANT"])]
            + (1...5).map { (Array(plain($0).utf8), nil) }
            + [
                (
                    Array(
                        plain(
                            6, from: "Me <me@example.com>", subject: "Re: note 1",
                            extra: "In-Reply-To: <note-1@example.net>\r\n"
                        ).utf8), nil
                )
            ]
    }
}
