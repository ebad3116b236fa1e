import ChatmailStore
import Digest

/// Stable ids for imported messages, so importing the same mail again finds it.
///
/// The id hashes the message's bytes WITHOUT the headers Google Takeout adds (`X-Gmail-Labels`,
/// `X-GM-THRID`): a newer export of the same message with other labels is the same message, and must
/// update labels rather than store a duplicate.
enum ImportIdentity {
    static let exportHeaders: [[UInt8]] = ["x-gmail-labels:", "x-gm-thrid:"].map { Array($0.utf8) }

    static func gmailID(for bytes: [UInt8]) -> String {
        "imp-" + String(SHA256.hexDigest(of: withoutExportHeaders(bytes)).prefix(16))
    }

    /// `true` for an id ``gmailID(for:)`` made: Gmail has no such message, so it is never asked for one.
    static func isImported(_ id: String) -> Bool { id.hasPrefix("imp-") }

    /// `bytes` minus export header lines (and their folded continuations) in the header block.
    static func withoutExportHeaders(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        var skippingField = false
        while index < bytes.count {
            var end = index
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let next = min(bytes.count, end + 1)
            let line = bytes[index..<end]
            if line.isEmpty || line.elementsEqual([0x0D]) {
                output.append(contentsOf: bytes[index...])  // end of the header block: the rest as is
                return output
            }
            let isContinuation = line.first == 0x20 || line.first == 0x09
            if !isContinuation {
                skippingField = exportHeaders.contains { name in
                    line.count >= name.count
                        && zip(line.prefix(name.count), name).allSatisfy { ($0 | 0x20) == $1 || $0 == $1 }
                }
            }
            if !skippingField { output.append(contentsOf: bytes[index..<next]) }
            index = next
        }
        return output
    }
}
