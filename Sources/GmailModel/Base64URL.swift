import ExtrasBase64

/// base64url (RFC 4648 §5): the `-`/`_` alphabet Gmail uses for `raw`, `body.data` and attachment
/// bodies, and OAuth uses for the PKCE challenge.
///
/// Gmail pads its data but does not document that it does, so decoding takes either form.
public enum Base64URL {
    /// `bytes` in the base64url alphabet; `padded: false` drops the trailing `=` (PKCE, opaque ids).
    public static func encode(_ bytes: some Collection<UInt8>, padded: Bool) -> String {
        Base64.encodeToString(
            bytes: bytes, options: padded ? [.base64UrlAlphabet] : [.base64UrlAlphabet, .omitPaddingCharacter])
    }

    /// The bytes of padded or unpadded base64url; `nil` when `text` is not base64url (a `+` or `/`
    /// of the standard alphabet, whitespace, a length no encoding produces, `=` before the end).
    public static func decode(_ text: String) -> [UInt8]? {
        // `.omitPaddingCharacter` makes padding optional rather than forbidden: a padded final group still decodes.
        try? Base64.decode(string: text, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }
}
