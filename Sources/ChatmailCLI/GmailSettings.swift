import Foundation

/// Where chatmail talks to Gmail and Google's OAuth server, and as which OAuth client (cli.md,
/// "Locations and endpoints"): an option wins, then the environment, then Google's production values.
///
/// The emulator and tests point all of these at 127.0.0.1; a production build changes nothing here.
struct GmailSettings: Equatable {
    var apiURL: URL
    var authorizationURL: URL
    var tokenURL: URL
    var clientID: String?
    var clientSecret: String?

    static let defaultAPIURL = "https://gmail.googleapis.com"
    static let defaultAuthorizationURL = "https://accounts.google.com/o/oauth2/v2/auth"
    static let defaultTokenURL = "https://oauth2.googleapis.com/token"

    /// Errors in the settings themselves, reported before any network call.
    enum Problem: Error, Equatable {
        case invalidURL(variable: String, value: String)
    }

    static func resolve(
        clientIDOption: String? = nil, clientSecretOption: String? = nil, environment: [String: String]
    ) throws(Problem) -> GmailSettings {
        func url(_ variable: String, default fallback: String) throws(Problem) -> URL {
            let value = environment[variable].flatMap { $0.isEmpty ? nil : $0 } ?? fallback
            guard let url = URL(string: value), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
                  url.host != nil
            else { throw .invalidURL(variable: variable, value: value) }
            return url
        }
        return GmailSettings(
            apiURL: try url("CHATMAIL_GMAIL_API_URL", default: defaultAPIURL),
            authorizationURL: try url("CHATMAIL_OAUTH_AUTH_URL", default: defaultAuthorizationURL),
            tokenURL: try url("CHATMAIL_OAUTH_TOKEN_URL", default: defaultTokenURL),
            clientID: clientIDOption ?? environment["CHATMAIL_CLIENT_ID"].flatMap { $0.isEmpty ? nil : $0 },
            clientSecret: clientSecretOption ?? environment["CHATMAIL_CLIENT_SECRET"].flatMap { $0.isEmpty ? nil : $0 })
    }
}

extension GmailSettings.Problem: LocalizedError {
    var errorDescription: String? {
        switch self {
        case .invalidURL(let variable, let value):
            "\(variable) is not an http(s) URL (\(value)); fix or unset it."
        }
    }
}
