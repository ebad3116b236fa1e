import Foundation

/// `threads.get`, `threads.list`, `threads.modify`, `threads.trash` and `threads.untrash`.
extension GmailRouter {
    func threadGet(_ id: String, _ request: EmulatorRequest) async throws(GmailError) -> EmulatorResponse {
        let format = try GmailRouter.format(request, allowRaw: false)
        let members = await mailbox.thread(id)
        guard let last = members.last else { throw .notFound }
        var rendered: [JSONValue] = []
        for message in members { rendered.append(await render(message, format, request)) }
        return .json(
            .object([
                ("id", .string(id)), ("historyId", .string(String(members.map(\.historyId).max() ?? last.historyId))),
                ("messages", .array(rendered)),
            ]))
    }

    /// Threads newest first, each as `{id, snippet, historyId}` (no messages), filtered by the same
    /// `q`, `labelIds` and `includeSpamTrash` rules as `messages.list`.
    func threadsList(_ request: EmulatorRequest) async throws(GmailError) -> EmulatorResponse {
        let limit = try GmailRouter.pageSize(request)
        var cursor: (Int64, String)?
        if let token = request.param("pageToken"), !token.isEmpty {
            guard case .threads(let date, let id)? = PageToken(token) else { throw .badRequest("Invalid pageToken") }
            cursor = (date, id)
        }
        let result = await mailbox.listThreads(matching: try await listFilter(request), after: cursor, limit: limit)
        let summaries = await mailbox.threadSummaries(result.page.map(\.threadId))
        let threads: [JSONValue] = result.page.map { message in
            let summary = summaries[message.threadId]
            return .object([
                ("id", .string(message.threadId)), ("snippet", .string(summary?.snippet ?? "")),
                ("historyId", .string(String(summary?.historyId ?? message.historyId))),
            ])
        }
        let next =
            result.hasMore
            ? result.page.last.map { PageToken.threads(internalDateMs: $0.internalDateMs, id: $0.id).encoded } : nil
        return .json(
            JSONValue.compact([
                ("threads", .array(threads)), ("nextPageToken", next.map(JSONValue.string)),
                ("resultSizeEstimate", .int(Int64(result.total))),
            ]))
    }

    func threadModify(_ id: String, _ request: EmulatorRequest) async throws(GmailError) -> EmulatorResponse {
        let lists = try GmailRouter.labelLists(request)
        return threadShape(id, try await mailbox.modifyThread(id, add: lists.add, remove: lists.remove))
    }

    func threadTrash(_ id: String) async throws(GmailError) -> EmulatorResponse {
        threadShape(id, try await mailbox.trashThread(id))
    }

    func threadUntrash(_ id: String) async throws(GmailError) -> EmulatorResponse {
        threadShape(id, try await mailbox.untrashThread(id))
    }

    /// What the thread-changing methods answer: the thread id, its newest history id, and each
    /// message in the minimal shape `messages.modify` answers.
    func threadShape(_ id: String, _ members: [StoredMessage]) -> EmulatorResponse {
        .json(
            JSONValue.compact([
                ("id", .string(id)), ("historyId", members.map(\.historyId).max().map { .string(String($0)) }),
                (
                    "messages",
                    .array(
                        members.map { message in
                            JSONValue.compact([
                                ("id", .string(message.id)), ("threadId", .string(message.threadId)),
                                ("labelIds", .array(message.labelIds.map(JSONValue.string))),
                            ])
                        })
                ),
            ]))
    }
}
