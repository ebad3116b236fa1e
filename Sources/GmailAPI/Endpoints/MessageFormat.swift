/// The `format=` of `messages.get`.
public enum MessageFormat: Sendable, Equatable {
    /// Full MIME tree with inline body data.
    case full
    /// Top-level MIME type and headers only; `headers` restricts them (empty = all).
    case metadata(headers: [String])
    /// Ids, labels, snippet, dates: enough to refresh labels of a cached message.
    case minimal
    /// The whole RFC 2822 message, base64url.
    case raw

    /// The query items this format adds (`metadataHeaders` repeated, one per header).
    var queryItems: [(String, String)] {
        switch self {
        case .full: [("format", "full")]
        case .minimal: [("format", "minimal")]
        case .raw: [("format", "raw")]
        case .metadata(let headers): [("format", "metadata")] + headers.map { ("metadataHeaders", $0) }
        }
    }
}
