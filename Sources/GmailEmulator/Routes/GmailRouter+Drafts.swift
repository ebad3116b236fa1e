/// `drafts.create`, `list`, `get`, `update`, `delete` and `send`, with the message given as JSON
/// (`{"message": {"raw": ..., "threadId": ...}}`); the upload paths of drafts are not served.
extension GmailRouter {
    func draftSave(_ id: String?, _ request: EmulatorRequest) async throws(GmailError) -> EmulatorResponse {
        guard request.body.count <= Self.jsonBodyLimit else { throw .payloadTooLarge(limit: Self.jsonBodyLimit) }
        guard let body = JSONValue.parse(request.body), case .object = body else {
            throw .badRequest("Invalid JSON payload received.")
        }
        let (raw, threadId) = try Self.messageResource(body["message"])
        let saved = try await mailbox.saveDraft(id: id, raw: raw, threadId: threadId, nowMs: Self.nowMs)
        return .json(.object([("id", .string(saved.id)), ("message", Self.reference(saved.message.reference))]))
    }

    func draftGet(_ id: String, _ request: EmulatorRequest) async throws(GmailError) -> EmulatorResponse {
        let format = try GmailRouter.format(request)
        guard let message = await mailbox.draft(id) else { throw .notFound }
        return .json(.object([("id", .string(id)), ("message", await render(message, format, request))]))
    }

    /// Newest first, at most `maxResults`, in one page (the emulator hands out no page token for drafts).
    func draftsList(_ request: EmulatorRequest) async throws(GmailError) -> EmulatorResponse {
        let limit = try GmailRouter.pageSize(request)
        let drafts = await mailbox.allDrafts()
        let entries: [JSONValue] = drafts.prefix(limit).map { draft in
            .object([
                ("id", .string(draft.id)),
                (
                    "message",
                    .object([("id", .string(draft.message.id)), ("threadId", .string(draft.message.threadId))])
                ),
            ])
        }
        return .json(
            JSONValue.compact([("drafts", .array(entries)), ("resultSizeEstimate", .int(Int64(drafts.count)))]))
    }

    /// `{"id": "r..."}`: sends the draft's current message and deletes the draft.
    func draftSend(_ request: EmulatorRequest) async throws(GmailError) -> EmulatorResponse {
        guard let body = JSONValue.parse(request.body), let id = body["id"]?.stringValue, !id.isEmpty else {
            throw .badRequest("Draft id required", reason: "invalidArgument")
        }
        return minimal(try await mailbox.sendDraft(id, nowMs: Self.nowMs))
    }
}
