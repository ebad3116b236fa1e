import Foundation

/// The `In-Reply-To` and `References` of a reply (RFC 5322 §3.6.4), and the parsing of those headers.
///
/// Message ids are always handled in their written form, with angle brackets (`<id@host>`), so they can be
/// compared as strings and written back unchanged.
///
/// ```swift
/// let parent = ReplyReferences.parse("<a@x> <b@x>")  // ["<a@x>", "<b@x>"]
/// ReplyReferences.make(parentReferences: parent, parentMessageID: "<c@x>")  // ["<a@x>", "<b@x>", "<c@x>"]
/// ```
public enum ReplyReferences {
    /// How many ids a reply's References keeps at most, as neomutt caps it: enough for any client to
    /// thread by, without a header that grows with every message of a long thread.
    public static let defaultLimit = 10

    /// The References of a reply: the parent's References (or, when it has none, its single In-Reply-To id,
    /// as RFC 5322 §3.6.4 says) followed by the parent's own id.
    ///
    /// Ids that cannot be written safely (see ``normalized(_:)``) are dropped, and each id appears once, the
    /// parent's last. When the list is longer than `limit`, the first id (the thread's root, which threading
    /// needs most) and the last `limit - 1` are kept: the newest ids say where in the thread the reply sits.
    /// - Parameters:
    ///   - parentReferences: the parent's References ids, oldest first (see ``parse(_:)-(String)``).
    ///   - parentInReplyTo: the parent's In-Reply-To ids, used only when its References are empty.
    ///   - parentMessageID: the parent's Message-ID, with or without angle brackets.
    public static func make(
        parentReferences: [String], parentInReplyTo: [String] = [], parentMessageID: String,
        limit: Int = defaultLimit
    ) -> [String] {
        let parent = normalized(parentMessageID)
        var inherited = parentReferences.compactMap(normalized)
        if inherited.isEmpty, parentInReplyTo.count == 1 { inherited = parentInReplyTo.compactMap(normalized) }
        var seen: Set<String> = []
        var ids: [String] = []
        for id in inherited where id != parent && seen.insert(id).inserted { ids.append(id) }
        if let parent { ids.append(parent) }
        let cap = max(limit, 2)
        guard ids.count > cap else { return ids }
        return [ids[0]] + ids.suffix(cap - 1)
    }

    /// The ids in a References or In-Reply-To header value, in order, each as `<id>`.
    ///
    /// Real headers hold more than ids: comments, quoted phrases (`"Ann's message of Monday" <a@x>`), commas,
    /// and ids split by folding. Only bracketed tokens are taken; a `<` inside one starts over, and tokens
    /// with whitespace or controls inside are skipped. A value with no brackets at all that is one bare
    /// `local@domain` token (some old clients write that) is taken as that id.
    public static func parse(_ value: String) -> [String] {
        var ids: [String] = []
        var current: String.UnicodeScalarView?
        for scalar in value.unicodeScalars {
            switch scalar {
            case "<":
                current = String.UnicodeScalarView()
            case ">":
                if let token = current, let id = normalized("<" + String(token) + ">") { ids.append(id) }
                current = nil
            default:
                current?.append(scalar)
            }
        }
        if ids.isEmpty, !value.contains("<") {
            let bare = WhitespaceTrimming.whitespaces.trimming(value)
            if bare.contains("@"), let id = normalized(bare) { return [id] }
        }
        return ids
    }

    /// Parses a raw header value (bytes as ``HeaderFields`` hold them), read as UTF-8.
    public static func parse(_ value: [UInt8]) -> [String] {
        parse(String(decoding: value, as: UTF8.self))
    }

    /// The id as `<id>`, whether it was given with brackets or without; `nil` when it is empty or holds
    /// whitespace, a control character or another angle bracket, which could not be written into a header.
    public static func normalized(_ id: String) -> String? {
        var text = Substring(WhitespaceTrimming.whitespacesAndNewlines.trimming(id))
        if text.hasPrefix("<") && text.hasSuffix(">") && text.count >= 2 { text = text.dropFirst().dropLast() }
        guard !text.isEmpty,
            !text.unicodeScalars.contains(where: { $0 == "<" || $0 == ">" || isForbidden($0) })
        else { return nil }
        return "<" + text + ">"
    }

    /// Whitespace and controls (C0, DEL, C1), which have no place inside an id.
    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value <= 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.isWhitespace
    }
}
