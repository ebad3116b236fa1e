import Foundation

/// Routes a request to the Gmail API, batch, OAuth or control handlers and logs it.
///
/// Kept free of Hummingbird so the dispatch is a plain async function of a value.
struct EmulatorCore: Sendable {
    let mailbox: MailboxState
    let oauth: OAuthServer
    let faults: FaultInjector
    let quota: QuotaLedger
    let log: RequestLog
    let inlineLimit: Int
    let baseURL: @Sendable () -> String

    var router: GmailRouter {
        GmailRouter(mailbox: mailbox, oauth: oauth, faults: faults, quota: quota, inlineLimit: inlineLimit)
    }

    func handle(_ request: EmulatorRequest) async -> EmulatorResponse {
        let path = request.path
        var gmailMethod: String?
        let response: EmulatorResponse
        if GmailRouter.isGmail(path) {
            (response, gmailMethod) = await router.handle(request)
        } else if Self.isBatch(path) {
            guard request.method == "POST" else { return .error(.methodNotAllowed) }
            if let outer = await batchFault() {
                await log.record(
                    .init(
                        method: request.method, path: path, query: "", status: outer.status,
                        gmailMethod: FaultInjector.batchMethod, timeMs: Int64(Date().timeIntervalSince1970 * 1000)))
                return outer
            }
            let (batchResponse, inner) = await BatchHandler(router: router).handle(request)
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            for (line, status) in inner {
                // "GET /gmail/v1/users/me/messages/ID?format=full [HTTP/1.1]": log path and query apart, and
                // name the method, like a top-level request, so tests can tell a full fetch from a label read.
                let words = line.split(separator: " ").map(String.init)
                let target = words.count > 1 ? words[1] : ""
                let pieces = target.split(separator: "?", maxSplits: 1).map(String.init)
                let innerPath = pieces.first ?? ""
                let method = words.first ?? ""
                let isMessageGet =
                    method == "GET" && innerPath.contains("/messages/") && !innerPath.contains("/attachments/")
                await log.record(
                    .init(
                        method: method, path: "batch:" + innerPath, query: pieces.count > 1 ? pieces[1] : "",
                        status: status,
                        gmailMethod: isMessageGet ? "messages.get" : nil, timeMs: now))
            }
            response = batchResponse
        } else if path.hasPrefix("/_emulator/") {
            return await ControlRoutes(mailbox: mailbox, oauth: oauth, faults: faults, quota: quota, log: log).handle(
                request)
        } else {
            response = await oauthRoute(request)
        }
        await log.record(
            .init(
                method: request.method, path: path,
                query: request.query.map { "\($0.0)=\($0.1)" }.joined(separator: "&"),
                status: response.status, gmailMethod: gmailMethod, timeMs: Int64(Date().timeIntervalSince1970 * 1000)))
        return response
    }

    /// Whether the connection should be reset before the request body is read: a `dropBeforeBody` rule
    /// fired for the Gmail method (or outer batch) the request head names. Such a drop is logged with
    /// status 0, like every dropped request.
    func dropsBeforeBody(method: String, target: String) async -> Bool {
        let head = EmulatorRequest(method: method, target: target, headers: [:], body: [])
        let name: String
        let messageId: String?
        if Self.isBatch(head.path) {
            (name, messageId) = (FaultInjector.batchMethod, nil)
        } else if GmailRouter.isGmail(head.path), let resolved = router.methodName(of: head) {
            (name, messageId) = resolved
        } else {
            return false  // OAuth and control requests are never faulted
        }
        guard await faults.fault(method: name, messageId: messageId, stage: .beforeBody) == .dropBeforeBody else {
            return false
        }
        await log.record(
            .init(
                method: head.method, path: head.path,
                query: head.query.map { "\($0.0)=\($0.1)" }.joined(separator: "&"),
                status: 0, gmailMethod: name, timeMs: Int64(Date().timeIntervalSince1970 * 1000)))
        return true
    }

    /// A fault on the outer batch request itself (rules for method `batch`): a reset, an error status
    /// for the whole batch, or a delay before it runs.
    private func batchFault() async -> EmulatorResponse? {
        guard let fault = await faults.fault(method: FaultInjector.batchMethod, messageId: nil) else { return nil }
        switch fault {
        case .drop: return EmulatorResponse(status: 0, dropConnection: true)
        case .slow(let ms):
            try? await Task.sleep(for: .milliseconds(ms))
            return nil
        case .hold:
            await faults.hold()
            return nil
        default: return fault.error.map { .error($0) }
        }
    }

    static func isBatch(_ path: String) -> Bool { path == "/batch/gmail/v1" || path == "/batch" }

    private func oauthRoute(_ request: EmulatorRequest) async -> EmulatorResponse {
        switch (request.method, request.path) {
        case ("GET", "/o/oauth2/v2/auth"), ("GET", "/o/oauth2/auth"): return await oauth.authorize(request)
        case ("POST", "/token"), ("POST", "/o/oauth2/token"): return await oauth.token(request)
        case ("POST", "/revoke"): return await oauth.revoke(request)
        case ("POST", "/device/code"): return await oauth.deviceCode(request)
        case ("GET", "/.well-known/openid-configuration"):
            let base = baseURL()
            return .json(
                .object([
                    ("issuer", .string(base)), ("authorization_endpoint", .string(base + "/o/oauth2/v2/auth")),
                    ("device_authorization_endpoint", .string(base + "/device/code")),
                    ("token_endpoint", .string(base + "/token")),
                    ("revocation_endpoint", .string(base + "/revoke")),
                    ("response_types_supported", .array([.string("code")])),
                    ("code_challenge_methods_supported", .array([.string("plain"), .string("S256")])),
                    ("grant_types_supported", .array([.string("authorization_code"), .string("refresh_token")])),
                ]))
        default: return .error(.notFound)
        }
    }
}
