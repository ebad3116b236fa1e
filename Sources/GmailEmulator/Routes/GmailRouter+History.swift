/// `history.list`: typed records, filters, stable pages, retention 404.
extension GmailRouter {
    func historyList(_ request: EmulatorRequest) async throws(GmailError) -> EmulatorResponse {
        let limit = try GmailRouter.pageSize(request)
        guard let startText = request.param("startHistoryId"), let start = UInt64(startText) else {
            throw .badRequest("Invalid startHistoryId", reason: "invalidArgument")
        }
        var after = start
        var upper: UInt64?
        if let token = request.param("pageToken"), !token.isEmpty {
            guard case .history(let tokenAfter, let tokenUpper)? = PageToken(token) else {
                throw .badRequest("Invalid pageToken")
            }
            (after, upper) = (max(tokenAfter, start), tokenUpper)
        }
        let types = Set(request.params("historyTypes"))
        let labelId = request.param("labelId")
        let (records, current) = try await mailbox.history(after: after, upperBound: upper)
        let snapshot = upper ?? current
        var page: [JSONValue] = []
        var lastScanned = after
        var hasMore = false
        for record in records {
            let changes = record.changes.filter { change in
                (types.isEmpty || types.contains(change.typeName))
                    && (labelId.map { change.message.labelIds.contains($0) } ?? true)
            }
            if changes.isEmpty {
                lastScanned = record.id
                continue
            }
            if page.count == limit {
                hasMore = true
                break
            }
            page.append(GmailRouter.historyJSON(id: record.id, changes: changes))
            lastScanned = record.id
        }
        let next = hasMore ? PageToken.history(after: lastScanned, upperBound: snapshot).encoded : nil
        return .json(
            JSONValue.compact([
                ("history", .array(page)), ("nextPageToken", next.map(JSONValue.string)),
                ("historyId", .string(String(current))),
            ]))
    }

    /// Gmail's empty page: a token but no records; the token continues where the request began.
    func emptyHistory(_ request: EmulatorRequest) async throws(GmailError) -> EmulatorResponse {
        guard let startText = request.param("startHistoryId"), let start = UInt64(startText) else {
            throw .badRequest("Invalid startHistoryId", reason: "invalidArgument")
        }
        let (_, current) = try await mailbox.history(after: start, upperBound: nil)
        var token = PageToken.history(after: start, upperBound: current)
        if let text = request.param("pageToken"), let parsed = PageToken(text) { token = parsed }
        return .json(.object([("nextPageToken", .string(token.encoded)), ("historyId", .string(String(current)))]))
    }

    static func reference(_ message: MessageReference) -> JSONValue {
        JSONValue.compact([
            ("id", .string(message.id)), ("threadId", .string(message.threadId)),
            ("labelIds", .array(message.labelIds.map(JSONValue.string))),
        ])
    }

    static func historyJSON(id: UInt64, changes: [HistoryChange]) -> JSONValue {
        var added: [JSONValue] = []
        var deleted: [JSONValue] = []
        var labelsAdded: [JSONValue] = []
        var labelsRemoved: [JSONValue] = []
        var touched: [String] = []
        var messages: [JSONValue] = []
        for change in changes {
            let message = reference(change.message)
            if !touched.contains(change.message.id) {
                touched.append(change.message.id)
                messages.append(
                    .object([("id", .string(change.message.id)), ("threadId", .string(change.message.threadId))]))
            }
            switch change {
            case .messageAdded: added.append(.object([("message", message)]))
            case .messageDeleted: deleted.append(.object([("message", message)]))
            case .labelsAdded(_, let labels):
                labelsAdded.append(.object([("message", message), ("labelIds", .array(labels.map(JSONValue.string)))]))
            case .labelsRemoved(_, let labels):
                labelsRemoved.append(
                    .object([("message", message), ("labelIds", .array(labels.map(JSONValue.string)))]))
            }
        }
        return JSONValue.compact([
            ("id", .string(String(id))), ("messages", .array(messages)), ("messagesAdded", .array(added)),
            ("messagesDeleted", .array(deleted)), ("labelsAdded", .array(labelsAdded)),
            ("labelsRemoved", .array(labelsRemoved)),
        ])
    }
}
