import Digest

/// The people a message is with, and the hash that names their conversation.
///
/// The set is From ∪ To ∪ Cc, minus every alias of the account, keyed by normalized address. Bcc is
/// left out on purpose: recipients of a blind copy are not part of the visible conversation. An empty
/// set is the "Note to self" conversation.
///
/// The hash is the lowercase hex SHA-256 of `"p|"` followed by the sorted, unique normalized addresses
/// joined by `"|"`. It is the formula of the original app, so identities stay comparable with it.
public struct ParticipantSet: Sendable, Equatable {
    /// One member of the set, with the spelling and name first seen on the message.
    public struct Member: Sendable, Equatable {
        public var normalizedAddress: String
        public var address: String
        public var name: String?
    }

    /// The members, sorted by normalized address, each address once.
    public let members: [Member]

    /// Builds the participant set of one message.
    ///
    /// - parameter aliases: the normalized addresses of ALL the account's aliases. They must be
    ///   loaded before any set is built, or a message sent from an alias would include yourself.
    public init(from: EmailAddress?, to: [EmailAddress], cc: [EmailAddress], excluding aliases: Set<String>) {
        self.init(authors: [from].compactMap { $0 }, to: to, cc: cc, excluding: aliases)
    }

    /// Builds the participant set of a message with every author of its From header.
    public init(authors: [EmailAddress], to: [EmailAddress], cc: [EmailAddress], excluding aliases: Set<String>) {
        var byKey: [String: Member] = [:]
        for address in authors + to + cc {
            let key = address.normalizedAddress
            guard !key.isEmpty, !aliases.contains(key) else { continue }
            if var existing = byKey[key] {
                // Keep the first spelling, but take a name from a later header if the first had none.
                if existing.name == nil, let name = address.name {
                    existing.name = name
                    byKey[key] = existing
                }
            } else {
                byKey[key] = Member(normalizedAddress: key, address: address.address, name: address.name)
            }
        }
        members = byKey.values.sorted { $0.normalizedAddress < $1.normalizedAddress }
    }

    /// `true` when the message involves nobody but the account itself.
    public var isNoteToSelf: Bool { members.isEmpty }

    /// The string the hash is taken of: `"p|"` + the sorted normalized addresses joined by `"|"`.
    /// Equal keys mean the same conversation, so it also serves as a cheap cache key.
    public var hashInput: String {
        "p|" + members.map(\.normalizedAddress).joined(separator: "|")
    }

    /// The participant hash: lowercase hex SHA-256 of ``hashInput``.
    public var hash: String {
        SHA256.hexDigest(of: Array(hashInput.utf8))
    }

    /// The participant hash of already-normalized addresses, in any order, duplicates allowed.
    public static func hash(ofNormalizedAddresses addresses: some Sequence<String>) -> String {
        let key = "p|" + Set(addresses).sorted().joined(separator: "|")
        return SHA256.hexDigest(of: Array(key.utf8))
    }
}

/// The key of a mailing list's conversation: one conversation per list, whoever writes to it.
///
/// The hash is the lowercase hex SHA-256 of `"l|"` + the list id. A participant hash always starts its
/// input with `"p|"`, so the two kinds of key can never be the same string and never collide (short of a
/// SHA-256 collision).
public enum ListConversationKey {
    /// The string the hash is taken of; also the conversation cache key.
    public static func hashInput(listID: String) -> String { "l|" + listID }

    /// The conversation hash of the list `listID` (already lowercased).
    public static func hash(listID: String) -> String {
        SHA256.hexDigest(of: Array(hashInput(listID: listID).utf8))
    }
}
