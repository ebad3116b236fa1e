import Foundation
import GmailEmulator
import Testing

@Suite struct OAuthTests {
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"  // RFC 7636 appendix B
    static let client = "emulator-client.apps.googleusercontent.com"

    func form(_ pairs: [(String, String)]) -> [UInt8] {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return Array(
            pairs.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.1)" }.joined(
                separator: "&"
            ).utf8)
    }

    func authorize(_ h: Harness) async throws -> String {
        let redirect = "http://127.0.0.1:1/callback"
        let reply = try await h.get(
            "/o/oauth2/v2/auth?client_id=\(OAuthTests.client)&redirect_uri=\(redirect)&response_type=code&scope=gmail.modify&code_challenge=\(OAuthTests.challenge)&code_challenge_method=S256&state=xyz",
            token: nil)
        #expect(reply.status == 302)
        let location = try #require(reply.headers["location"])
        #expect(location.hasPrefix(redirect + "?code="))
        #expect(location.contains("&state=xyz"))
        let components = try #require(URLComponents(string: location))
        return try #require(components.queryItems?.first { $0.name == "code" }?.value)
    }

    @Test("auth code + PKCE, wrong verifier, refresh, revoke, expired access token")
    func flow() async throws {
        try await withEmulator { h in
            let badCode = try await authorize(h)
            let wrong = try await h.request(
                "POST", "/token",
                body: form([
                    ("grant_type", "authorization_code"), ("code", badCode),
                    ("client_id", OAuthTests.client),
                    ("code_verifier", "wrong-verifier-wrong-verifier-wrong-verifier-x"),
                ]),
                contentType: "application/x-www-form-urlencoded", token: nil)
            #expect(wrong.status == 400)
            #expect(wrong.json["error"] == .string("invalid_grant"))
            let code = try await authorize(h)
            let tokens = try await h.request(
                "POST", "/token",
                body: form([
                    ("grant_type", "authorization_code"), ("code", code),
                    ("client_id", OAuthTests.client), ("client_secret", "x"), ("code_verifier", OAuthTests.verifier),
                    ("redirect_uri", "http://127.0.0.1:1/callback"),
                ]), contentType: "application/x-www-form-urlencoded", token: nil)
            #expect(tokens.status == 200)
            let access = try #require(tokens.json["access_token"]?.stringValue)
            let refresh = try #require(tokens.json["refresh_token"]?.stringValue)
            #expect(access.hasPrefix("emu-at-"))
            #expect(try await h.get(Harness.me + "/profile", token: access).status == 200)
            _ = try await h.control("expire-tokens", "{}")
            #expect(try await h.get(Harness.me + "/profile", token: access).status == 401)
            let refreshed = try await h.request(
                "POST", "/token",
                body: form([
                    ("grant_type", "refresh_token"), ("refresh_token", refresh),
                    ("client_id", OAuthTests.client),
                ]), contentType: "application/x-www-form-urlencoded", token: nil)
            let newAccess = try #require(refreshed.json["access_token"]?.stringValue)
            #expect(try await h.get(Harness.me + "/profile", token: newAccess).status == 200)
            #expect(
                try await h.request(
                    "POST", "/revoke", body: form([("token", refresh)]),
                    contentType: "application/x-www-form-urlencoded", token: nil
                ).status == 200)
            let revoked = try await h.request(
                "POST", "/token",
                body: form([
                    ("grant_type", "refresh_token"), ("refresh_token", refresh),
                    ("client_id", OAuthTests.client),
                ]), contentType: "application/x-www-form-urlencoded", token: nil)
            #expect(revoked.status == 400)
            #expect(
                revoked.text == #"{"error":"invalid_grant","error_description":"Token has been expired or revoked."}"#)
        }
    }
}

@Suite struct ControlTests {
    @Test("control API: deliver, modify, trash, delete, expire, request log")
    func control() async throws {
        try await withEmulator { h in
            let start = try await h.get(Harness.me + "/profile").json["historyId"]?.stringValue ?? ""
            let id = try await h.deliver(Fixtures.plain(90), labels: ["INBOX", "Work"])
            let labels = try await h.get(Harness.me + "/labels").json["labels"]?.arrayValue ?? []
            #expect(labels.contains { $0["name"] == .string("Work") && $0["type"] == .string("user") })
            #expect(try await h.control("modify", #"{"id":"\#(id)","addLabelIds":["STARRED"]}"#).status == 200)
            #expect(
                try await h.control("trash", #"{"id":"\#(id)"}"#).json["labelIds"]?.arrayValue?.contains(
                    .string("TRASH")) == true)
            #expect(try await h.control("delete", #"{"id":"\#(id)"}"#).status == 200)
            let history =
                try await h.get(Harness.me + "/history?startHistoryId=\(start)").json["history"]?.arrayValue ?? []
            #expect(history.count == 4)
            #expect(try await h.get(Harness.me + "/messages/\(id)").status == 404)
            let log = try await h.get("/_emulator/requests", token: nil).json["requests"]?.arrayValue ?? []
            #expect(log.contains { $0["gmailMethod"] == .string("history.list") && $0["status"] == .int(200) })
            _ = try await h.control("expire-history", "{}")
            #expect(try await h.get(Harness.me + "/history?startHistoryId=\(start)").status == 404)
        }
    }

    @Test("synthetic mailboxes are deterministic and parse")
    func synthetic() async throws {
        var ids: [[JSONValue]] = []
        for _ in 0..<2 {
            try await withEmulator({
                $0.mailbox = .synthetic(count: 300)
                $0.seed = 42
            }) { h in
                let list = try await h.get(Harness.me + "/messages?maxResults=500").json
                ids.append(list["messages"]?.arrayValue ?? [])
                #expect(list["resultSizeEstimate"] == .int(300))
                let newsletters = try await h.get(Harness.me + "/messages?q=in:promotions").json
                #expect((newsletters["messages"]?.arrayValue?.count ?? 0) > 0)
            }
        }
        #expect(ids[0] == ids[1] && ids[0].count == 300)
    }
}
