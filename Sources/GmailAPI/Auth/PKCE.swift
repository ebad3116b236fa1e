import Digest
import GmailModel

/// Proof Key for Code Exchange, S256 (RFC 7636): binds the authorization code to this process, so a
/// code intercepted on the loopback redirect is useless to anyone else.
public struct PKCE: Sendable, Equatable {
    /// 43–128 characters from `[A-Za-z0-9-._~]`; kept secret until the code exchange.
    public let verifier: String
    /// `base64url(SHA-256(verifier))` without padding; sent in the authorization URL.
    public let challenge: String
    public let method = "S256"

    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Derives the challenge of a given verifier.
    public init(verifier: String) {
        precondition(
            (43...128).contains(verifier.count), "a PKCE verifier has 43–128 characters, got \(verifier.count)")
        self.verifier = verifier
        self.challenge = Base64URL.encode(SHA256.digest(of: Array(verifier.utf8)), padded: false)
    }

    /// A fresh verifier of `length` characters drawn from `random`.
    public static func generate(length: Int = 64, random: any RandomSource = SystemRandomSource()) -> PKCE {
        precondition((43...128).contains(length), "a PKCE verifier has 43–128 characters, got \(length)")
        let verifier = String((0..<length).map { _ in alphabet[random.below(alphabet.count)] })
        return PKCE(verifier: verifier)
    }
}
