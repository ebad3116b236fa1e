import Foundation
import GmailAPI
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct LoginFlowTests {
    /// Plays the browser: follows the authorization URL's redirect_uri with a code and the given state.
    static func browser(code: String, state override: String? = nil) -> @Sendable (URL) -> Void {
        { url in
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            let redirect = items.first { $0.name == "redirect_uri" }?.value ?? ""
            let state = override ?? items.first { $0.name == "state" }?.value ?? ""
            // Its own session: the shared one is busy with every other suite running in parallel. The
            // receiver accepts only once the login's task is back on the pool, so the browser waits as
            // long as a busy suite may take; the flow's own result is what the tests check.
            Task {
                let configuration = URLSessionConfiguration.ephemeral
                configuration.timeoutIntervalForRequest = 300
                _ = try? await URLSession(configuration: configuration).data(
                    from: URL(string: "\(redirect)/?state=\(state)&code=\(code)")!)
            }
        }
    }

    /// A token endpoint that checks the PKCE verifier against the challenge it saw in the URL.
    static func tokenEndpoint(challenge: ChallengeBox, scope: String) -> ScriptedTransport {
        ScriptedTransport { request, _ in
            let form = Dictionary(
                uniqueKeysWithValues: request.bodyText.split(separator: "&").map {
                    let pair = $0.split(separator: "=", maxSplits: 1)
                    return (String(pair[0]), String(pair.count > 1 ? pair[1] : "").removingPercentEncoding ?? "")
                })
            guard let verifier = form["code_verifier"], PKCE(verifier: verifier).challenge == challenge.value else {
                return jsonResponse(400, #"{"error":"invalid_grant","error_description":"Invalid code verifier."}"#)
            }
            return jsonResponse(
                200, #"{"access_token":"ya29.A","expires_in":3599,"refresh_token":"1//R","scope":"\#(scope)"}"#)
        }
    }

    @Test("the loopback + PKCE login returns a grant with a refresh token")
    func fullFlow() async throws {
        let challenge = ChallengeBox()
        let transport = Self.tokenEndpoint(challenge: challenge, scope: OAuthConfiguration.gmailModifyScope)
        let flow = LoginFlow(
            tokenClient: OAuthTokenClient(
                configuration: OAuthConfiguration(clientID: "cid", clientSecret: "s"), transport: transport))
        let browser = Self.browser(code: "4-code")
        let grant = try await flow.run { url in
            let value = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first {
                $0.name == "code_challenge"
            }?.value
            challenge.value = value
            browser(url)
        }
        #expect(grant.refreshToken == "1//R")
        #expect(transport.requests.first?.bodyText.contains("code=4-code") == true)
    }

    @Test("a narrower granted scope is refused")
    func narrowScope() async throws {
        let challenge = ChallengeBox()
        let transport = Self.tokenEndpoint(
            challenge: challenge, scope: "https://www.googleapis.com/auth/gmail.readonly")
        let flow = LoginFlow(
            tokenClient: OAuthTokenClient(configuration: OAuthConfiguration(clientID: "cid"), transport: transport))
        let browser = Self.browser(code: "c")
        await #expect(throws: GmailAPIError.logInAgain(.scopeNotGranted(missing: OAuthConfiguration.gmailModifyScope)))
        {
            try await flow.run { url in
                challenge.value =
                    URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first {
                        $0.name == "code_challenge"
                    }?.value
                browser(url)
            }
        }
    }

    @Test("a redirect with a foreign state never reaches the token endpoint")
    func foreignState() async throws {
        let transport = ScriptedTransport(queue: [])
        let flow = LoginFlow(
            tokenClient: OAuthTokenClient(configuration: OAuthConfiguration(clientID: "cid"), transport: transport))
        await #expect(throws: LoginFlowError.stateMismatch) {
            try await flow.run(presentURL: Self.browser(code: "c", state: "forged"))
        }
        #expect(transport.requests.isEmpty)
    }
}

/// The code challenge the "browser" saw, shared with the fake token endpoint.
final class ChallengeBox: Sendable {
    private let state = Mutex<String?>(nil)
    var value: String? {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}
