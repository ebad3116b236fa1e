import GRDB

extension ChatmailStore {
    /// Every account, oldest first.
    public func accounts() throws -> [Account] {
        try read { db in
            try Account.fetchAll(
                db, sql: "SELECT id, email, provider, history_id, last_sync_at_ms FROM account ORDER BY id")
        }
    }

    /// The account a command works on.
    ///
    /// - throws: ``StoreError/noAccount``, ``StoreError/unknownAccount(_:)`` or
    ///   ``StoreError/accountNotChosen(available:)``.
    public func account(_ selection: AccountSelection) throws -> Account {
        let all = try accounts()
        switch selection {
        case .onlyAccount:
            guard let first = all.first else { throw StoreError.noAccount }
            guard all.count == 1 else { throw StoreError.accountNotChosen(available: all.map(\.email)) }
            return first
        case .email(let email):
            let key = EmailNormalizer.identityKey(for: email)
            guard let match = all.first(where: { EmailNormalizer.identityKey(for: $0.email) == key }) else {
                throw all.isEmpty ? StoreError.noAccount : StoreError.unknownAccount(email)
            }
            return match
        }
    }
}
