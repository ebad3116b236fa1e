import Foundation
import GmailModel

/// The control API under `/_emulator`: lets tests play "the rest of the world" —
/// deliver mail, flip labels, delete, trash, expire history, set faults, read logs and quota.
/// No authentication: it is not part of Google's API and is only reachable on loopback.
struct ControlRoutes: Sendable {
    let mailbox: MailboxState
    let oauth: OAuthServer
    let faults: FaultInjector
    let quota: QuotaLedger
    let log: RequestLog

    func handle(_ request: EmulatorRequest) async -> EmulatorResponse {
        let action = request.segments.dropFirst().joined(separator: "/")
        let body = JSONValue.parse(request.body) ?? .object([])
        do throws(GmailError) {
            switch (request.method, action) {
            case ("POST", "deliver"): return try await deliver(request, body)
            case ("POST", "modify"):
                let id = try ControlRoutes.id(body)
                let strings = { (key: String) in body[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
                let message = try await mailbox.modify(
                    id, add: strings("addLabelIds"), remove: strings("removeLabelIds"))
                return ControlRoutes.summary(message)
            case ("POST", "trash"): return ControlRoutes.summary(try await mailbox.trash(try ControlRoutes.id(body)))
            case ("POST", "untrash"):
                return ControlRoutes.summary(try await mailbox.untrash(try ControlRoutes.id(body)))
            case ("POST", "delete"):
                try await mailbox.delete(try ControlRoutes.id(body))
                return .json(.object([("historyId", .string(String(await mailbox.currentHistoryId)))]))
            case ("POST", "expire-history"):
                if let retention = body["retention"]?.intValue {
                    await mailbox.setRetention(Int(retention))
                } else {
                    await mailbox.expireHistory(before: body["beforeHistoryId"]?.intValue.map { UInt64($0) })
                }
                return .json(.object([("historyId", .string(String(await mailbox.currentHistoryId)))]))
            case ("PUT", "faults"), ("POST", "faults"):
                let rules = try ControlRoutes.rules(body)
                await faults.set(rules, seed: body["seed"]?.intValue.map { UInt64(bitPattern: $0) })
                return .json(.object([("rules", .int(Int64(rules.count)))]))
            case ("DELETE", "faults"):
                await faults.set([])
                return .json(.object([("rules", .int(0))]))
            case ("GET", "faults/held"): return .json(.object([("held", .int(Int64(await faults.heldCount)))]))
            case ("POST", "faults/release"):
                return .json(.object([("released", .int(Int64(await faults.releaseHeld())))]))
            case ("GET", "requests"): return await requests()
            case ("DELETE", "requests"):
                await log.clear()
                return .json(.object([]))
            case ("GET", "quota"): return await quotaStats()
            case ("POST", "reset-quota"):
                await quota.reset()
                return await quotaStats()
            case ("PUT", "quota"):
                await quota.setRate(body["unitsPerSecond"]?.doubleValue, burst: body["burst"]?.doubleValue)
                return await quotaStats()
            case ("POST", "expire-tokens"):
                await oauth.expireAccessTokens()
                return .json(.object([]))
            case ("POST", "issue-tokens"):
                let (access, refresh) = await oauth.issueTokens()
                return .json(.object([("access_token", .string(access)), ("refresh_token", .string(refresh))]))
            case ("POST", "deny-next-authorization"):
                await oauth.setDenyNextAuthorization(true)
                return .json(.object([]))
            case ("GET", "state"):
                return .json(
                    .object([
                        ("account", .string(mailbox.account)),
                        ("historyId", .string(String(await mailbox.currentHistoryId))),
                        ("messagesTotal", .int(Int64(await mailbox.messageCount))),
                    ]))
            default:
                return .error(.notFound)
            }
        } catch {
            return .error(error)
        }
    }

    /// Raw RFC 5322 body (labels as repeated `labelIds` query parameters) or JSON `{"raw": base64url, "labelIds": [...]}`.
    private func deliver(_ request: EmulatorRequest, _ body: JSONValue) async throws(GmailError) -> EmulatorResponse {
        var raw = request.body
        var labels: [String]? = request.params("labelIds").isEmpty ? nil : request.params("labelIds")
        if request.headers["content-type"]?.hasPrefix("application/json") == true {
            guard let encoded = body["raw"]?.stringValue, let decoded = Base64URL.decode(encoded) else {
                throw .badRequest("deliver needs `raw` (base64url)")
            }
            raw = decoded
            labels = body["labelIds"]?.arrayValue?.compactMap(\.stringValue) ?? labels
        }
        guard !raw.isEmpty else { throw .badRequest("deliver needs a message body") }
        let date = request.param("internalDate").flatMap { Int64($0) } ?? body["internalDate"]?.intValue
        return ControlRoutes.summary(await mailbox.insert(raw: raw, labelNames: labels, internalDateMs: date))
    }

    private static func id(_ body: JSONValue) throws(GmailError) -> String {
        guard let id = body["id"]?.stringValue else { throw .badRequest("missing `id`") }
        return id
    }

    static func summary(_ message: StoredMessage) -> EmulatorResponse {
        .json(
            JSONValue.compact([
                ("id", .string(message.id)), ("threadId", .string(message.threadId)),
                ("labelIds", .array(message.labelIds.map(JSONValue.string))),
                ("historyId", .string(String(message.historyId))),
            ]))
    }

    /// `{"rules": [{"method": "messages.get", "probability": 0.5, "kind": "429", "count": 3, "messageId": "..."}]}`.
    static func rules(_ body: JSONValue) throws(GmailError) -> [FaultRule] {
        var rules: [FaultRule] = []
        for item in body["rules"]?.arrayValue ?? [] {
            guard let kindText = item["kind"]?.stringValue, let kind = FaultKind(spec: kindText) else {
                throw .badRequest("unknown fault kind \(item["kind"]?.stringValue ?? "(missing)")")
            }
            let probability: Double
            if let value = item["probability"]?.doubleValue {
                probability = value
            } else if item["percent"] != nil {
                probability = Double(item["percent"]?.intValue ?? 100) / 100
            } else {
                probability = 1
            }
            rules.append(
                FaultRule(
                    method: item["method"]?.stringValue ?? "*", probability: probability, kind: kind,
                    remaining: item["count"]?.intValue.map { Int($0) }, messageId: item["messageId"]?.stringValue))
        }
        return rules
    }

    private func requests() async -> EmulatorResponse {
        let entries = await log.all.map { entry in
            JSONValue.compact([
                ("method", .string(entry.method)), ("path", .string(entry.path)), ("query", .string(entry.query)),
                ("status", .int(Int64(entry.status))), ("gmailMethod", entry.gmailMethod.map(JSONValue.string)),
                ("timeMs", .string(String(entry.timeMs))),
            ])
        }
        return .json(.object([("requests", .array(entries))]))
    }

    private func quotaStats() async -> EmulatorResponse {
        let stats = await quota.current
        return .json(
            .object([
                ("unitsUsed", .int(Int64(stats.unitsUsed))), ("requests", .int(Int64(stats.requests))),
                ("rateLimited", .int(Int64(stats.rateLimited))),
                (
                    "unitsByMethod",
                    .object(stats.unitsByMethod.keys.sorted().map { ($0, .int(Int64(stats.unitsByMethod[$0] ?? 0))) })
                ),
            ]))
    }
}
