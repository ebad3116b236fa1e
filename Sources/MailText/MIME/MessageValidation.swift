import Foundation

/// Decides when an input is not an email message at all.
public enum MessageValidation {
    /// A one-line reason when `bytes` cannot be a message: empty, binary, or without any header field.
    public static func rejection(of message: ParsedMessage, bytes: [UInt8]) -> String? {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return "the input is empty" }
        // A message with header fields is mail, however damaged (stray NULs are removed from its text
        // later). Without any, NUL bytes mean an image, an archive or other binary data.
        if message.root.headers.fields.isEmpty {
            return bytes.prefix(4096).contains(0) ? "binary data, not an email message" : "no header fields: not an email message"
        }
        return nil
    }
}
