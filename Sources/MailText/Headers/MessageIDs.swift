/// Message ids in `Message-ID`, `In-Reply-To` and `References` values (RFC 5322 §3.6.4).
public enum MessageIDs {
    /// Every `<…>` token of `value`, in order, each once, with its brackets; text between tokens (comments,
    /// stray words some mailers add) is ignored, and so is a token holding whitespace or nothing.
    public static func parse(_ value: [UInt8]) -> [String] {
        var ids: [String] = []
        var seen: Set<String> = []
        var start: Int?
        for (index, byte) in value.enumerated() {
            if byte == UInt8(ascii: "<") {
                start = index
            } else if byte == UInt8(ascii: ">"), let open = start {
                start = nil
                let inner = value[(open + 1)..<index]
                guard !inner.isEmpty, !inner.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { continue }
                let id = "<" + String(decoding: inner, as: UTF8.self) + ">"
                if seen.insert(id).inserted { ids.append(id) }
            }
        }
        return ids
    }
}
