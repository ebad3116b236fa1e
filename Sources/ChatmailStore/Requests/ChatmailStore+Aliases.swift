import GRDB

extension ChatmailStore {
    /// The normalized addresses that are "me": the account's own address and every alias.
    public func aliases(of account: AccountID) throws -> Set<String> {
        try read { db in
            Set(
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT email_normalized FROM account WHERE id = ?1
                        UNION SELECT address_normalized FROM account_alias WHERE account_id = ?1
                        """,
                    arguments: [account]))
        }
    }
}
