import ChatmailStore
import GmailAPI

/// Reads the profile and stores the account's labels and sendAs aliases.
///
/// Runs before any message is hashed: every alias must be known, or a message sent from an alias would
/// create a conversation that contains yourself.
struct AccountPhase: Sendable {
    let gmail: GmailClient
    let store: ChatmailStore

    /// The profile; its history id is read BEFORE anything is listed, so a change
    /// made during the listing is replayed by the next incremental sync instead of lost.
    func profile(expecting account: Account) async throws -> Profile {
        let profile = try await gmail.getProfile()
        guard EmailNormalizer.identityKey(for: profile.emailAddress) == EmailNormalizer.identityKey(for: account.email)
        else {
            throw SyncError.accountMismatch(stored: account.email, gmail: profile.emailAddress)
        }
        return profile
    }

    func storeLabelsAndAliases(of account: AccountID) async throws {
        let labels = try await gmail.listLabels()
        let aliases = try await gmail.listSendAs().filter(\.isOwnAddress)
        try await store.write { tx in
            for label in labels {
                try tx.upsertLabel(
                    gmailID: label.id, name: label.name, type: label.type == "user" ? .user : .system, in: account)
            }
            // An empty sendAs list (a restricted token) must not erase the aliases we know.
            if !aliases.isEmpty {
                try tx.replaceAliases(
                    aliases.map {
                        AliasInput(
                            address: EmailAddress(address: $0.sendAsEmail, name: $0.displayName),
                            isPrimary: $0.isPrimary ?? false)
                    },
                    for: account)
            }
        }
    }
}
