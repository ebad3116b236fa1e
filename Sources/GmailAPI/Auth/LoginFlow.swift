import Foundation

/// The whole interactive login: listen on the loopback port, show the user the
/// authorization URL, wait for the redirect, exchange the code, and check the granted scope.
public struct LoginFlow: Sendable {
    public let tokenClient: OAuthTokenClient
    private let random: any RandomSource

    public init(tokenClient: OAuthTokenClient, random: any RandomSource = SystemRandomSource()) {
        self.tokenClient = tokenClient
        self.random = random
    }

    /// Runs the login.
    /// - Parameters:
    ///   - presentURL: shows the authorization URL (print it, open a browser); called once, after the
    ///     loopback listener is answering on its own thread, so the URL appearing is the signal that a
    ///     browser may follow it.
    ///   - loginHint: the expected account address, if known.
    /// - Returns: the grant, with a refresh token.
    /// - Throws: ``LoginFlowError`` when the browser part does not finish; ``GmailAPIError`` for the code
    ///   exchange and its result: `.logInAgain(.credentialsRevoked)` (code rejected),
    ///   `.logInAgain(.scopeNotGranted)`, `.logInAgain(.oauthRejected)`.
    public func run(loginHint: String? = nil, timeoutSeconds: Int = 300, presentURL: @Sendable (URL) -> Void)
        async throws -> TokenGrant
    {
        let receiver = try LoopbackReceiver()
        let request = AuthorizationRequest(
            configuration: tokenClient.configuration, redirectURI: receiver.redirectURI, loginHint: loginHint,
            random: random)
        let pending = receiver.startServing(expectedState: request.state, timeoutSeconds: timeoutSeconds)
        presentURL(request.url)
        let code = try await pending.code()
        let grant = try await tokenClient.exchange(
            code: code, verifier: request.pkce.verifier, redirectURI: request.redirectURI)
        for scope in tokenClient.configuration.scopes where !grant.grants(scope) {
            throw GmailAPIError.logInAgain(.scopeNotGranted(missing: scope))
        }
        guard grant.refreshToken != nil else {
            throw GmailAPIError.logInAgain(.oauthRejected(code: "no refresh_token in the answer"))
        }
        return grant
    }
}
