/// How long each kind of call may go without progress before it is abandoned and retried, in whole
/// seconds (FoundationNetworking truncates fractions, so 0.5 s would fire at once).
///
/// The one place these numbers live. FoundationNetworking's timer is an *idle* timer: it restarts
/// whenever bytes arrive, so it bounds the silence of a call, not its length, and it also covers
/// connecting (no separate connect timeout is exposed). A call that is moving data never times out;
/// the figures are therefore sized from how long Gmail may think before its first byte, plus the
/// slowest expected gap between chunks of the answer:
///
/// | Call                                                     | Answer            | Timeout |
/// |----------------------------------------------------------|-------------------|---------|
/// | profile, labels, send-as, one list or history page,      | ≤ ~100 KB JSON    | 10 s    |
/// | modify, trash, batchModify, token refresh                |                   |         |
/// | one message (`messages.get`)                             | ≤ ~50 MB (raw)    | 20 s    |
/// | a batch of up to 100 `messages.get`                      | ≤ a few MB        | 30 s    |
/// | an attachment                                            | ≤ 35 MB (base64)  | 45 s    |
/// | `messages.send` (the request carries up to 35 MB)        | ~200 B JSON       | 60 s    |
///
/// A send waits longest for its first byte: Gmail answers once it has taken the message on. It is also
/// the costliest call to abandon, since an abandoned send has an unknown outcome and is not retried.
/// A batch waits long for its first byte: Gmail runs its inner calls before answering. Short
/// timeouts matter because a call that never answers holds its slot until the timer fires; a
/// connection that is reset fails at once regardless (see `URLSessionTransport`).
public struct RequestTimeouts: Sendable, Equatable {
    /// Small JSON calls and the OAuth token refresh.
    public var small: Int
    /// One message.
    public var message: Int
    /// A multipart batch of message reads.
    public var batch: Int
    /// One attachment body.
    public var attachment: Int
    /// One `messages.send`.
    public var send: Int

    public init(small: Int = 10, message: Int = 20, batch: Int = 30, attachment: Int = 45, send: Int = 60) {
        self.small = max(1, small)
        self.message = max(1, message)
        self.batch = max(1, batch)
        self.attachment = max(1, attachment)
        self.send = max(1, send)
    }

    /// The same timeout for every call.
    public static func uniform(_ seconds: Int) -> RequestTimeouts {
        RequestTimeouts(small: seconds, message: seconds, batch: seconds, attachment: seconds, send: seconds)
    }

    /// The timeout for one call of `endpoint`.
    public func seconds(for endpoint: GmailEndpoint) -> Int {
        switch endpoint {
        case .getProfile, .listLabels, .listSendAs, .listMessages, .listHistory, .modify, .batchModify, .trash,
            .untrash:
            small
        case .getMessage: message
        case .getAttachment: attachment
        case .batch: batch
        case .sendMessage: send
        }
    }
}
