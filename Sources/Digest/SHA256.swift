/// SHA-256 (FIPS 180-4): participant hashes, import ids and OAuth PKCE challenges.
///
/// Foundation on Linux has no CryptoKit, and the participant hash is an identity key, not a secret,
/// so a small, well-tested implementation avoids a cryptography dependency and its build time.
/// The tests check it against the NIST example vectors.
public enum SHA256 {
    /// The lowercase hexadecimal digest of `bytes`.
    public static func hexDigest<Bytes: Collection>(of bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        let digest = digest(of: bytes)
        return String(unsafeUninitializedCapacity: 64) { buffer in
            for (index, byte) in digest.enumerated() {
                buffer[2 * index] = digits[Int(byte >> 4)]
                buffer[2 * index + 1] = digits[Int(byte & 0x0F)]
            }
            return 64
        }
    }

    /// The 32-byte digest of `bytes`.
    public static func digest<Bytes: Collection>(of bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
        )
        // Padding: a 1 bit, zeros up to 56 mod 64 bytes, then the bit length as a big-endian UInt64.
        let count = bytes.count
        let paddedCount = (count + 9 + 63) / 64 * 64
        let bitLength = UInt64(count) &* 8
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: paddedCount) { message in
            _ = message.initialize(from: bytes)
            message[count] = 0x80
            for index in (count + 1)..<paddedCount { message[index] = 0 }
            for byte in 0..<8 {
                message[paddedCount - 1 - byte] = UInt8(truncatingIfNeeded: bitLength >> UInt64(8 * byte))
            }
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                // The constants are read through a pointer: indexing the static array in the round loop
                // checked its lazy initialisation and bounds on every round.
                roundConstants.withUnsafeBufferPointer { constants in
                    for chunk in stride(from: 0, to: paddedCount, by: 64) {
                        compress(message.baseAddress! + chunk, schedule: w, constants: constants, state: &state)
                    }
                }
            }
        }
        var result = [UInt8]()
        result.reserveCapacity(32)
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            result.append(UInt8(word >> 24))
            result.append(UInt8(truncatingIfNeeded: word >> 16))
            result.append(UInt8(truncatingIfNeeded: word >> 8))
            result.append(UInt8(truncatingIfNeeded: word))
        }
        return result
    }

    /// One 64-byte block of the compression function (FIPS 180-4, 6.2.2).
    private static func compress(
        _ block: UnsafePointer<UInt8>, schedule w: UnsafeMutableBufferPointer<UInt32>,
        constants: UnsafeBufferPointer<UInt32>,
        state: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    ) {
        for i in 0..<16 {
            w[i] =
                UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16
                | UInt32(block[4 * i + 2]) << 8 | UInt32(block[4 * i + 3])
        }
        for i in 16..<64 {
            let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        for i in 0..<64 {
            let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ constants[i] &+ w[i]
            let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ s0 &+ majority)
        }
        state = (
            state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
            state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h
        )
    }

    /// Counts are 2–25, so masking shifts give the same bits without the over-shift checks of `>>`.
    private static func rotr(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value &>> count) | (value &<< (32 - count))
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}
