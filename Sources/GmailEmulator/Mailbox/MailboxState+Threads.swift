/// Thread-level reads and changes: a thread is the set of messages sharing a thread id, and every
/// thread method acts on each of its messages, so history keeps one record per message changed.
extension MailboxState {
    /// One `threads.list` page: threads ordered by their newest message that `predicate` accepts
    /// (newest first), each with that message's sort key for the page token, plus the matching thread
    /// count as the estimate.
    ///
    /// A thread is listed when at least one of its messages matches, as Gmail's search finds threads
    /// through their messages. `cursor` is the sort key of the last thread of the previous page; threads
    /// already seen before it are not listed again even when an older message of theirs also matches.
    func listThreads(
        matching predicate: @Sendable (StoredMessage) -> Bool, after cursor: (Int64, String)?, limit: Int
    ) -> (page: [StoredMessage], hasMore: Bool, total: Int) {
        var seen: Set<String> = []
        var page: [StoredMessage] = []
        var hasMore = false
        for id in order {
            guard let message = messages[id], predicate(message), !seen.contains(message.threadId) else { continue }
            seen.insert(message.threadId)
            if let cursor, !((message.internalDateMs, message.id) < cursor) { continue }
            if page.count < limit { page.append(message) } else { hasMore = true }
        }
        return (page, hasMore, seen.count)
    }

    /// Adds and removes labels on every message of a thread; each message that really changes gets
    /// its own history record.
    @discardableResult
    public func modifyThread(_ threadId: String, add: [String], remove: [String]) throws(GmailError)
        -> [StoredMessage]
    {
        try validate(add: add, remove: remove)
        let members = thread(threadId)
        guard !members.isEmpty else { throw .notFound }
        journal?.append(.modify(ids: members.map(\.id), add: add, remove: remove, history: true))
        return members.map { applyLabels($0.id, add: add, remove: remove) }
    }

    /// Trashes every message of a thread, as `trash` does one message.
    @discardableResult
    public func trashThread(_ threadId: String) throws(GmailError) -> [StoredMessage] {
        let members = thread(threadId)
        guard !members.isEmpty else { throw .notFound }
        var result: [StoredMessage] = []
        for message in members { result.append(try trash(message.id)) }
        return result
    }

    /// Untrashes every message of a thread, as `untrash` does one message.
    @discardableResult
    public func untrashThread(_ threadId: String) throws(GmailError) -> [StoredMessage] {
        let members = thread(threadId)
        guard !members.isEmpty else { throw .notFound }
        var result: [StoredMessage] = []
        for message in members { result.append(try untrash(message.id)) }
        return result
    }
}

extension MailboxState {
    /// For each of `threadIds`: the snippet of its newest message and its largest message history id,
    /// found in one pass over the mailbox.
    func threadSummaries(_ threadIds: [String]) -> [String: (snippet: String, historyId: UInt64)] {
        let wanted = Set(threadIds)
        var newest: [String: StoredMessage] = [:]
        var historyIds: [String: UInt64] = [:]
        for message in messages.values where wanted.contains(message.threadId) {
            historyIds[message.threadId] = max(historyIds[message.threadId] ?? 0, message.historyId)
            if let current = newest[message.threadId],
                (current.internalDateMs, current.id) > (message.internalDateMs, message.id)
            {
                continue
            }
            newest[message.threadId] = message
        }
        var result: [String: (snippet: String, historyId: UInt64)] = [:]
        for (threadId, message) in newest {
            result[threadId] = (snippet(for: message.id), historyIds[threadId] ?? message.historyId)
        }
        return result
    }
}
