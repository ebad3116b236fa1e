import Foundation

/// Why an ``OutgoingMessage`` cannot be written as RFC 5322 bytes.
///
/// Each case names input that would make a malformed or dangerous message (a line break in an address would
/// start a new header), so the message is refused rather than repaired behind the user's back.
public enum ComposeError: Error, Sendable, Equatable {
    /// An address is empty, lacks `local@domain`, or holds a character that could break the header or add
    /// a recipient (a control character, an angle bracket, or whitespace or an RFC 5322 special outside a
    /// quoted local part).
    case invalidAddress(String)
    /// A message id (Message-ID, In-Reply-To, References) is empty or holds whitespace, a control character
    /// or an angle bracket inside its brackets.
    case invalidMessageID(String)
    /// To, Cc and Bcc are all empty: there is nobody to deliver to.
    case noRecipients
}

extension ComposeError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .invalidAddress(let address):
            "\(Self.quoted(address)) is not a mail address that can be sent to."
        case .invalidMessageID(let id):
            "\(Self.quoted(id)) is not a valid message id."
        case .noRecipients:
            "The message has no recipients."
        }
    }

    /// The offending text with control characters made visible, so an error message cannot itself carry a
    /// line break or an escape sequence to the terminal.
    private static func quoted(_ text: String) -> String {
        "\"" + String(String.UnicodeScalarView(text.unicodeScalars.flatMap(visible))) + "\""
    }

    private static func visible(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        guard scalar.properties.generalCategory == .control else { return [scalar] }
        return Array(scalar.escaped(asASCII: true).unicodeScalars)
    }
}
