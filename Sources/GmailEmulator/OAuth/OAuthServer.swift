import Digest
import Foundation
import GmailModel

/// Google's OAuth endpoints for a Desktop client: auto-approving authorisation,
/// PKCE-checked code exchange, refresh and revocation, with a configurable access-token lifetime.
public actor OAuthServer {
    public struct Settings: Sendable {
        public var clientId: String
        /// Access-token lifetime in seconds.
        public var tokenLifetime: Int
        /// Tokens accepted without OAuth (never expire unless expired through the control API).
        public var staticAccessTokens: Set<String>
        public var scope = "https://www.googleapis.com/auth/gmail.modify"

        public init(
            clientId: String = "emulator-client.apps.googleusercontent.com", tokenLifetime: Int = 3600,
            staticAccessTokens: Set<String> = ["emu-static-token"]
        ) {
            self.clientId = clientId
            self.tokenLifetime = tokenLifetime
            self.staticAccessTokens = staticAccessTokens
        }
    }

    private struct PendingCode {
        var challenge: String
        var redirectURI: String
    }

    private let settings: Settings
    private var random: SeededRandom
    private var codes: [String: PendingCode] = [:]
    private var accessTokens: [String: Date] = [:]
    private var refreshTokens: Set<String> = []
    private var staticTokens: Set<String>
    /// Where issued refresh tokens and revocations are written, when logins must survive a restart.
    private var journal: MailboxJournal?
    /// When set, the authorisation endpoint answers `error=access_denied` (the user declined).
    public var denyNextAuthorization = false

    public init(settings: Settings, seed: UInt64) {
        self.settings = settings
        self.random = SeededRandom(seed: seed ^ 0x0A07)
        self.staticTokens = settings.staticAccessTokens
    }

    public func setDenyNextAuthorization(_ deny: Bool) { denyNextAuthorization = deny }

    /// Whether `token` is a live access token.
    public func isValid(accessToken token: String) -> Bool {
        if staticTokens.contains(token) { return true }
        guard let expiry = accessTokens[token] else { return false }
        return expiry > Date()
    }

    /// Expires every access token at once (control API), so 401 → refresh paths run without sleeping.
    public func expireAccessTokens() {
        for key in accessTokens.keys { accessTokens[key] = .distantPast }
        staticTokens.removeAll()
    }

    /// Issues a token pair directly (tests and the control API).
    public func issueTokens() -> (access: String, refresh: String) {
        let refresh = "1//emu-rt-" + token()
        refreshTokens.insert(refresh)
        journal?.append(.refreshTokenIssued(refresh))
        return (newAccessToken(), refresh)
    }

    /// Accepts a refresh token issued by an earlier run (journal replay).
    func accept(refreshToken: String) { refreshTokens.insert(refreshToken) }

    /// Forgets a token revoked in an earlier run (journal replay).
    func forget(token: String) { refreshTokens.remove(token) }

    /// Writes every later refresh token and revocation to `journal`.
    func record(to journal: MailboxJournal) { self.journal = journal }

    private func token() -> String { String(random.next(), radix: 36) + String(random.next(), radix: 36) }

    private func newAccessToken() -> String {
        let access = "emu-at-" + token()
        accessTokens[access] = Date().addingTimeInterval(TimeInterval(settings.tokenLifetime))
        return access
    }

    // MARK: Endpoints

    /// `GET /o/oauth2/v2/auth`: validates and redirects to the loopback URI with `code` and `state`.
    func authorize(_ request: EmulatorRequest) -> EmulatorResponse {
        let p = { (name: String) in request.param(name) }
        guard p("client_id") == settings.clientId else {
            return html(400, "Error 401: invalid_client. The OAuth client was not found.")
        }
        guard let redirect = p("redirect_uri"), let url = URL(string: redirect), url.scheme == "http",
            ["127.0.0.1", "localhost", "[::1]", "::1"].contains(url.host ?? "")
        else {
            return html(400, "Error 400: invalid_request. redirect_uri must be a loopback address.")
        }
        guard p("response_type") == "code", let challenge = p("code_challenge"), p("code_challenge_method") == "S256",
            !challenge.isEmpty
        else {
            return html(400, "Error 400: invalid_request. response_type=code and an S256 code_challenge are required.")
        }
        let state = p("state").map { "&state=" + escape($0) } ?? ""
        let separator = redirect.contains("?") ? "&" : "?"
        if denyNextAuthorization {
            denyNextAuthorization = false
            return EmulatorResponse(
                status: 302, headers: [("Location", redirect + separator + "error=access_denied" + state)])
        }
        let code = "4/emu-code-" + token()
        codes[code] = PendingCode(challenge: challenge, redirectURI: redirect)
        let scope = "&scope=" + escape(p("scope") ?? settings.scope)
        return EmulatorResponse(
            status: 302, headers: [("Location", redirect + separator + "code=" + escape(code) + state + scope)])
    }

    /// `POST /token`: authorization_code (PKCE S256) and refresh_token grants.
    func token(_ request: EmulatorRequest) -> EmulatorResponse {
        let form = request.form
        let f = { (name: String) in form.first { $0.0 == name }?.1 }
        guard f("client_id") == settings.clientId else {
            return oauthError(401, "invalid_client", "The OAuth client was not found.")
        }
        switch f("grant_type") {
        case "authorization_code":
            guard let code = f("code"), let verifier = f("code_verifier") else {
                return oauthError(400, "invalid_request", "Missing required parameter: code or code_verifier")
            }
            guard let pending = codes.removeValue(forKey: code) else {
                return oauthError(400, "invalid_grant", "Malformed auth code.")
            }
            let computed = Base64URL.encode(SHA256.digest(of: Array(verifier.utf8)), padded: false)
            guard computed == pending.challenge, f("redirect_uri") == nil || f("redirect_uri") == pending.redirectURI
            else {
                return oauthError(400, "invalid_grant", "Bad Request")
            }
            let (access, refresh) = issueTokens()
            return .json(
                .object([
                    ("access_token", .string(access)), ("expires_in", .int(Int64(settings.tokenLifetime))),
                    ("refresh_token", .string(refresh)), ("scope", .string(settings.scope)),
                    ("token_type", .string("Bearer")),
                ]))
        case "refresh_token":
            guard let refresh = f("refresh_token"), refreshTokens.contains(refresh) else {
                return oauthError(400, "invalid_grant", "Token has been expired or revoked.")
            }
            return .json(
                .object([
                    ("access_token", .string(newAccessToken())), ("expires_in", .int(Int64(settings.tokenLifetime))),
                    ("scope", .string(settings.scope)), ("token_type", .string("Bearer")),
                ]))
        default:
            return oauthError(400, "unsupported_grant_type", "Invalid grant_type: \(f("grant_type") ?? "")")
        }
    }

    /// `POST /revoke`: revokes an access or refresh token (form field or query `token`).
    func revoke(_ request: EmulatorRequest) -> EmulatorResponse {
        let token = request.form.first { $0.0 == "token" }?.1 ?? request.param("token") ?? ""
        if refreshTokens.remove(token) != nil {
            journal?.append(.tokenRevoked(token))
            return .json(.object([]))
        }
        if accessTokens.removeValue(forKey: token) != nil {
            return .json(.object([]))
        }
        return oauthError(400, "invalid_token", "Token expired or revoked")
    }

    /// `POST /device/code`: Gmail scopes are never allowed in the device flow, as at Google.
    func deviceCode(_ request: EmulatorRequest) -> EmulatorResponse {
        let scope = request.form.first { $0.0 == "scope" }?.1 ?? ""
        return oauthError(400, "invalid_scope", "Invalid device flow scope: \(scope)")
    }

    private func oauthError(_ status: Int, _ code: String, _ description: String) -> EmulatorResponse {
        .json(.object([("error", .string(code)), ("error_description", .string(description))]), status: status)
    }

    private func html(_ status: Int, _ text: String) -> EmulatorResponse {
        EmulatorResponse(
            status: status, headers: [("Content-Type", "text/html; charset=utf-8")],
            body: Array("<html><body><p>\(text)</p></body></html>".utf8))
    }

    private func escape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
