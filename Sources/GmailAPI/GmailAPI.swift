/// The Gmail REST client (issue 4): transport, OAuth, typed endpoints, batch requests, retries and quota
/// pacing. This file only names the module until its parts land.
public enum GmailAPIModule {
    /// Gmail's production base URL; `CHATMAIL_GMAIL_API_URL` overrides it (cli.md).
    public static let defaultBaseURL = "https://gmail.googleapis.com"
}
