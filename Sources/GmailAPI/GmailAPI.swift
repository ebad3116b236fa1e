/// The Gmail REST client, by folder:
///
/// - `Transport/`: `HTTPTransport` (the network seam), `URLSessionTransport`, `Sleeper` and `RandomSource`
///   (injected time and randomness), query/form encoding.
/// - `Wire/`: Codable models with Gmail's field names; 64-bit values from strings, absent arrays as empty.
///   The message payload (`MessagePart`) and `Base64URL` live in `GmailModel`, shared with the text
///   pipeline and the emulator.
/// - `Endpoints/`: `GmailClient` and its typed calls, `ResponseClassifier`, `RetryPolicy`.
/// - `Batch/`: multipart batch requests and responses and `getMessages(ids:)`.
/// - `Pacing/`: `QuotaPacer` (token bucket in quota units with AIMD) and `ConcurrencyLimiter`.
/// - `Auth/`: PKCE, the authorization URL, `LoopbackReceiver`, `OAuthTokenClient`, `TokenProvider`,
///   `LoginFlow`, `CredentialStore`.
/// - `Errors/`: `GmailAPIError` (sorted by the caller's decision), `LoginFlowError`, `CredentialStoreError`;
///   no message contains a token.
public enum GmailAPIModule {
    /// Gmail's production base URL; `CHATMAIL_GMAIL_API_URL` overrides it (the emulator's URL).
    public static let defaultBaseURL = "https://gmail.googleapis.com"
}
