import Foundation
import MailText

/// The account's mailbox: messages, labels, threads and the history log.
///
/// An actor because HTTP handlers, the control API and batch parts mutate it concurrently. Every
/// mutation allocates a new history id with a random gap, like Gmail's, from the injected seed, so
/// runs are reproducible yet clients cannot assume contiguous ids.
public actor MailboxState {
    public let account: String
    /// Other addresses of the account, served by `settings.sendAs.list` with `treatAsAlias`.
    public let aliases: [String]
    private var random: SeededRandom
    /// Records kept at most (`nil` = unbounded); older ones are dropped and starts before them get 404.
    private var retention: Int?

    private(set) var messages: [String: StoredMessage] = [:]
    /// Message ids, newest first by (internalDate, id): the `messages.list` order.
    private(set) var order: [String] = []
    private(set) var labels = LabelCatalog()
    /// RFC 5322 Message-ID → thread id, for threading by References/In-Reply-To.
    private var threadByMessageID: [String: String] = [:]

    private(set) var currentHistoryId: UInt64
    private var records: [MailboxChangeRecord] = []
    /// Smallest `startHistoryId` still answerable (records after it are all retained).
    private var oldestValidStart: UInt64
    /// Where successful changes are written, when the mailbox must survive a restart.
    private(set) var journal: MailboxJournal?
    /// Draft id → the id of the message holding the draft's current version.
    var drafts: [String: String] = [:]

    public init(account: String, seed: UInt64, historyRetention: Int? = nil, aliases: [String] = []) {
        self.account = account.lowercased()
        self.aliases = aliases
        var random = SeededRandom(seed: seed)
        self.currentHistoryId = 100_000 + random.next() % 900_000
        self.random = random
        self.retention = historyRetention
        self.oldestValidStart = currentHistoryId
    }

    // MARK: Reading

    public func message(_ id: String) -> StoredMessage? { messages[id] }

    public var messageCount: Int { messages.count }

    public var threadCount: Int { Set(messages.values.map(\.threadId)).count }

    public var labelCatalog: LabelCatalog { labels }

    /// The messages of a thread, oldest first, as Gmail orders them.
    public func thread(_ threadId: String) -> [StoredMessage] {
        messages.values.filter { $0.threadId == threadId }
            .sorted { ($0.internalDateMs, $0.id) < ($1.internalDateMs, $1.id) }
    }

    /// The cached snippet of a message, computing it on first use.
    public func snippet(for id: String) -> String {
        guard var message = messages[id] else { return "" }
        if let cached = message.snippet { return cached }
        let snippet = SnippetMaker.snippet(raw: message.raw)
        message.snippet = snippet
        messages[id] = message
        return snippet
    }

    /// Per-label counters for `labels.get`.
    public func counters(label: String) -> (messages: Int, unread: Int, threads: Int, threadsUnread: Int) {
        let carrying = messages.values.filter { $0.labelIds.contains(label) }
        let unread = carrying.filter { $0.labelIds.contains("UNREAD") }
        return (carrying.count, unread.count, Set(carrying.map(\.threadId)).count, Set(unread.map(\.threadId)).count)
    }

    // MARK: Inserting

    /// Adds a message. `recordHistory` is false while loading the initial mailbox (its past is not replayable).
    /// - Parameter labelNames: label ids or Takeout names; `nil` applies the defaults (INBOX+UNREAD, or SENT for own mail).
    @discardableResult
    public func insert(raw: [UInt8], labelNames: [String]?, internalDateMs: Int64? = nil, recordHistory: Bool = true)
        -> StoredMessage
    {
        let (headers, _) = HeaderBlock.parse(raw[...])
        let text: (String) -> String? = { name in headers.first(name).map { String(decoding: $0, as: UTF8.self) } }
        let date = internalDateMs ?? text("Date").flatMap(MailDate.parse) ?? Int64(Date().timeIntervalSince1970 * 1000)
        var labelIds: [String] = []
        if let labelNames {
            for name in labelNames { if let id = labels.resolve(name), !labelIds.contains(id) { labelIds.append(id) } }
        } else if (text("From") ?? "").lowercased().contains(account) {
            labelIds = ["SENT"]
        } else {
            labelIds = ["INBOX", "UNREAD", "CATEGORY_PERSONAL"]
        }
        let id = newMessageId()
        let messageID = text("Message-ID").map(MailboxState.normaliseMessageID)
        var threadId = id
        let related =
            (text("In-Reply-To").map { [$0] } ?? [])
            + (text("References").map { $0.split(separator: " ").map(String.init) } ?? [])
        for reference in related.reversed() {
            if let known = threadByMessageID[MailboxState.normaliseMessageID(reference)] {
                threadId = known
                break
            }
        }
        if let messageID, !messageID.isEmpty, threadByMessageID[messageID] == nil {
            threadByMessageID[messageID] = threadId
        }
        let historyId = nextHistoryId()
        let message = StoredMessage(
            id: id, threadId: threadId, labelIds: labelIds, internalDateMs: date,
            historyId: historyId, raw: raw)
        messages[id] = message
        insertInOrder(message)
        if recordHistory {
            append(MailboxChangeRecord(id: historyId, changes: [.messageAdded(message.reference)]))
            journal?.append(.insert(raw: Data(raw), labels: labelNames, internalDateMs: internalDateMs))
        } else {
            oldestValidStart = historyId
        }
        return message
    }

    /// Files a new message under `id` in `threadId` (a thread of its own when `nil`), with one
    /// `messagesAdded` record. For messages the account itself makes (sent mail, drafts), whose thread
    /// is decided by Gmail's rule for outgoing mail, not by references alone.
    func store(id: String, raw: [UInt8], labelIds: [String], threadId: String?, internalDateMs: Int64)
        -> StoredMessage
    {
        let threadId = threadId ?? id
        if let messageID = SubmittedMessage.messageID(of: raw), threadByMessageID[messageID] == nil {
            threadByMessageID[messageID] = threadId
        }
        let message = StoredMessage(
            id: id, threadId: threadId, labelIds: labelIds, internalDateMs: internalDateMs,
            historyId: nextHistoryId(), raw: raw)
        messages[id] = message
        insertInOrder(message)
        append(MailboxChangeRecord(id: message.historyId, changes: [.messageAdded(message.reference)]))
        return message
    }

    /// Removes a message for good with a `messagesDeleted` record, without journaling it: the caller
    /// journals the change it is part of.
    func discard(_ id: String) {
        guard let message = messages.removeValue(forKey: id) else { return }
        order.removeAll { $0 == id }
        append(MailboxChangeRecord(id: nextHistoryId(), changes: [.messageDeleted(message.reference)]))
    }

    func newMessageId() -> String {
        while true {
            let candidate = String(random.next() | 0x1000_0000_0000_0000, radix: 16)
            if messages[candidate] == nil { return candidate }
        }
    }

    static func normaliseMessageID(_ value: String) -> String {
        value.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
    }

    private func sortsBefore(_ a: (Int64, String), _ b: (Int64, String)) -> Bool { a > b }

    private func insertInOrder(_ message: StoredMessage) {
        let key = (message.internalDateMs, message.id)
        var low = 0
        var high = order.count
        while low < high {
            let mid = (low + high) / 2
            let other = messages[order[mid]].map { ($0.internalDateMs, $0.id) } ?? (0, "")
            if sortsBefore(other, key) { low = mid + 1 } else { high = mid }
        }
        order.insert(message.id, at: low)
    }

    // MARK: Mutating

    /// Adds and removes labels; only real changes produce a history record.
    @discardableResult
    public func modify(_ id: String, add: [String], remove: [String]) throws(GmailError) -> StoredMessage {
        try validate(add: add, remove: remove)
        guard messages[id] != nil else { throw .notFound }
        journal?.append(.modify(ids: [id], add: add, remove: remove, history: true))
        return applyLabels(id, add: add, remove: remove)
    }

    /// Changes labels WITHOUT a history record, as Gmail occasionally does: the drift that only
    /// chatmail's periodic label reconciliation can catch. For tests of that reconciliation.
    @discardableResult
    public func modifyWithoutHistory(_ id: String, add: [String], remove: [String]) throws(GmailError) -> StoredMessage
    {
        try validate(add: add, remove: remove)
        guard messages[id] != nil else { throw .notFound }
        journal?.append(.modify(ids: [id], add: add, remove: remove, history: false))
        return applyLabels(id, add: add, remove: remove, recordHistory: false)
    }

    /// `batchModify`: skips unknown ids silently (Gmail's behaviour is undocumented).
    public func batchModify(_ ids: [String], add: [String], remove: [String]) throws(GmailError) {
        try validate(add: add, remove: remove)
        journal?.append(.modify(ids: ids, add: add, remove: remove, history: true))
        for id in ids where messages[id] != nil { applyLabels(id, add: add, remove: remove) }
    }

    /// Adds TRASH and removes INBOX, remembering it for `untrash` (Gmail's behaviour is undocumented).
    @discardableResult
    public func trash(_ id: String) throws(GmailError) -> StoredMessage {
        guard let message = messages[id] else { throw .notFound }
        let hadInbox = message.labelIds.contains("INBOX")
        journal?.append(.trash(id: id))
        let result = applyLabels(id, add: ["TRASH"], remove: ["INBOX"])
        if hadInbox { messages[id]?.hadInboxBeforeTrash = true }
        return messages[id] ?? result
    }

    /// Removes TRASH and restores INBOX when trash removed it.
    @discardableResult
    public func untrash(_ id: String) throws(GmailError) -> StoredMessage {
        guard let message = messages[id] else { throw .notFound }
        journal?.append(.untrash(id: id))
        let restore = message.hadInboxBeforeTrash && message.labelIds.contains("TRASH") ? ["INBOX"] : []
        messages[id]?.hadInboxBeforeTrash = false
        return applyLabels(id, add: restore, remove: ["TRASH"])
    }

    /// Permanent deletion: a `messagesDeleted` record.
    public func delete(_ id: String) throws(GmailError) {
        guard messages[id] != nil else { throw .notFound }
        journal?.append(.delete(id: id))
        discard(id)
    }

    func validate(add: [String], remove: [String]) throws(GmailError) {
        guard add.count <= 100, remove.count <= 100 else {
            throw .badRequest("Too many label ids (limit 100).", reason: "invalidArgument")
        }
        for label in add + remove where !labels.contains(label) || LabelCatalog.clientReadOnly.contains(label) {
            throw .invalidLabel(label)
        }
        if add.filter({ ["INBOX", "SPAM", "TRASH"].contains($0) }).count > 1 {
            throw .badRequest("Invalid label combination: \(add.joined(separator: ", "))", reason: "invalidArgument")
        }
    }

    @discardableResult
    func applyLabels(_ id: String, add: [String], remove: [String], recordHistory: Bool = true) -> StoredMessage {
        guard var message = messages[id] else { preconditionFailure("applyLabels on missing message \(id)") }
        let added = add.reduce(into: [String]()) { acc, l in
            if !message.labelIds.contains(l) && !acc.contains(l) { acc.append(l) }
        }
        let removed = remove.reduce(into: [String]()) { acc, l in
            if message.labelIds.contains(l) && !add.contains(l) && !acc.contains(l) { acc.append(l) }
        }
        guard !added.isEmpty || !removed.isEmpty else { return message }
        message.labelIds.removeAll { removed.contains($0) }
        message.labelIds.append(contentsOf: added)
        guard recordHistory else {
            messages[id] = message
            return message
        }
        message.historyId = nextHistoryId()
        messages[id] = message
        var changes: [HistoryChange] = []
        if !added.isEmpty { changes.append(.labelsAdded(message.reference, added)) }
        if !removed.isEmpty { changes.append(.labelsRemoved(message.reference, removed)) }
        append(MailboxChangeRecord(id: message.historyId, changes: changes))
        return message
    }

    // MARK: Journal

    /// Writes every later successful change to `journal`.
    func record(to journal: MailboxJournal) { self.journal = journal }

    /// Re-applies one journaled change, as the request that made it did.
    ///
    /// - throws: ``GmailError`` when the change no longer fits the mailbox (its files were changed
    ///   since the journal was written).
    func apply(_ entry: MailboxJournal.Entry) throws(GmailError) {
        switch entry {
        case .modify(let ids, let add, let remove, let history):
            for id in ids where messages[id] != nil {
                applyLabels(id, add: add, remove: remove, recordHistory: history)
            }
        case .trash(let id): try trash(id)
        case .untrash(let id): try untrash(id)
        case .delete(let id): try delete(id)
        case .insert(let raw, let labels, let internalDateMs):
            insert(raw: [UInt8](raw), labelNames: labels, internalDateMs: internalDateMs)
        case .send(let raw, let threadId, let internalDateMs):
            try send(raw: [UInt8](raw), threadId: threadId, nowMs: internalDateMs)
        case .saveDraft(let id, let raw, let threadId, let internalDateMs):
            try saveDraft(id: id, raw: [UInt8](raw), threadId: threadId, nowMs: internalDateMs)
        case .deleteDraft(let id): try deleteDraft(id)
        case .sendDraft(let id, let internalDateMs): try sendDraft(id, nowMs: internalDateMs)
        case .refreshTokenIssued, .tokenRevoked: break  // the OAuth server's
        }
    }

    // MARK: History

    private func nextHistoryId() -> UInt64 {
        currentHistoryId += 1 + random.next() % 17
        return currentHistoryId
    }

    private func append(_ record: MailboxChangeRecord) {
        records.append(record)
        if let retention, records.count > retention { dropRecords(count: records.count - retention) }
    }

    private func dropRecords(count: Int) {
        guard count > 0 else { return }
        let dropped = records.prefix(count)
        if let last = dropped.last { oldestValidStart = max(oldestValidStart, last.id) }
        records.removeFirst(min(count, records.count))
    }

    /// Drops records with ids below `beforeId`, or every record when `nil` (control API).
    public func expireHistory(before beforeId: UInt64?) {
        guard let beforeId else {
            dropRecords(count: records.count)
            oldestValidStart = currentHistoryId
            return
        }
        dropRecords(count: records.prefix { $0.id < beforeId }.count)
    }

    /// Changes the retained record count and applies it now.
    public func setRetention(_ count: Int?) {
        retention = count
        if let count, records.count > count { dropRecords(count: records.count - count) }
    }

    /// Records strictly after `start` up to `upperBound`; 404 when `start` predates retained history.
    public func history(after start: UInt64, upperBound: UInt64?) throws(GmailError) -> (
        records: [MailboxChangeRecord], current: UInt64
    ) {
        guard start >= oldestValidStart else { throw .notFound }
        let upper = upperBound ?? currentHistoryId
        var low = 0
        var high = records.count
        while low < high {
            let mid = (low + high) / 2
            if records[mid].id <= start { low = mid + 1 } else { high = mid }
        }
        return (Array(records[low...].prefix { $0.id <= upper }), currentHistoryId)
    }

    // MARK: Listing

    /// One `messages.list` page (newest first) plus the total match count as the estimate.
    public func list(matching predicate: @Sendable (StoredMessage) -> Bool, after cursor: (Int64, String)?, limit: Int)
        -> (page: [StoredMessage], hasMore: Bool, total: Int)
    {
        var page: [StoredMessage] = []
        var total = 0
        var hasMore = false
        for id in order {
            guard let message = messages[id], predicate(message) else { continue }
            total += 1
            if let cursor, !((message.internalDateMs, message.id) < cursor) { continue }
            if page.count < limit { page.append(message) } else { hasMore = true }
        }
        return (page, hasMore, total)
    }
}
