/// Deterministic conversation titles.
///
/// The original app built titles from an unordered set, so a group's title could change between
/// launches. Here one person gets their full name (or address);
/// several get first names sorted case-insensitively, ties broken by address, and a long list ends
/// with a count of the rest.
public enum ConversationTitle {
    /// The title shown for a conversation with no other participant.
    public static let noteToSelf = "Note to self"

    /// How many first names a group title lists before "+N".
    static let maximumListedNames = 4

    /// Builds the title for `participants`, given as (address as written, display name).
    public static func make(for participants: [EmailAddress]) -> String {
        switch participants.count {
        case 0:
            return noteToSelf
        case 1:
            let person = participants[0]
            return usableName(person.name) ?? person.address
        default:
            let names =
                participants
                .map { (first: firstName(of: $0), key: $0.normalizedAddress) }
                .sorted { lhs, rhs in
                    let l = lhs.first.lowercased()
                    let r = rhs.first.lowercased()
                    return l != r ? l < r : lhs.key < rhs.key
                }
                .map(\.first)
            let listed = names.prefix(maximumListedNames).joined(separator: ", ")
            let rest = names.count - maximumListedNames
            return rest > 0 ? "\(listed) +\(rest)" : listed
        }
    }

    /// The first name of a participant: the first word of the name ("Doe, John" gives "John"),
    /// or the local part of the address when there is no usable name.
    public static func firstName(of person: EmailAddress) -> String {
        if let name = usableName(person.name) {
            if let comma = name.firstIndex(of: ","), name.filter({ $0 == "," }).count == 1 {
                // "Last, First" as written by Outlook and many directories, when both sides are short
                // like names. "Ubuntu user technical support, not for general discussions" is not one.
                let beforeComma = name[..<comma].split(separator: " ")
                let afterComma = Substring(name[name.index(after: comma)...]).trimmingWhitespace().split(separator: " ")
                // "Ximian, Inc." is a company: its name comes before the comma.
                if afterComma.count == 1, let suffix = afterComma.first, legalForms.contains(suffix.lowercased()),
                    let word = beforeComma.first
                {
                    return String(word)
                }
                if (1...3).contains(beforeComma.count), (1...3).contains(afterComma.count), let word = afterComma.first
                {
                    return String(word)
                }
            }
            if let word = name.split(separator: " ").first { return String(word) }
        }
        let local = person.address.split(separator: "@", maxSplits: 1).first.map(String.init)
        return local ?? person.address
    }

    /// Company suffixes that follow a comma in a sender's name ("Ximian, Inc.").
    static let legalForms: Set<String> = [
        "inc", "inc.", "ltd", "ltd.", "llc", "llc.", "corp", "corp.", "co", "co.", "plc", "gmbh", "ag", "s.a.",
        "sa", "bv", "b.v.", "nv", "n.v.", "pty", "a/s", "srl", "s.r.l.", "spa", "s.p.a.", "kg",
    ]

    /// A display name worth showing: not empty, and not just an address repeated as a name.
    static func usableName(_ name: String?) -> String? {
        guard let name, !name.isEmpty, !name.contains("@") else { return nil }
        return name
    }
}
