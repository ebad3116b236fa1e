import Foundation

/// Maps Google Takeout's `X-Gmail-Labels` header to Gmail label ids.
///
/// Takeout writes label NAMES, comma-separated (`Inbox,Unread,Category Promotions,Work`). System labels
/// map to their ids; user labels get a stable id derived from the name (`Label_import:Work`), so a
/// later sync's real ids can replace them without clashing.
public enum TakeoutLabels {
    static let systemLabels: [String: String] = [
        "inbox": "INBOX", "unread": "UNREAD", "starred": "STARRED", "important": "IMPORTANT", "sent": "SENT",
        "drafts": "DRAFT", "draft": "DRAFT", "spam": "SPAM", "trash": "TRASH", "chat": "CHAT",
        "category personal": "CATEGORY_PERSONAL", "category social": "CATEGORY_SOCIAL",
        "category promotions": "CATEGORY_PROMOTIONS", "category updates": "CATEGORY_UPDATES",
        "category forums": "CATEGORY_FORUMS",
    ]

    /// The id prefix of user labels created from Takeout names.
    public static let userLabelPrefix = "Label_import:"

    /// Takeout-only markers that are not labels.
    static let ignored: Set<String> = ["opened", "archived"]

    public static func gmailLabelIDs(_ header: String) -> [String] {
        var result: [String] = []
        for raw in header.split(separator: ",") {
            let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            let key = name.lowercased()
            guard !name.isEmpty, !ignored.contains(key) else { continue }
            let id = systemLabels[key] ?? userLabelPrefix + name
            if !result.contains(id) { result.append(id) }
        }
        return result
    }
}
