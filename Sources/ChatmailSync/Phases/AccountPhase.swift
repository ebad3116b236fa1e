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
        let sendAs = try await gmail.listSendAs()
        try await store.write { tx in
            for label in labels {
                try tx.upsertLabel(
                    gmailID: label.id, name: label.name, type: label.type == "user" ? .user : .system, in: account)
            }
            try tx.replaceAliases(withOwnAddressesIn: sendAs, for: account)
        }
    }
}

extension StoreTransaction {
    /// Replaces the account's aliases with the addresses of Gmail's sendAs list that are its own (the
    /// primary, and those treated as aliases): what both `login` and every sync store.
    ///
    /// An empty list keeps the aliases already known: a restricted token lists none, and erasing them
    /// would make the account's own mail look like someone else's.
    /// - returns: the own addresses of the list.
    @discardableResult
    public func replaceAliases(withOwnAddressesIn sendAs: [SendAs], for account: AccountID) throws -> [SendAs] {
        let own = sendAs.filter(\.isOwnAddress)
        guard !own.isEmpty else { return [] }
        try replaceAliases(
            own.map {
                AliasInput(
                    address: EmailAddress(address: $0.sendAsEmail, name: $0.displayName),
                    isPrimary: $0.isPrimary ?? false)
            },
            for: account)
        return own
    }
}
