import Foundation
import GmailAPI
import GmailEmulator
import Testing

@Suite("End to end: OAuth, refresh and revocation")
struct EndToEndOAuthTests {
    /// GETs the authorization URL without following redirects and returns the Location (the loopback URI).
    func authorizationRedirect(_ e: EndToEnd, _ url: URL) async throws -> URL {
        let reply = try await e.http("GET", url)
        #expect(reply.status == 302, "authorize: \(reply.text)")
        return try #require(reply.headers["location"].flatMap(URL.init(string:)))
    }

    /// Follows the redirect by hand: authorization URL → 302 → GET Location (the loopback receiver).
    func followRedirect(_ e: EndToEnd, _ url: URL) async throws -> EndToEndReply {
        try await e.http("GET", try await authorizationRedirect(e, url))
    }

    func issueRefreshToken(_ e: EndToEnd) async throws -> String {
        try #require(try await e.control("issue-tokens").json["refresh_token"] as? String)
    }

    @Test("401 → one refresh at the emulator's token endpoint → retry succeeds")
    func unauthorizedRefreshRetry() async throws {
        try await withEmulator { e in
            let provider = TokenProvider(
                refreshToken: try await issueRefreshToken(e), client: e.tokenClient, sleeper: EndToEndSleeper())
            let client = e.client(tokens: provider)
            _ = try await client.getProfile()
            #expect(await provider.refreshCount == 1)

            try await e.control("expire-tokens")
            await e.emulator.requestLog.clear()
            let profile = try await client.getProfile()
            #expect(profile.emailAddress == "me@example.com")
            #expect(await provider.refreshCount == 2, "exactly one refresh after the 401")
            let log = await e.requestLog()
            #expect(log.map(\.path) == ["/gmail/v1/users/me/profile", "/token", "/gmail/v1/users/me/profile"])
            #expect(log.map(\.status) == [401, 200, 200])
            #expect(e.sleeper.sleeps.isEmpty, "a 401 is refreshed, not backed off")
        }
    }

    @Test("401 inside a batch → one refresh → the parts are re-sent and succeed")
    func unauthorizedBatchRefresh() async throws {
        try await withEmulator({ $0.mailbox = .synthetic(count: 4) }) { e in
            let provider = TokenProvider(
                refreshToken: try await issueRefreshToken(e), client: e.tokenClient, sleeper: EndToEndSleeper())
            let client = e.client(tokens: provider)
            let ids = try await client.listAllMessages().map(\.id)
            // Expired tokens: the emulator answers the batch 200 with a 401 in every part (its auth is per part).
            try await e.control("expire-tokens")
            await e.emulator.requestLog.clear()
            let results = try await client.getMessages(ids: ids, format: .minimal)
            for id in ids { #expect((try? results[id]?.get())?.id == id) }
            #expect(await provider.refreshCount == 2, "one refresh for the whole batch")
            let parts = await e.requestLog().filter { $0.path.hasPrefix("batch:") }.map(\.status)
            #expect(parts == Array(repeating: 401, count: ids.count) + Array(repeating: 200, count: ids.count))

            // A single part answered 401 (token revoked mid-flight): one refresh, only that part is re-sent.
            try await e.faults(#"[{"method": "messages.get", "kind": "401", "count": 1, "messageId": "\#(ids[1])"}]"#)
            await e.emulator.requestLog.clear()
            let again = try await client.getMessages(ids: ids, format: .minimal)
            for id in ids { #expect((try? again[id]?.get())?.id == id) }
            #expect(await provider.refreshCount == 3)
            let resent = await e.requestLog().filter { $0.path.hasPrefix("batch:") }.dropFirst(ids.count).map(\.path)
            #expect(resent == ["batch:/gmail/v1/users/me/messages/" + ids[1]])
            #expect(e.sleeper.sleeps.isEmpty, "401s are refreshed, not backed off")
        }
    }

    @Test("a revoked refresh token → credentialsRevoked (invalid_grant), and no token text in the error")
    func revokedRefreshToken() async throws {
        try await withEmulator { e in
            let refresh = try await issueRefreshToken(e)
            let provider = TokenProvider(refreshToken: refresh, client: e.tokenClient, sleeper: EndToEndSleeper())
            let client = e.client(tokens: provider)
            _ = try await client.getProfile()

            let revoke = try await e.http(
                "POST", e.baseURL.appendingPathComponent("revoke"), body: Data("token=\(refresh)".utf8),
                contentType: "application/x-www-form-urlencoded")
            #expect(revoke.status == 200)
            try await e.control("expire-tokens")

            do {
                _ = try await client.getProfile()
                Issue.record("a revoked login must not succeed")
            } catch let error as GmailAPIError {
                #expect(error == .logInAgain(.credentialsRevoked))
                let texts = [error.description, error.localizedDescription, String(reflecting: error)]
                for text in texts {
                    #expect(!text.contains(refresh))
                    #expect(!text.contains("emu-rt-") && !text.contains("emu-at-"))
                }
            }
        }
    }

    @Test("loopback + PKCE: the test follows the redirect; the code and right verifier give tokens usable on the API")
    func fullLoopbackFlow() async throws {
        try await withEmulator { e in
            let receiver = try LoopbackReceiver()
            let request = AuthorizationRequest(configuration: e.oauthConfiguration, redirectURI: receiver.redirectURI)
            let code = receiver.startServing(expectedState: request.state)
            let landing = try await followRedirect(e, request.url)
            #expect(landing.status == 200)
            let grant = try await e.tokenClient.exchange(
                code: try await code.code(), verifier: request.pkce.verifier, redirectURI: request.redirectURI)
            #expect(grant.grants(OAuthConfiguration.gmailModifyScope))
            let refresh = try #require(grant.refreshToken)

            let direct = e.client(tokens: StaticTokenSource(token: grant.accessToken))
            #expect(try await direct.getProfile().emailAddress == "me@example.com")
            let provider = TokenProvider(refreshToken: refresh, client: e.tokenClient, sleeper: EndToEndSleeper())
            #expect(try await e.client(tokens: provider).listLabels().isEmpty == false)
        }
    }

    @Test("loopback + PKCE: a wrong verifier is rejected with invalid_grant")
    func wrongVerifier() async throws {
        try await withEmulator { e in
            let receiver = try LoopbackReceiver()
            let request = AuthorizationRequest(configuration: e.oauthConfiguration, redirectURI: receiver.redirectURI)
            let code = receiver.startServing(expectedState: request.state)
            _ = try await followRedirect(e, request.url)
            let received = try await code.code()
            let other = PKCE.generate()
            #expect(other.verifier != request.pkce.verifier)
            await #expect(throws: GmailAPIError.logInAgain(.credentialsRevoked)) {
                _ = try await e.tokenClient.exchange(
                    code: received, verifier: other.verifier, redirectURI: request.redirectURI)
            }
            let tokenReplies = await e.requestLog().filter { $0.path == "/token" }.map(\.status)
            #expect(tokenReplies == [400])
        }
    }

    @Test("loopback: a redirect with a foreign state is rejected (stateMismatch)")
    func wrongState() async throws {
        try await withEmulator { e in
            let receiver = try LoopbackReceiver()
            let request = AuthorizationRequest(configuration: e.oauthConfiguration, redirectURI: receiver.redirectURI)
            let code = receiver.startServing(expectedState: request.state)
            let location = try await authorizationRedirect(e, request.url)
            // A forged redirect: same receiver, someone else's state.
            var components = try #require(URLComponents(url: location, resolvingAgainstBaseURL: false))
            #expect(components.queryItems?.first { $0.name == "state" }?.value == request.state)
            components.queryItems = components.queryItems?.map {
                $0.name == "state" ? URLQueryItem(name: "state", value: "forged-state") : $0
            }
            let landing = try await e.http("GET", try #require(components.url))
            #expect(landing.status == 400)
            let outcome: Result<String, LoginFlowError>
            do { outcome = .success(try await code.code()) } catch let error as LoginFlowError {
                outcome = .failure(error)
            }
            #expect(outcome == .failure(.stateMismatch))
        }
    }

    @Test("LoginFlow.run end to end, with presentURL following the redirect")
    func loginFlow() async throws {
        try await withEmulator { e in
            let flow = LoginFlow(tokenClient: e.tokenClient)
            let grant = try await flow.run { url in
                Task { _ = try? await followRedirect(e, url) }
            }
            let refresh = try #require(grant.refreshToken)
            let provider = TokenProvider(refreshToken: refresh, client: e.tokenClient, sleeper: EndToEndSleeper())
            #expect(try await e.client(tokens: provider).getProfile().emailAddress == "me@example.com")
        }
    }

    @Test("LoginFlow.run: the user declines → authorizationDenied")
    func loginDenied() async throws {
        try await withEmulator { e in
            try await e.control("deny-next-authorization")
            let flow = LoginFlow(tokenClient: e.tokenClient)
            do {
                _ = try await flow.run { url in
                    Task { _ = try? await followRedirect(e, url) }
                }
                Issue.record("a declined login must fail")
            } catch let error as LoginFlowError {
                guard case .authorizationDenied = error else {
                    Issue.record("got \(error)")
                    return
                }
            }
        }
    }
}
