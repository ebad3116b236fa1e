import Foundation

/// The `/gmail/v1/users/{userId}/...` front door (and `/upload/gmail/v1/...` for media uploads):
/// authentication, delegation check, method resolution, fault injection, quota, then the resource
/// handler, then `fields=` filtering.
///
/// Batch parts go through `handle(_:)` too, so every inner call gets the same checks and costs.
struct GmailRouter: Sendable {
    let mailbox: MailboxState
    let oauth: OAuthServer
    let faults: FaultInjector
    let quota: QuotaLedger
    let inlineLimit: Int

    /// A resolved Gmail method: its name (for costs and faults), the message id it targets, and its body.
    struct Route: Sendable {
        var name: String
        var messageId: String?
        var run: @Sendable (EmulatorRequest) async throws(GmailError) -> EmulatorResponse
    }

    /// Handles one Gmail API request; the method name is returned for the request log.
    func handle(_ request: EmulatorRequest) async -> (EmulatorResponse, String?) {
        guard let token = request.bearerToken ?? request.param("access_token"), await oauth.isValid(accessToken: token)
        else {
            return (.error(.unauthenticated), nil)
        }
        let (upload, segments) = GmailRouter.split(request.segments)
        guard segments.count >= 4, segments[0] == "gmail", segments[1] == "v1", segments[2] == "users" else {
            return (.error(.notFound), nil)
        }
        let userId = segments[3]
        guard userId == "me" || userId.lowercased() == mailbox.account else {
            return (.error(.delegationDenied(userId)), nil)
        }
        let route: Route
        do throws(GmailError) {
            route = try resolve(request.method, Array(segments.dropFirst(4)), upload: upload)
        } catch {
            return (.error(error), nil)
        }

        var emptyHistoryPage = false
        var afterCommit: FaultKind?
        if let fault = await faults.fault(method: route.name, messageId: route.messageId) {
            switch fault {
            case .drop: return (EmulatorResponse(status: 0, dropConnection: true), route.name)
            case .slow(let ms): try? await Task.sleep(for: .milliseconds(ms))
            case .hold: await faults.hold()
            case .emptyHistoryPage: emptyHistoryPage = true
            case .commitThenDrop, .commitThenError500: afterCommit = fault
            default: if let error = fault.error { return (.error(error), route.name) }
            }
        }
        if let wait = await quota.charge(method: route.name) {
            return (.error(.quotaExceeded(retryAfter: wait)), route.name)
        }
        var response: EmulatorResponse
        do throws(GmailError) {
            if emptyHistoryPage {
                response = try await emptyHistory(request)
            } else {
                response = try await route.run(request)
            }
        } catch {
            return (.error(error), route.name)
        }
        switch afterCommit {
        case .commitThenDrop: return (EmulatorResponse(status: 0, resetConnection: true), route.name)
        case .commitThenError500: return (.error(.backendError), route.name)
        default: break
        }
        if let fields = request.param("fields"), response.status == 200 {
            guard let mask = FieldMask(fields) else {
                return (.error(.badRequest("Invalid field selection \(fields)")), route.name)
            }
            if let value = JSONValue.parse(response.body) { response.body = mask.apply(to: value).serialized() }
        }
        return (response, route.name)
    }

    /// The Gmail method name and message id a request targets, from its method and path alone (no
    /// authentication, no body): what an early fault needs to pick its rule.
    func methodName(of request: EmulatorRequest) -> (name: String, messageId: String?)? {
        let (upload, segments) = GmailRouter.split(request.segments)
        guard segments.count >= 4, segments[0] == "gmail", segments[1] == "v1", segments[2] == "users" else {
            return nil
        }
        guard let route = try? resolve(request.method, Array(segments.dropFirst(4)), upload: upload) else {
            return nil
        }
        return (route.name, route.messageId)
    }

    /// Whether `path` is a Gmail method: `/gmail/v1/...`, or its media-upload form `/upload/gmail/v1/...`.
    static func isGmail(_ path: String) -> Bool { path.hasPrefix("/gmail/") || path.hasPrefix("/upload/gmail/") }

    /// The segments of a Gmail path without the `upload` prefix, and whether it was there.
    private static func split(_ segments: [String]) -> (upload: Bool, segments: [String]) {
        segments.first == "upload" ? (true, Array(segments.dropFirst())) : (false, segments)
    }

    /// Maps method + path below `users/{userId}` to a route. Of the upload paths, only `messages.send`'s
    /// is served (drafts take their message as JSON only).
    private func resolve(_ method: String, _ rest: [String], upload: Bool) throws(GmailError) -> Route {
        // `threadId` is only checked: faults aimed at a message id must not hit thread calls.
        func route(
            _ name: String, _ id: String? = nil, threadId: String? = nil,
            _ run: @escaping @Sendable (EmulatorRequest) async throws(GmailError) -> EmulatorResponse
        ) throws(GmailError) -> Route {
            for id in [id, threadId].compactMap(\.self) where id.isEmpty || !id.allSatisfy(\.isHexDigit) {
                throw .badRequest("Invalid id value")
            }
            return Route(name: name, messageId: id, run: run)
        }
        if upload {
            guard method == "POST", rest == ["messages", "send"] else { throw .notFound }
            return try route("messages.send") { r throws(GmailError) in try await self.sendUpload(r) }
        }
        switch (method, rest.count, rest.first ?? "") {
        case ("GET", 1, "profile"): return try route("getProfile") { _ throws(GmailError) in await self.profile() }
        case ("GET", 1, "labels"): return try route("labels.list") { _ throws(GmailError) in await self.labelsList() }
        case ("GET", 2, "labels"):
            return try route("labels.get") { _ throws(GmailError) in try await self.labelGet(rest[1]) }
        case ("GET", 2, "settings") where rest[1] == "sendAs":
            return try route("settings.sendAs.list") { _ throws(GmailError) in self.sendAsList() }
        case ("GET", 1, "messages"):
            return try route("messages.list") { r throws(GmailError) in try await self.messagesList(r) }
        case ("POST", 2, "messages") where rest[1] == "batchModify":
            return try route("messages.batchModify") { r throws(GmailError) in try await self.batchModify(r) }
        case ("POST", 2, "messages") where rest[1] == "send":
            return try route("messages.send") { r throws(GmailError) in try await self.sendJSON(r) }
        case ("POST", 2, "messages") where rest[1] == "batchDelete":
            return try route("messages.batchDelete") { r throws(GmailError) in try await self.batchDelete(r) }
        case ("GET", 2, "messages"):
            return try route("messages.get", rest[1]) { r throws(GmailError) in try await self.messageGet(rest[1], r) }
        case ("DELETE", 2, "messages"):
            return try route("messages.delete", rest[1]) { _ throws(GmailError) in
                try await self.mailbox.delete(rest[1])
                return .noContent
            }
        case ("POST", 3, "messages") where rest[2] == "modify":
            return try route("messages.modify", rest[1]) { r throws(GmailError) in try await self.modify(rest[1], r) }
        case ("POST", 3, "messages") where rest[2] == "trash":
            return try route("messages.trash", rest[1]) { _ throws(GmailError) in
                self.minimal(try await self.mailbox.trash(rest[1]))
            }
        case ("POST", 3, "messages") where rest[2] == "untrash":
            return try route("messages.untrash", rest[1]) { _ throws(GmailError) in
                self.minimal(try await self.mailbox.untrash(rest[1]))
            }
        case ("GET", 4, "messages") where rest[2] == "attachments":
            return try route("messages.attachments.get", rest[1]) { _ throws(GmailError) in
                try await self.attachment(rest[1], rest[3])
            }
        case ("GET", 1, "history"):
            return try route("history.list") { r throws(GmailError) in try await self.historyList(r) }
        case ("GET", 1, "drafts"):
            return try route("drafts.list") { r throws(GmailError) in try await self.draftsList(r) }
        case ("POST", 1, "drafts"):
            return try route("drafts.create") { r throws(GmailError) in try await self.draftSave(nil, r) }
        case ("POST", 2, "drafts") where rest[1] == "send":
            return try route("drafts.send") { r throws(GmailError) in try await self.draftSend(r) }
        case ("GET", 2, "drafts"):
            return try route("drafts.get") { r throws(GmailError) in try await self.draftGet(rest[1], r) }
        case ("PUT", 2, "drafts"):
            return try route("drafts.update") { r throws(GmailError) in try await self.draftSave(rest[1], r) }
        case ("DELETE", 2, "drafts"):
            return try route("drafts.delete") { _ throws(GmailError) in
                try await self.mailbox.deleteDraft(rest[1])
                return .noContent
            }
        case ("GET", 1, "threads"):
            return try route("threads.list") { r throws(GmailError) in try await self.threadsList(r) }
        case ("GET", 2, "threads"):
            return try route("threads.get", threadId: rest[1]) { r throws(GmailError) in
                try await self.threadGet(rest[1], r)
            }
        case ("POST", 3, "threads") where rest[2] == "modify":
            return try route("threads.modify", threadId: rest[1]) { r throws(GmailError) in
                try await self.threadModify(rest[1], r)
            }
        case ("POST", 3, "threads") where rest[2] == "trash":
            return try route("threads.trash", threadId: rest[1]) { _ throws(GmailError) in
                try await self.threadTrash(rest[1])
            }
        case ("POST", 3, "threads") where rest[2] == "untrash":
            return try route("threads.untrash", threadId: rest[1]) { _ throws(GmailError) in
                try await self.threadUntrash(rest[1])
            }
        default:
            throw .notFound
        }
    }
}
