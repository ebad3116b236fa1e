/// Turns an email address into the key chatmail uses for identity.
///
/// Identity keys decide which conversation a message belongs to, so two spellings of one mailbox must
/// give the same key: case never matters, and on Gmail the dots and `+tag` of the local part are ignored
/// and `googlemail.com` is `gmail.com`. Other domains keep their dots, because for them a dot is
/// significant. The key is for identity only; the original spelling is kept for display.
///
/// ```swift
/// EmailNormalizer.identityKey(for: " John.Doe+news@GoogleMail.com ") // "johndoe@gmail.com"
/// EmailNormalizer.identityKey(for: "First.Last@Example.org")         // "first.last@example.org"
/// ```
public enum EmailNormalizer {
    /// Domains whose local parts ignore dots and `+tags`.
    static let gmailDomains: Set<String> = ["gmail.com", "googlemail.com"]

    /// Returns the identity key of `address`.
    ///
    /// Surrounding whitespace and angle brackets are trimmed. A value without `@` is only trimmed and
    /// lowercased, so that even broken headers map to a stable key.
    public static func identityKey(for address: String) -> String {
        if let key = asciiIdentityKey(for: address) { return key }
        var trimmed = Substring(address).trimmingWhitespace()
        if trimmed.first == "<" && trimmed.last == ">" && trimmed.count >= 2 {
            trimmed = trimmed.dropFirst().dropLast().trimmingWhitespace()
        }
        let lowered = trimmed.lowercased()
        // The domain starts after the LAST @: a quoted local part may itself contain one.
        guard let at = lowered.lastIndex(of: "@") else { return lowered }
        let local = lowered[..<at]
        let domain = lowered[lowered.index(after: at)...]
        guard gmailDomains.contains(String(domain)) else { return lowered }
        let untagged = local.prefix { $0 != "+" }
        return untagged.filter { $0 != "." } + "@gmail.com"
    }
}

extension EmailNormalizer {
    /// The same rules on bytes, for the common case of a plain ASCII address with nothing to trim:
    /// normalization runs for every address of every stored message, so it must be cheap.
    static func asciiIdentityKey(for address: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(address.utf8.count)
        var at: Int?
        for byte in address.utf8 {
            // Whitespace, brackets, quotes and non-ASCII take the general path.
            guard byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "<"), byte != UInt8(ascii: ">"),
                byte != UInt8(ascii: "\"")
            else { return nil }
            if byte == UInt8(ascii: "@") { at = bytes.count }
            bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
        }
        guard let at else { return String(decoding: bytes, as: UTF8.self) }
        let domain = bytes[(at + 1)...]
        guard domain.elementsEqual("gmail.com".utf8) || domain.elementsEqual("googlemail.com".utf8) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var local = bytes[..<at].prefix { $0 != UInt8(ascii: "+") }.filter { $0 != UInt8(ascii: ".") }
        local.append(contentsOf: "@gmail.com".utf8)
        return String(decoding: local, as: UTF8.self)
    }
}

extension Substring {
    /// The substring without leading and trailing whitespace (including newlines).
    func trimmingWhitespace() -> Substring {
        var result = self
        while let first = result.first, first.isWhitespace { result = result.dropFirst() }
        while let last = result.last, last.isWhitespace { result = result.dropLast() }
        return result
    }
}
