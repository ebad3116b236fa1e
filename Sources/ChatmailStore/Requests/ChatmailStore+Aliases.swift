import GRDB

extension ChatmailStore {
    /// The normalized addresses that are "me": the account's own address and every alias.
    public func aliases(of account: AccountID) throws -> Set<String> {
        try read { db in Set(try String.fetchAll(db, sql: StoreTransaction.aliasesSQL, arguments: [account])) }
    }
}
