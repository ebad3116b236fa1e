import Foundation

/// The browser half of the loopback flow: the URL to open, and the values to check
/// when the browser comes back.
public struct AuthorizationRequest: Sendable {
    public let pkce: PKCE
    /// Random; the redirect must carry it back unchanged.
    public let state: String
    /// `http://127.0.0.1:<port>`, identical in the authorization URL and the code exchange.
    public let redirectURI: String
    public let url: URL

    /// - Parameters:
    ///   - loginHint: the expected account address, if known.
    public init(
        configuration: OAuthConfiguration, redirectURI: String, loginHint: String? = nil,
        random: any RandomSource = SystemRandomSource()
    ) {
        self.pkce = PKCE.generate(random: random)
        self.state = String((0..<32).map { _ in PKCE.alphabet[random.below(62)] })
        self.redirectURI = redirectURI
        var items: [(String, String)] = [
            ("response_type", "code"),
            ("client_id", configuration.clientID),
            ("redirect_uri", redirectURI),
            ("scope", configuration.scopes.joined(separator: " ")),
            ("code_challenge", pkce.challenge),
            ("code_challenge_method", pkce.method),
            ("state", state),
            ("access_type", "offline"),
            // Forces a fresh refresh token even when the user consented before.
            ("prompt", "consent"),
        ]
        if let loginHint { items.append(("login_hint", loginHint)) }
        var text = configuration.authorizationURL.absoluteString
        text += (text.contains("?") ? "&" : "?") + FormEncoding.encode(items)
        guard let url = URL(string: text) else {
            preconditionFailure("the authorization URL built from a valid base URL must parse")
        }
        self.url = url
    }
}
