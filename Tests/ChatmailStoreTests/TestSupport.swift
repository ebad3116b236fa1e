import ChatmailStore
import Foundation

/// A real SQLite store in its own temporary directory, removed afterwards, as in GRDB's `GRDBTestCase`.
func withTemporaryStore<T>(
    now: Int64 = 1_700_000_000_000,
    _ body: (ChatmailStore, URL) async throws -> T
) async throws -> T {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup: nothing to lose
    let path = dir.appendingPathComponent("chatmail.sqlite")
    let store = try ChatmailStore(path: path.path, clock: { now })
    return try await body(store, path)
}

extension ChatmailStore {
    /// A stand-in for MailText's subject rule, which this target does not link: the store only keeps what the
    /// rule it is given says, and MailText's tests own the rule itself. It drops leading `Re:`s and lowercases.
    static let testSubjectBase: SubjectBase = { subject in
        var rest = Substring(subject)
        while rest.lowercased().hasPrefix("re:") { rest = rest.dropFirst(3).drop(while: \.isWhitespace) }
        return rest.lowercased()
    }

    /// The store the tests open: the one of ``init(path:clock:subjectBase:)`` with ``testSubjectBase``.
    convenience init(path: String, clock: @escaping Clock = ChatmailStore.systemClock) throws(StoreError) {
        try self.init(path: path, clock: clock, subjectBase: Self.testSubjectBase)
    }
}

let me = EmailAddress(address: "me@example.org", name: "Me Myself")
let alice = EmailAddress(address: "Alice@Example.com", name: "Alice Liddell")
let bob = EmailAddress(address: "Bob.Smith@gmail.com", name: "Bob Smith")
let carol = EmailAddress(address: "carol@example.net", name: "Carol Danvers")

/// Builds a message with sensible defaults; each test states only what it is about.
func message(
    _ gmailID: String,
    from: EmailAddress,
    to: [EmailAddress] = [me],
    cc: [EmailAddress] = [],
    at dateMs: Int64 = 1_700_000_000_000,
    labels: [String] = ["INBOX"],
    text: String? = nil,
    subject: String = "Hello",
    newsletter: Bool = false,
    attachments: [MessageInput.Attachment] = []
) -> MessageInput {
    MessageInput(
        gmailID: gmailID, threadID: "t-\(gmailID)", internalDateMs: dateMs, from: from, to: to, cc: cc,
        subject: subject, gmailSnippet: "snippet \(gmailID)", bodyText: text ?? "Body of \(gmailID)",
        isNewsletter: newsletter, labelIDs: labels, attachments: attachments)
}

extension ChatmailStore {
    /// Creates the test account and stores `messages` with their rollups, in one transaction.
    @discardableResult
    func seed(_ messages: [MessageInput], aliases: [EmailAddress] = []) throws -> (AccountID, [MessageUpsert]) {
        try write { tx in
            let account = try tx.ensureAccount(email: me.address)
            if !aliases.isEmpty {
                try tx.replaceAliases(aliases.map { AliasInput(address: $0, isPrimary: false) }, for: account)
            }
            let results = try messages.map { try tx.upsert($0, in: account) }
            try tx.recomputeRollups(for: Set(results.flatMap(\.affectedConversations)))
            return (account, results)
        }
    }
}
