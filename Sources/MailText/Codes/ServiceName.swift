/// Who sent a code, as a short name for a label: the display name when it names a service, otherwise the
/// registrable domain's first label ("accounts.google.com" → "Google", "mail.bank.co.uk" → "Bank").
enum ServiceName {
    /// Display names that say nothing about the service.
    static let genericNames: Set<String> = [
        "noreply", "no-reply", "no reply", "donotreply", "do-not-reply", "do not reply", "info", "support",
        "notifications", "notification", "security", "account", "accounts", "service", "mailer", "admin",
    ]
    /// Trailing words that a service adds to its name ("Microsoft account team", "Slack Notifications").
    static let trailingWords: Set<String> = [
        "team", "support", "security", "account", "accounts", "notifications", "notification", "service",
        "services", "verification", "no-reply", "noreply", "alerts", "login",
    ]
    /// Second-level labels that sit under a country code as a public suffix ("co.uk", "com.br").
    static let secondLevel: Set<String> = ["co", "com", "net", "org", "gov", "ac", "edu", "ne", "or", "go"]

    static func guess(from sender: MailAddress?) -> String? {
        guard let sender else { return nil }
        if let name = sender.name, let cleaned = clean(name) { return cleaned }
        return domainName(sender.address)
    }

    static func clean(_ name: String) -> String? {
        guard !name.contains("@") else { return nil }
        var words = name.split(whereSeparator: \.isWhitespace).map(String.init)
        while words.count > 1, let last = words.last, trailingWords.contains(last.lowercased()) {
            words.removeLast()
        }
        let joined = words.joined(separator: " ")
        guard !joined.isEmpty, !genericNames.contains(joined.lowercased()) else { return nil }
        return joined
    }

    static func domainName(_ address: String) -> String? {
        guard let at = address.lastIndex(of: "@") else { return nil }
        let labels = address[address.index(after: at)...].lowercased().split(separator: ".").map(String.init)
        guard labels.count >= 2 else { return nil }
        var index = labels.count - 2
        if labels.count >= 3, labels[labels.count - 1].count == 2, secondLevel.contains(labels[index]) {
            index -= 1
        }
        let label = labels[index]
        guard let first = label.first else { return nil }
        return first.uppercased() + label.dropFirst()
    }
}
