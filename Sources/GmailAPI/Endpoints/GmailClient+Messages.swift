import Foundation
import GmailModel

/// `users.messages.*`: list, get, attachments, label changes, trash.
extension GmailClient {
    /// Gmail's limit on ids per `batchModify`.
    public static let batchModifyLimit = 1000
    /// Gmail's limit on label ids in each list of `modify`/`batchModify`.
    public static let labelListLimit = 100

    /// One page of `messages.list` (cost 5).
    /// - Parameters:
    ///   - query: Gmail search syntax (`in:inbox -in:chats`).
    ///   - labelIDs: messages must carry all of them; sent as repeated `labelIds`.
    ///   - maxResults: 1–500; chatmail uses the maximum to spend fewer calls.
    ///   - fields: a partial-response mask, e.g. `nextPageToken,messages(id,threadId)`.
    public func listMessages(
        query: String? = nil, labelIDs: [String] = [], includeSpamTrash: Bool = false, maxResults: Int = 500,
        pageToken: String? = nil,
        fields: String? = nil
    ) async throws -> ListMessagesResponse {
        var items: [(String, String)] = []
        if let query { items.append(("q", query)) }
        items += labelIDs.map { ("labelIds", $0) }
        if includeSpamTrash { items.append(("includeSpamTrash", "true")) }
        items.append(("maxResults", String(min(max(maxResults, 1), 500))))
        if let pageToken { items.append(("pageToken", pageToken)) }
        if let fields { items.append(("fields", fields)) }
        let response = try await execute(Call(endpoint: .listMessages, path: userPath("/messages"), query: items))
        return try decode(ListMessagesResponse.self, from: response)
    }

    /// Every message matching the filters: walks pages until one has no `nextPageToken` (never stops on
    /// `resultSizeEstimate`, which is only an estimate).
    /// - Throws: `.giveUp(.decoding)` if Gmail hands back a page token it already gave (a loop, not progress).
    public func listAllMessages(
        query: String? = nil, labelIDs: [String] = [], includeSpamTrash: Bool = false,
        fields: String? = "nextPageToken,messages(id,threadId)"
    ) async throws -> [MessageRef] {
        var refs: [MessageRef] = []
        var pageToken: String?
        var seenTokens: Set<String> = []
        repeat {
            let page = try await listMessages(
                query: query, labelIDs: labelIDs, includeSpamTrash: includeSpamTrash, maxResults: 500,
                pageToken: pageToken, fields: fields)
            refs += page.messages
            pageToken = page.nextPageToken
            if let token = pageToken, !seenTokens.insert(token).inserted {
                throw GmailAPIError.giveUp(.decoding(description: "messages.list repeated a page token"))
            }
        } while pageToken != nil
        return refs
    }

    /// `messages.get` (cost 5).
    /// - Throws: `.giveUp(.notFound(resource: "message"))` when the message is gone: routine during sync, skip it.
    public func getMessage(id: String, format: MessageFormat = .full, fields: String? = nil) async throws -> Message {
        let response = try await execute(
            Call(endpoint: .getMessage, path: messagePath(id), query: messageQuery(format: format, fields: fields)))
        return try decode(Message.self, from: response)
    }

    /// `messages.attachments.get` (cost 5). Attachment ids are ephemeral: on `.giveUp(.notFound)` or
    /// `.badRequest`, re-fetch the message and use the fresh id of the same part: attachment ids are ephemeral.
    public func getAttachment(messageID: String, attachmentID: String) async throws -> MessagePartBody {
        let path = messagePath(messageID) + "/attachments/" + FormEncoding.escape(attachmentID)
        return try decode(MessagePartBody.self, from: try await execute(Call(endpoint: .getAttachment, path: path)))
    }

    /// `messages.modify` (cost 5): adds and removes labels; returns the message in minimal shape.
    public func modify(id: String, add: [String] = [], remove: [String] = []) async throws -> Message {
        let body = try labelChangeBody(ids: nil, add: add, remove: remove)
        let call = Call(
            endpoint: .modify, method: "POST", path: messagePath(id) + "/modify", body: body,
            contentType: "application/json")
        return try decode(Message.self, from: try await execute(call))
    }

    /// `messages.batchModify` (cost 50 per chunk), split into chunks of at most 1000 ids, Gmail's limit.
    ///
    /// Every chunk must succeed: any 4xx is a failure, as Gmail gives no per-id result. Chunks run in order
    /// and stop at the first failure, because the cause (revoked login, bad label) would fail the rest as well.
    /// - Throws: `.giveUp(.batchPartsFailed(failedIDs:first:))` listing the ids of the failed and unsent chunks.
    public func batchModify(ids: [String], add: [String] = [], remove: [String] = []) async throws {
        let chunks = stride(from: 0, to: ids.count, by: Self.batchModifyLimit).map {
            Array(ids[$0..<min($0 + Self.batchModifyLimit, ids.count)])
        }
        for (index, chunk) in chunks.enumerated() {
            let body = try labelChangeBody(ids: chunk, add: add, remove: remove)
            let call = Call(
                endpoint: .batchModify, method: "POST", path: userPath("/messages/batchModify"), body: body,
                contentType: "application/json")
            do {
                _ = try await execute(call)
            } catch let error as GmailAPIError {
                throw GmailAPIError.giveUp(.batchPartsFailed(failedIDs: chunks[index...].flatMap { $0 }, first: error))
            }
        }
    }

    /// `messages.trash` (cost 5): adds TRASH; history later shows it as `labelsAdded`, not a deletion.
    public func trash(id: String) async throws -> Message {
        try decode(
            Message.self,
            from: try await execute(Call(endpoint: .trash, method: "POST", path: messagePath(id) + "/trash")))
    }

    /// `messages.untrash` (cost 5). Whether INBOX comes back is undocumented: re-read labels afterwards.
    public func untrash(id: String) async throws -> Message {
        try decode(
            Message.self,
            from: try await execute(Call(endpoint: .untrash, method: "POST", path: messagePath(id) + "/untrash")))
    }

    func messagePath(_ id: String) -> String {
        userPath("/messages/" + FormEncoding.escape(id))
    }

    func messageQuery(format: MessageFormat, fields: String?) -> [(String, String)] {
        format.queryItems + (fields.map { [("fields", $0)] } ?? [])
    }

    private func labelChangeBody(ids: [String]?, add: [String], remove: [String]) throws -> Data {
        guard add.count <= Self.labelListLimit, remove.count <= Self.labelListLimit else {
            throw GmailAPIError.badRequest(
                reason: "at most \(Self.labelListLimit) label ids may be added or removed at once")
        }
        var object: [String: [String]] = [:]
        if let ids { object["ids"] = ids }
        if !add.isEmpty { object["addLabelIds"] = add }
        if !remove.isEmpty { object["removeLabelIds"] = remove }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(object)
    }
}
