import Foundation

/// Decides when an input is not an email message at all.
public enum MessageValidation {
    /// A one-line reason when `bytes` cannot be a message: empty, binary, or without any header field.
    public static func rejection(of message: ParsedMessage, bytes: [UInt8]) -> String? {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return "the input is empty" }
        // Mail is text; NUL bytes near the start mean an image, an archive or other binary data.
        if bytes.prefix(4096).contains(0) { return "binary data, not an email message" }
        if message.root.headers.fields.isEmpty { return "no header fields: not an email message" }
        return nil
    }
}
