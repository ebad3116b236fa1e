/// Makes the Message-ID of a message we send.
///
/// Classic generators build ids from the host name, the user name, the process id or a time-ordered UUID;
/// each tells a recipient something about the sender's machine or habits. Ours is 160 random bits, written
/// in lowercase base32 (32 characters), at the domain of the From address, which the recipient knows
/// anyway: `<k5v2…q7ra@example.org>`. 160 bits make a collision with any id ever written negligible.
///
/// ```swift
/// MessageIDGenerator.make(for: MailAddress(address: "ann@example.org"))  // "<…32 characters…@example.org>"
/// ```
public enum MessageIDGenerator {
    /// Used when the From address has no domain that may stand in an id: `.invalid` is reserved (RFC 2606),
    /// so it can never name anyone's host.
    public static let fallbackDomain = "mail.invalid"

    /// A fresh id for a message from `from`, drawn from the system's secure random source.
    public static func make(for from: MailAddress) -> String {
        var generator = SystemRandomNumberGenerator()
        return make(for: from, using: &generator)
    }

    /// A fresh id for a message from `from`, drawn from `generator` (tests pass a seeded one).
    public static func make(for from: MailAddress, using generator: inout some RandomNumberGenerator) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        for _ in 0..<20 { bytes.append(UInt8.random(in: .min ... .max, using: &generator)) }
        return "<" + base32(bytes) + "@" + domain(of: from.address) + ">"
    }

    /// The domain after the last `@`, lowercased, when it is a plain dot-atom of letters, digits, hyphens
    /// and dots; otherwise ``fallbackDomain``. A non-ASCII (unconverted IDN) domain falls back too, so the id
    /// stays ASCII for every hop.
    static func domain(of address: String) -> String {
        guard let at = address.lastIndex(of: "@") else { return fallbackDomain }
        let domain = address[address.index(after: at)...].lowercased()
        let allowed = domain.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "."
        }
        let wellFormed = !domain.isEmpty && !domain.hasPrefix(".") && !domain.hasSuffix(".") && !domain.contains("..")
        return allowed && wellFormed ? domain : fallbackDomain
    }

    /// RFC 4648 base32 in lowercase, without padding (the callers pass a multiple of five bytes).
    static func base32(_ bytes: [UInt8]) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                output.append(alphabet[Int(buffer >> UInt32(bits) & 0x1F)])
            }
        }
        if bits > 0 { output.append(alphabet[Int(buffer << UInt32(5 - bits) & 0x1F)]) }
        return String(decoding: output, as: UTF8.self)
    }
}
