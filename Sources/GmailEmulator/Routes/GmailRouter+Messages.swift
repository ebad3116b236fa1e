import Foundation
import GmailModel

/// Profile, labels, sendAs and messages handlers.
extension GmailRouter {
    func profile() async -> EmulatorResponse {
        .json(
            .object([
                ("emailAddress", .string(mailbox.account)), ("messagesTotal", .int(Int64(await mailbox.messageCount))),
                ("threadsTotal", .int(Int64(await mailbox.threadCount))),
                ("historyId", .string(String(await mailbox.currentHistoryId))),
            ]))
    }

    func labelsList() async -> EmulatorResponse {
        let catalog = await mailbox.labelCatalog
        let labels =
            LabelCatalog.systemIds.map { Self.labelFields(id: $0, name: $0, isSystem: true) }
            + catalog.userLabels.map { Self.labelFields(id: $0.id, name: $0.name, isSystem: false) }
        return .json(.object([("labels", .array(labels.map { JSONValue.compact($0) }))]))
    }

    /// A label as `labels.list` shows it; `labels.get` adds the counters (Gmail's full Label resource).
    static func labelFields(id: String, name: String, isSystem: Bool) -> [(String, JSONValue?)] {
        let hidden = isSystem && (id.hasPrefix("CATEGORY_") || id == "CHAT")
        return [
            ("id", .string(id)), ("name", .string(name)),
            ("messageListVisibility", isSystem ? (hidden ? .string("hide") : nil) : .string("show")),
            ("labelListVisibility", isSystem ? (hidden ? .string("labelHide") : nil) : .string("labelShow")),
            ("type", .string(isSystem ? "system" : "user")),
        ]
    }

    func labelGet(_ id: String) async throws(GmailError) -> EmulatorResponse {
        let catalog = await mailbox.labelCatalog
        guard let name = catalog.name(of: id) else { throw .notFound }
        let c = await mailbox.counters(label: id)
        let isSystem = LabelCatalog.systemIds.contains(id)
        return .json(
            .compact(
                Self.labelFields(id: id, name: name, isSystem: isSystem) + [
                    ("messagesTotal", .int(Int64(c.messages))), ("messagesUnread", .int(Int64(c.unread))),
                    ("threadsTotal", .int(Int64(c.threads))), ("threadsUnread", .int(Int64(c.threadsUnread))),
                ]))
    }

    func sendAsList() -> EmulatorResponse {
        let primary = JSONValue.object([
            ("sendAsEmail", .string(mailbox.account)), ("displayName", .string("")), ("replyToAddress", .string("")),
            ("signature", .string("")), ("isPrimary", .bool(true)), ("isDefault", .bool(true)),
            ("verificationStatus", .string("accepted")),
        ])
        let aliases = mailbox.aliases.map { alias in
            JSONValue.object([
                ("sendAsEmail", .string(alias)), ("displayName", .string("")), ("replyToAddress", .string("")),
                ("signature", .string("")), ("treatAsAlias", .bool(true)), ("verificationStatus", .string("accepted")),
            ])
        }
        return .json(.object([("sendAs", .array([primary] + aliases))]))
    }

    /// `maxResults` with Gmail's default 100 and clamp to 500.
    static func pageSize(_ request: EmulatorRequest) throws(GmailError) -> Int {
        guard let text = request.param("maxResults") else { return 100 }
        guard let value = Int(text), value >= 0 else {
            throw .badRequest("Invalid value for maxResults: \(text)", reason: "invalidArgument")
        }
        return value == 0 ? 100 : min(value, 500)
    }

    func messagesList(_ request: EmulatorRequest) async throws(GmailError) -> EmulatorResponse {
        let limit = try GmailRouter.pageSize(request)
        var cursor: (Int64, String)?
        if let token = request.param("pageToken"), !token.isEmpty {
            guard case .messages(let date, let id)? = PageToken(token) else { throw .badRequest("Invalid pageToken") }
            cursor = (date, id)
        }
        let result = await mailbox.list(matching: try await listFilter(request), after: cursor, limit: limit)
        let next =
            result.hasMore
            ? result.page.last.map { PageToken.messages(internalDateMs: $0.internalDateMs, id: $0.id).encoded } : nil
        return .json(
            JSONValue.compact([
                (
                    "messages",
                    .array(result.page.map { .object([("id", .string($0.id)), ("threadId", .string($0.threadId))]) })
                ),
                ("nextPageToken", next.map(JSONValue.string)), ("resultSizeEstimate", .int(Int64(result.total))),
            ]))
    }

    /// The `q`, `labelIds` and `includeSpamTrash` filter that `messages.list` and `threads.list` share.
    /// SPAM and TRASH are left out unless asked for, or named by `labelIds` or the query.
    func listFilter(_ request: EmulatorRequest) async throws(GmailError) -> @Sendable (StoredMessage) -> Bool {
        let labelIds = request.params("labelIds")
        let query = MessageQuery(
            request.param("q") ?? "", labels: await mailbox.labelCatalog,
            nowMs: Int64(Date().timeIntervalSince1970 * 1000))
        let includeSpamTrash =
            try GmailRouter.flag(request, "includeSpamTrash") || query.mentionsSpamOrTrash
            || labelIds.contains("SPAM") || labelIds.contains("TRASH")
        return { message in
            if !includeSpamTrash && (message.labelIds.contains("SPAM") || message.labelIds.contains("TRASH")) {
                return false
            }
            return labelIds.allSatisfy(message.labelIds.contains) && query.matches(message)
        }
    }

    /// A boolean query parameter: absent is false; anything but `true`/`false` is a 400, as Gmail answers.
    static func flag(_ request: EmulatorRequest, _ name: String) throws(GmailError) -> Bool {
        switch request.param(name)?.lowercased() {
        case nil, "false": return false
        case "true": return true
        case let text?:
            throw .badRequest("Invalid value at '\(name)' (TYPE_BOOL), \"\(text)\"", reason: "invalidArgument")
        }
    }

    static func format(_ request: EmulatorRequest, allowRaw: Bool = true) throws(GmailError) -> MessageRenderer.Format {
        let text = request.param("format") ?? "full"
        guard let format = MessageRenderer.Format(rawValue: text), allowRaw || format != .raw else {
            throw .badRequest("Invalid value at 'format' (\(text))", reason: "invalidArgument")
        }
        return format
    }

    func render(_ message: StoredMessage, _ format: MessageRenderer.Format, _ request: EmulatorRequest) async
        -> JSONValue
    {
        let snippet = await mailbox.snippet(for: message.id)
        let renderer = MessageRenderer(inlineLimit: inlineLimit, attachmentNonce: UInt64.random(in: 0..<1_000_000))
        return renderer.render(
            message, snippet: snippet, format: format, metadataHeaders: request.params("metadataHeaders"))
    }

    func messageGet(_ id: String, _ request: EmulatorRequest) async throws(GmailError) -> EmulatorResponse {
        let format = try GmailRouter.format(request)
        guard let message = await mailbox.message(id) else { throw .notFound }
        return .json(await render(message, format, request))
    }

    /// The minimal shape returned by modify/trash/untrash, as seen from real Gmail.
    func minimal(_ message: StoredMessage) -> EmulatorResponse {
        .json(
            JSONValue.compact([
                ("id", .string(message.id)), ("threadId", .string(message.threadId)),
                ("labelIds", .array(message.labelIds.map(JSONValue.string))),
            ]))
    }

    static func labelLists(_ request: EmulatorRequest) throws(GmailError) -> (
        add: [String], remove: [String], ids: [String]
    ) {
        let body = request.body.isEmpty ? JSONValue.object([]) : JSONValue.parse(request.body)
        guard let body, case .object = body else { throw .badRequest("Invalid JSON payload received.") }
        let strings = { (key: String) in body[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        return (strings("addLabelIds"), strings("removeLabelIds"), strings("ids"))
    }

    func modify(_ id: String, _ request: EmulatorRequest) async throws(GmailError) -> EmulatorResponse {
        let lists = try GmailRouter.labelLists(request)
        return minimal(try await mailbox.modify(id, add: lists.add, remove: lists.remove))
    }

    func batchModify(_ request: EmulatorRequest) async throws(GmailError) -> EmulatorResponse {
        let lists = try GmailRouter.labelLists(request)
        guard lists.ids.count <= 1000 else {
            throw .badRequest("Too many ids: \(lists.ids.count), limit 1000", reason: "invalidArgument")
        }
        try await mailbox.batchModify(lists.ids, add: lists.add, remove: lists.remove)
        return .noContent
    }

    func batchDelete(_ request: EmulatorRequest) async throws(GmailError) -> EmulatorResponse {
        let lists = try GmailRouter.labelLists(request)
        guard lists.ids.count <= 1000 else {
            throw .badRequest("Too many ids: \(lists.ids.count), limit 1000", reason: "invalidArgument")
        }
        for id in lists.ids { try? await mailbox.delete(id) }
        return .noContent
    }

    func attachment(_ messageId: String, _ attachmentId: String) async throws(GmailError) -> EmulatorResponse {
        guard let message = await mailbox.message(messageId) else { throw .notFound }
        guard let parsed = AttachmentID(attachmentId), parsed.messageId == messageId else {
            throw .badRequest("Invalid attachment id")
        }
        guard let bytes = MessageRenderer.partBody(raw: message.raw, partId: parsed.partId) else { throw .notFound }
        return .json(JSONValue(MessagePartBody(size: bytes.count, data: Base64URL.encode(bytes, padded: true))))
    }
}
