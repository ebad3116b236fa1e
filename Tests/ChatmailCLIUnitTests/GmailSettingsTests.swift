import Foundation
import Testing

@testable import ChatmailCLI

@Suite struct GmailSettingsTests {
    @Test("Google's production endpoints by default")
    func defaults() async throws {
        let settings = try GmailSettings.resolve(environment: [:])
        #expect(settings.apiURL.absoluteString == "https://gmail.googleapis.com")
        #expect(settings.authorizationURL.absoluteString == "https://accounts.google.com/o/oauth2/v2/auth")
        #expect(settings.tokenURL.absoluteString == "https://oauth2.googleapis.com/token")
        #expect(settings.clientID == nil && settings.clientSecret == nil)
    }

    @Test("the environment points chatmail at the emulator; options win for client credentials")
    func overrides() async throws {
        let environment = [
            "CHATMAIL_GMAIL_API_URL": "http://127.0.0.1:4567",
            "CHATMAIL_OAUTH_AUTH_URL": "http://127.0.0.1:4567/o/oauth2/v2/auth",
            "CHATMAIL_OAUTH_TOKEN_URL": "http://127.0.0.1:4567/token", "CHATMAIL_CLIENT_ID": "env-id",
            "CHATMAIL_CLIENT_SECRET": "env-secret",
        ]
        let settings = try GmailSettings.resolve(clientIDOption: "flag-id", environment: environment)
        #expect(settings.apiURL.absoluteString == "http://127.0.0.1:4567")
        #expect(settings.tokenURL.absoluteString == "http://127.0.0.1:4567/token")
        #expect(settings.clientID == "flag-id")
        #expect(settings.clientSecret == "env-secret")
    }

    @Test("a malformed URL is reported by variable name", arguments: ["not a url", "ftp://x.example", "http://"])
    func invalid(value: String) {
        #expect(throws: GmailSettings.Problem.invalidURL(variable: "CHATMAIL_OAUTH_TOKEN_URL", value: value)) {
            try GmailSettings.resolve(environment: ["CHATMAIL_OAUTH_TOKEN_URL": value])
        }
    }
}
