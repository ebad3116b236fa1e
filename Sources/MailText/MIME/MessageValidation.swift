import Foundation

/// Decides when an input is not an email message at all.
///
/// A message starts with a header block whose first line is a field (`Name: value`, the name printable
/// ASCII without spaces; ``HeaderBlock`` finds no header block otherwise), and among those fields is at
/// least one that every kind of email carries in practice: an origination, destination, identification,
/// informational, trace or resent field of the message format, or a MIME field. Lines of `name:value`
/// text that are not mail (`/etc/passwd`, a configuration file) pass the first test but not the second.
/// Header-only checks keep damaged mail: a message with a From line and a garbled rest is still mail.
public enum MessageValidation {
    /// Why an input is not an email message.
    public enum Rejection: Error, Sendable, Equatable, CustomStringConvertible {
        /// Nothing but whitespace.
        case empty
        /// No header block, and NUL bytes: an image, an archive or other binary data.
        case binary
        /// The first line is not a header field.
        case noHeaderFields
        /// Header-like lines, none of them a field of email.
        case noMessageHeaderFields

        /// Completes "… is not an email message: ".
        public var description: String {
            switch self {
            case .empty: "it is empty"
            case .binary: "it is binary data"
            case .noHeaderFields: "it has no header fields"
            case .noMessageHeaderFields:
                "it has no email header (From, To, Date, Subject, Message-ID, Received, Content-Type…)"
            }
        }
    }

    /// Fields whose presence makes a header block a message's (lowercased): those the message format
    /// defines for a message as a whole, and MIME's. Every message of the test corpus has at least one.
    public static let messageFieldNames: Set<String> = [
        "from", "sender", "reply-to", "to", "cc", "bcc", "date", "subject", "message-id", "in-reply-to",
        "references", "comments", "keywords", "received", "return-path", "resent-from", "resent-sender",
        "resent-date", "resent-to", "resent-cc", "resent-bcc", "resent-message-id", "mime-version",
        "content-type", "content-transfer-encoding",
    ]

    /// Why `message`, parsed from `bytes`, is not an email message; `nil` when it is one.
    public static func rejection(of message: ParsedMessage, bytes: [UInt8]) -> Rejection? {
        rejection(of: message.root.headers, bytes: bytes)
    }

    /// Why `bytes` are not an email message; `nil` when they are one. Reads the header block only.
    public static func rejection(of bytes: [UInt8]) -> Rejection? {
        rejection(of: HeaderBlock.parse(bytes[...]).fields, bytes: bytes)
    }

    static func rejection(of headers: HeaderFields, bytes: [UInt8]) -> Rejection? {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return .empty }
        // Without a header block, NUL bytes mean binary data; with one, the input is judged by its fields
        // (stray NULs in a message's text are removed later).
        if headers.fields.isEmpty { return bytes.prefix(4096).contains(0) ? .binary : .noHeaderFields }
        guard headers.fields.contains(where: { messageFieldNames.contains($0.name.lowercased()) }) else {
            return .noMessageHeaderFields
        }
        return nil
    }
}
