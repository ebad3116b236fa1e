import Foundation

/// Where chatmail talks to Gmail and Google's OAuth server, and as which OAuth client: an option wins,
/// then the environment, then the config file's `[gmail]` section, then Google's production values.
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

    /// The settings from the options, then `environment`, then the config file's values (`file`,
    /// already checked when the file was read), then Google's.
    static func resolve(
        clientIDOption: String? = nil, clientSecretOption: String? = nil, environment: [String: String],
        file: ChatmailConfig.Gmail = .init()
    ) throws(Problem) -> GmailSettings {
        func url(_ variable: String, file: URL?, default fallback: String) throws(Problem) -> URL {
            guard let value = environment[variable].flatMap({ $0.isEmpty ? nil : $0 }) else {
                return file ?? URL(string: fallback)!
            }
            guard let url = httpURL(value) else { throw .invalidURL(variable: variable, value: value) }
            return url
        }
        func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        return GmailSettings(
            apiURL: try url("CHATMAIL_GMAIL_API_URL", file: file.apiURL, default: defaultAPIURL),
            authorizationURL: try url(
                "CHATMAIL_OAUTH_AUTH_URL", file: file.authorizationURL, default: defaultAuthorizationURL),
            tokenURL: try url("CHATMAIL_OAUTH_TOKEN_URL", file: file.tokenURL, default: defaultTokenURL),
            clientID: clientIDOption ?? variable("CHATMAIL_CLIENT_ID") ?? file.clientID,
            clientSecret: clientSecretOption ?? variable("CHATMAIL_CLIENT_SECRET") ?? file.clientSecret)
    }

    /// `text` as an http(s) URL with a host, the only kind chatmail can talk to; `nil` otherwise.
    static func httpURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
            url.host != nil
        else { return nil }
        return url
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
