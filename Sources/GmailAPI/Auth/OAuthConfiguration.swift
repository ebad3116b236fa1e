import Foundation

/// Where and as whom chatmail signs in. Every URL is configurable so the emulator can
/// stand in for Google (`CHATMAIL_OAUTH_AUTH_URL`, `CHATMAIL_OAUTH_TOKEN_URL`).
public struct OAuthConfiguration: Sendable, Equatable {
    /// The only scope chatmail asks for: it covers every read and every queued action.
    public static let gmailModifyScope = "https://www.googleapis.com/auth/gmail.modify"
    public static let defaultAuthorizationURL = URL(string: "https://accounts.google.com/o/oauth2/v2/auth")!
    public static let defaultTokenURL = URL(string: "https://oauth2.googleapis.com/token")!

    public var authorizationURL: URL
    public var tokenURL: URL
    /// The Desktop-app client id.
    public var clientID: String
    /// Desktop clients' secret is not confidential, but Google's token endpoint expects it.
    public var clientSecret: String?
    public var scopes: [String]

    public init(
        clientID: String, clientSecret: String? = nil, authorizationURL: URL = Self.defaultAuthorizationURL,
        tokenURL: URL = Self.defaultTokenURL, scopes: [String] = [Self.gmailModifyScope]
    ) {
        self.authorizationURL = authorizationURL
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scopes = scopes
    }
}
