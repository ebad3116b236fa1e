import ChatmailStore
import MailText

/// The user's side of rules and the screener: every change is one transaction that re-decides the
/// stored mail the change can affect and recomputes the rollups of exactly the conversations it moved.
public struct RuleBook: Sendable {
    public let store: ChatmailStore

    public init(store: ChatmailStore) {
        self.store = store
    }

    /// Adds rules; an existing rule given again can only have archiving turned on.
    public func add(_ drafts: [Rule.Draft], account: AccountID) async throws -> RuleChange {
        try await ModificationTracker().write(in: store) { tx, modifications in
            let change = try tx.addRules(drafts, in: account)
            modifications.report(change.conversations)
            return change
        }
    }

    /// Removes one rule.
    public func remove(_ id: RuleID, account: AccountID) async throws -> RuleChange {
        try await ModificationTracker().write(in: store) { tx, modifications in
            let change = try tx.removeRule(id, in: account)
            modifications.report(change.conversations)
            return change
        }
    }

    /// Adds `drafts`; with `replacing`, the account ends with exactly these rules.
    public func importRules(_ drafts: [Rule.Draft], replacing: Bool, account: AccountID) async throws -> RuleChange {
        try await ModificationTracker().write(in: store) { tx, modifications in
            let change = try tx.importRules(drafts, replacing: replacing, in: account)
            modifications.report(change.conversations)
            return change
        }
    }

    /// Turns the screener on or off.
    public func setScreener(enabled: Bool, account: AccountID) async throws {
        try await store.write { tx in try tx.setScreener(enabled: enabled, in: account) }
    }

    /// What rules would make of a raw RFC 5322 message: the same parsing and text pipeline as sync, so
    /// `rules test` judges the sender, subject and text a synced copy would have.
    public static func subject(ofRawMessage bytes: [UInt8], pipeline: TextPipeline = TextPipeline()) throws
        -> RuleSubject
    {
        let parsed = ParsedMessage(raw: bytes)
        if let rejection = MessageValidation.rejection(of: parsed, bytes: bytes) {
            throw NotAMessage(rejection: rejection)
        }
        let processed = pipeline.process(parsed, gmailLabels: ["INBOX"])
        let input = MessageInputBuilder.make(
            processed,
            envelope: MessageEnvelope(
                gmailID: "test", threadID: "test", internalDateMs: parsed.dateMs ?? 0, labelIDs: ["INBOX"],
                snippet: "", sizeEstimate: Int64(bytes.count)))
        return RuleSubject(input)
    }

    /// The input to `rules test` is not an email message.
    public struct NotAMessage: Error, Sendable {
        public var rejection: MessageValidation.Rejection
    }
}
