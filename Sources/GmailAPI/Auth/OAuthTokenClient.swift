import Foundation

/// What the token endpoint returns. Its `description` hides the tokens, so it can be logged.
public struct TokenGrant: Sendable, Equatable, CustomStringConvertible {
    public var accessToken: String
    /// Seconds until the access token expires.
    public var expiresIn: Int
    /// Sent on the code exchange; usually absent on refresh (keep the old one then).
    public var refreshToken: String?
    /// Space-separated scopes actually granted: can be narrower than requested, since the user may untick a scope.
    public var scope: String?

    public init(accessToken: String, expiresIn: Int, refreshToken: String? = nil, scope: String? = nil) {
        self.accessToken = accessToken
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.scope = scope
    }

    public var description: String {
        "TokenGrant(accessToken: <redacted>, expiresIn: \(expiresIn), refreshToken: \(refreshToken == nil ? "nil" : "<redacted>"), scope: \(scope ?? "nil"))"
    }

    /// Whether every scope in `required` was granted.
    public func grants(_ required: String) -> Bool {
        guard let scope else { return true }  // Google omits `scope` only when it granted what was asked.
        return scope.split(separator: " ").contains { $0 == required }
    }
}

/// Talks to the OAuth token endpoint: code exchange and refresh.
public struct OAuthTokenClient: Sendable {
    public let configuration: OAuthConfiguration
    private let transport: any HTTPTransport
    private let timeoutSeconds: Int

    public init(
        configuration: OAuthConfiguration, transport: any HTTPTransport, timeoutSeconds: Int = RequestTimeouts().small
    ) {
        self.configuration = configuration
        self.transport = transport
        self.timeoutSeconds = timeoutSeconds
    }

    /// Exchanges an authorization code (with its PKCE verifier) for tokens.
    /// - Throws: `.logInAgain(.credentialsRevoked)` for `invalid_grant` (code reused/expired, verifier mismatch),
    ///   `.logInAgain(.oauthRejected)` for configuration errors, `.retryLater(.server)`/`.retryLater(.transport)` when Google is unreachable.
    public func exchange(code: String, verifier: String, redirectURI: String) async throws(GmailAPIError) -> TokenGrant
    {
        var form = [
            ("grant_type", "authorization_code"), ("code", code), ("code_verifier", verifier),
            ("redirect_uri", redirectURI),
        ]
        form.append(("client_id", configuration.clientID))
        if let secret = configuration.clientSecret { form.append(("client_secret", secret)) }
        return try await post(form)
    }

    /// Trades a refresh token for a new access token.
    /// - Throws: `.logInAgain(.credentialsRevoked)` when Google answers `invalid_grant` (revoked, expired, password changed).
    public func refresh(refreshToken: String) async throws(GmailAPIError) -> TokenGrant {
        var form = [
            ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", configuration.clientID),
        ]
        if let secret = configuration.clientSecret { form.append(("client_secret", secret)) }
        return try await post(form)
    }

    private struct Body: Decodable {
        var accessToken: String
        var expiresIn: Int?
        var refreshToken: String?
        var scope: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiresIn = "expires_in"
            case refreshToken = "refresh_token"
            case scope
        }
    }

    private func post(_ form: [(String, String)]) async throws(GmailAPIError) -> TokenGrant {
        let request = HTTPRequest(
            method: "POST", url: configuration.tokenURL,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: Data(FormEncoding.encode(form).utf8), timeoutSeconds: timeoutSeconds)
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw .retryLater(.transport(description: Self.describe(error)))
        }
        guard response.isSuccess else {
            let body = try? JSONDecoder().decode(OAuthErrorBody.self, from: response.body)
            switch (response.status, body?.error) {
            case (_, "invalid_grant"?): throw .logInAgain(.credentialsRevoked)
            case (500...599, _): throw .retryLater(.server(status: response.status))
            case (_, let code?): throw .logInAgain(.oauthRejected(code: code))
            case (_, nil): throw .giveUp(.unexpectedStatus(response.status))
            }
        }
        do {
            let body = try JSONDecoder().decode(Body.self, from: response.body)
            return TokenGrant(
                accessToken: body.accessToken, expiresIn: body.expiresIn ?? 3600, refreshToken: body.refreshToken,
                scope: body.scope)
        } catch {
            throw .giveUp(.decoding(description: "the token endpoint's answer has no access_token"))
        }
    }

    /// A short description of a transport failure that carries no request data.
    static func describe(_ error: any Error) -> String {
        if let urlError = error as? URLError { return "network error \(urlError.code.rawValue)" }
        return String(describing: type(of: error))
    }
}
