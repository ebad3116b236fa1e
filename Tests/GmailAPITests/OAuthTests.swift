import Foundation
import GmailAPI
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

@Suite struct PKCETests {
    /// RFC 7636 appendix B prints the challenge `E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM`
    /// (cross-checked with Python's hashlib: SHA-256 = 13d31e96…cb70f9c3). The issue brief quoted a
    /// different tail (`…CHdoRDfdzPUr8yWrxsWwk0g`), which is not the RFC's value.
    @Test("RFC 7636 appendix B test vector")
    func rfcVector() {
        let pkce = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(pkce.method == "S256")
    }

    @Test("generated verifiers have the requested length and only unreserved characters")
    func generated() {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        for length in [43, 64, 128] {
            let pkce = PKCE.generate(length: length, random: SeededRandom(seed: UInt64(length)))
            #expect(pkce.verifier.count == length)
            #expect(pkce.verifier.allSatisfy { allowed.contains($0) })
            #expect(!pkce.challenge.contains("=") && !pkce.challenge.contains("+") && !pkce.challenge.contains("/"))
        }
    }

    @Test("the authorization URL carries every parameter of the contract's installed-app authorization request")
    func authorizationURL() throws {
        let configuration = OAuthConfiguration(clientID: "client-1.apps.googleusercontent.com", clientSecret: "s")
        let request = AuthorizationRequest(
            configuration: configuration, redirectURI: "http://127.0.0.1:8765", random: SeededRandom(seed: 1))
        let items = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems)
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        #expect(request.url.absoluteString.hasPrefix("https://accounts.google.com/o/oauth2/v2/auth?"))
        #expect(value("response_type") == "code")
        #expect(value("client_id") == "client-1.apps.googleusercontent.com")
        #expect(value("redirect_uri") == "http://127.0.0.1:8765")
        #expect(value("scope") == "https://www.googleapis.com/auth/gmail.modify")
        #expect(value("code_challenge") == request.pkce.challenge)
        #expect(value("code_challenge_method") == "S256")
        #expect(value("state") == request.state && request.state.count == 32)
        #expect(value("access_type") == "offline")
        #expect(value("prompt") == "consent")
        #expect(value("client_secret") == nil)
    }
}

@Suite struct TokenClientTests {
    let configuration = OAuthConfiguration(
        clientID: "cid", clientSecret: "csecret", tokenURL: URL(string: "http://127.0.0.1:9/token")!)

    @Test("code exchange posts the contract's token form and decodes the grant")
    func exchange() async throws {
        let transport = ScriptedTransport(queue: [
            jsonResponse(
                200,
                #"{"access_token":"ya29.A","expires_in":3599,"refresh_token":"1//R","scope":"https://www.googleapis.com/auth/gmail.modify","token_type":"Bearer"}"#
            )
        ])
        let grant = try await OAuthTokenClient(configuration: configuration, transport: transport)
            .exchange(code: "4/code", verifier: "v", redirectURI: "http://127.0.0.1:1")
        #expect(grant.accessToken == "ya29.A" && grant.refreshToken == "1//R" && grant.expiresIn == 3599)
        #expect(grant.grants(OAuthConfiguration.gmailModifyScope))
        let request = try #require(transport.requests.first)
        #expect(request.method == "POST")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(
            request.bodyText
                == "grant_type=authorization_code&code=4%2Fcode&code_verifier=v&redirect_uri=http%3A%2F%2F127.0.0.1%3A1&client_id=cid&client_secret=csecret"
        )
    }

    @Test("invalid_grant on refresh is credentialsRevoked; other codes are oauthRejected")
    func errors() async throws {
        let revoked = ScriptedTransport { _, _ in
            jsonResponse(400, #"{"error":"invalid_grant","error_description":"Token has been expired or revoked."}"#)
        }
        await #expect(throws: GmailAPIError.logInAgain(.credentialsRevoked)) {
            try await OAuthTokenClient(configuration: configuration, transport: revoked).refresh(refreshToken: "1//R")
        }
        #expect(
            revoked.requests.first?.bodyText
                == "grant_type=refresh_token&refresh_token=1%2F%2FR&client_id=cid&client_secret=csecret")
        let client = ScriptedTransport { _, _ in
            jsonResponse(401, #"{"error":"invalid_client","error_description":"Unauthorized"}"#)
        }
        await #expect(throws: GmailAPIError.logInAgain(.oauthRejected(code: "invalid_client"))) {
            try await OAuthTokenClient(configuration: configuration, transport: client).refresh(refreshToken: "1//R")
        }
    }

    @Test("the token provider refreshes 60 s before expiry, single-flight, and after invalidate")
    func tokenProvider() async throws {
        let sleeper = VirtualSleeper()
        let transport = ScriptedTransport { _, index in
            jsonResponse(200, #"{"access_token":"ya29.T\#(index)","expires_in":3600}"#)
        }
        let provider = TokenProvider(
            refreshToken: "1//R", client: OAuthTokenClient(configuration: configuration, transport: transport),
            sleeper: sleeper)
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<10 { group.addTask { try await provider.accessToken() } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(tokens) == ["ya29.T0"])
        #expect(transport.requests.count == 1)
        sleeper.advance(.seconds(3500))
        #expect(try await provider.accessToken() == "ya29.T0")
        sleeper.advance(.seconds(60))  // now within 60 s of expiry
        #expect(try await provider.accessToken() == "ya29.T1")
        await provider.invalidate("ya29.T1")
        #expect(try await provider.accessToken() == "ya29.T2")
        #expect(await provider.refreshCount == 3)
    }

    @Test("an unreachable token endpoint is retried like any transient failure")
    func tokenEndpointTransient() async throws {
        let transport = ScriptedTransport { request, index in
            if request.url.path == "/token" {
                return index == 0
                    ? jsonResponse(503, "{}") : jsonResponse(200, #"{"access_token":"ya29.T","expires_in":3600}"#)
            }
            return jsonResponse(200, GmailClientTests.profileJSON)
        }
        let provider = TokenProvider(
            refreshToken: "1//R", client: OAuthTokenClient(configuration: configuration, transport: transport))
        let sleeper = VirtualSleeper()
        _ = try await makeClient(transport: transport, tokens: provider, sleeper: sleeper).getProfile()
        #expect(transport.requests.map(\.url.path) == ["/token", "/token", "/gmail/v1/users/me/profile"])
        #expect(sleeper.sleeps.count == 1)
    }

    @Test("a revoked refresh token surfaces through the client as credentialsRevoked")
    func revokedThroughClient() async throws {
        let transport = ScriptedTransport { request, _ in
            request.url.path == "/token"
                ? jsonResponse(400, #"{"error":"invalid_grant"}"#) : jsonResponse(200, GmailClientTests.profileJSON)
        }
        let provider = TokenProvider(
            refreshToken: "1//R", client: OAuthTokenClient(configuration: configuration, transport: transport))
        await #expect(throws: GmailAPIError.logInAgain(.credentialsRevoked)) {
            try await makeClient(transport: transport, tokens: provider).getProfile()
        }
    }
}

@Suite struct LoopbackReceiverTests {
    /// The receiver answers on its own thread from `startServing` on; the request's time-out only bounds a
    /// broken run.
    func get(_ url: String) async throws -> (Int, String) {
        var request = URLRequest(url: URL(string: url)!)
        request.timeoutInterval = 120
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test("delivers the code when state matches, over a real 127.0.0.1 socket")
    func deliversCode() async throws {
        let receiver = try LoopbackReceiver()
        #expect(receiver.port > 0)
        #expect(receiver.redirectURI == "http://127.0.0.1:\(receiver.port)")
        let code = receiver.startServing(expectedState: "st-1")
        let (ignored, _) = try await get("\(receiver.redirectURI)/favicon.ico")
        #expect(ignored == 404)
        let (status, page) = try await get("\(receiver.redirectURI)/?state=st-1&code=4%2F0AbC&scope=x")
        #expect(status == 200 && page.contains("signed in"))
        #expect(try await code.code() == "4/0AbC")
    }

    @Test("rejects a wrong state")
    func rejectsWrongState() async throws {
        let receiver = try LoopbackReceiver()
        let code = receiver.startServing(expectedState: "expected")
        let (status, _) = try await get("\(receiver.redirectURI)/?state=forged&code=stolen")
        #expect(status == 400)
        await #expect(throws: LoginFlowError.stateMismatch) { try await code.code() }
    }

    @Test("reports access_denied")
    func reportsDenied() async throws {
        let receiver = try LoopbackReceiver()
        let code = receiver.startServing(expectedState: "s")
        _ = try await get("\(receiver.redirectURI)/?error=access_denied&state=s")
        await #expect(throws: LoginFlowError.authorizationDenied(reason: "access_denied")) { try await code.code() }
    }

    @Test("times out when nobody comes back")
    func timesOut() async throws {
        let receiver = try LoopbackReceiver()
        await #expect(throws: LoginFlowError.loginTimedOut) {
            try await receiver.waitForCode(expectedState: "s", timeoutSeconds: 1)
        }
    }
}

@Suite struct CredentialStoreTests {
    @Test("credentials are written 0600 inside a 0700 directory and read back")
    func modes() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-cred-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }  // best-effort cleanup
        let store = CredentialStore(directory: root.appendingPathComponent("home"))
        #expect(try store.load() == nil)
        let credentials = StoredCredentials(
            refreshToken: "1//SECRET-REFRESH", clientID: "cid", account: "ann@example.com",
            scopes: [OAuthConfiguration.gmailModifyScope])
        try store.save(credentials)
        try store.save(credentials)  // replacing works
        #expect(try store.load() == credentials)
        func mode(_ path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o777
        }
        #expect(try mode(store.fileURL.path) == 0o600)
        #expect(try mode(store.directory.path) == 0o700)
        #expect(!credentials.description.contains("SECRET"))
        try store.delete()
        #expect(try store.load() == nil)
    }
}
