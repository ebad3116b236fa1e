import Foundation

/// The mailbox's labels: Gmail's fixed system labels plus user labels `Label_N`.
///
/// Also maps Google Takeout's `X-Gmail-Labels` names ("Inbox", "Category Promotions") to label ids,
/// because the fixtures come from Takeout exports.
public struct LabelCatalog: Sendable {
    /// System label ids in the order `labels.list` returns them.
    public static let systemIds = [
        "CHAT", "SENT", "INBOX", "IMPORTANT", "TRASH", "DRAFT", "SPAM", "CATEGORY_FORUMS", "CATEGORY_UPDATES",
        "CATEGORY_PERSONAL", "CATEGORY_PROMOTIONS", "CATEGORY_SOCIAL", "STARRED", "UNREAD",
    ]
    /// Labels clients may not add or remove: Gmail answers 400 `Invalid label`.
    static let clientReadOnly: Set<String> = ["SENT", "DRAFT", "CHAT"]

    /// User labels: id → display name, in creation order.
    public private(set) var userLabels: [(id: String, name: String)] = []
    private var nextUserNumber = 1

    public init() {}

    public func contains(_ id: String) -> Bool {
        LabelCatalog.systemIds.contains(id) || userLabels.contains { $0.id == id }
    }

    public func name(of id: String) -> String? {
        if LabelCatalog.systemIds.contains(id) { return id }
        return userLabels.first { $0.id == id }?.name
    }

    /// The id of a user label with this name, creating it when new.
    public mutating func userLabelId(named name: String) -> String {
        if let existing = userLabels.first(where: { $0.name == name }) { return existing.id }
        let id = "Label_\(nextUserNumber)"
        nextUserNumber += 1
        userLabels.append((id, name))
        return id
    }

    /// Resolves a Takeout name, a system id or a user label name to an id (creating user labels).
    public mutating func resolve(_ name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if LabelCatalog.systemIds.contains(trimmed) { return trimmed }
        if userLabels.contains(where: { $0.id == trimmed }) { return trimmed }
        switch trimmed.lowercased() {
        case "inbox": return "INBOX"
        case "unread": return "UNREAD"
        case "sent", "sent mail": return "SENT"
        case "starred": return "STARRED"
        case "important": return "IMPORTANT"
        case "spam": return "SPAM"
        case "trash": return "TRASH"
        case "draft", "drafts": return "DRAFT"
        case "chat", "chats": return "CHAT"
        case "opened", "archived": return nil  // Takeout pseudo-labels: not Gmail labels
        default: break
        }
        if trimmed.lowercased().hasPrefix("category ") {
            let category = "CATEGORY_" + trimmed.dropFirst("category ".count).uppercased()
            if LabelCatalog.systemIds.contains(category) { return category }
        }
        return userLabelId(named: trimmed)
    }

    /// Resolves a `label:`/`in:` search term (names are matched case-insensitively, `-` for `/` and space).
    public func lookup(searchName: String) -> String? {
        let wanted = searchName.lowercased()
        if let system = LabelCatalog.systemIds.first(where: { $0.lowercased() == wanted }) { return system }
        if wanted.hasPrefix("category_") || ["social", "promotions", "updates", "forums", "personal"].contains(wanted) {
            let id = wanted.hasPrefix("category_") ? wanted.uppercased() : "CATEGORY_" + wanted.uppercased()
            if LabelCatalog.systemIds.contains(id) { return id }
        }
        if wanted == "sent" { return "SENT" }
        let normalise: (String) -> String = {
            $0.lowercased().replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: " ", with: "-")
        }
        return userLabels.first { normalise($0.name) == normalise(searchName) || $0.id.lowercased() == wanted }?.id
    }
}
