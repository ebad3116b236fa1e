/// What an injected fault does to a request.
public enum FaultKind: Sendable, Equatable {
    case tooManyRequests  // 429 rateLimitExceeded
    case userRateLimit403  // 403 userRateLimitExceeded
    case backendError  // 500
    case unavailable  // 503
    case unauthorized  // 401, as for an expired token
    case drop  // read the request, then close the connection mid-answer
    case dropBeforeBody  // reset the connection as soon as the request head arrives, body unread
    case slow(milliseconds: Int)  // answer normally after a delay
    case hold  // wait until the control API releases it, then answer normally
    case emptyHistoryPage  // history.list: a page with no `history` but a nextPageToken
    case insufficientScope  // 403 insufficientPermissions: permanent, as for a token without gmail.modify
    case invalidArgument  // 400 invalidArgument: permanent
    /// The request runs and its change is committed (stored, history written), then the connection is
    /// reset without a byte of answer: the client cannot tell whether it took effect.
    case commitThenDrop
    /// The request runs and its change is committed, then the answer is a 500 `backendError`.
    case commitThenError500

    /// Parses the control API spelling: `429`, `403rate`, `403scope`, `400`, `500`, `503`, `401`, `drop`,
    /// `dropBeforeBody`, `slow:250`, `hold`, `emptyHistoryPage`, `commitThenDrop`, `commitThenError500`.
    public init?(spec: String) {
        switch spec {
        case "403scope": self = .insufficientScope
        case "400": self = .invalidArgument
        case "429": self = .tooManyRequests
        case "403rate", "403": self = .userRateLimit403
        case "500": self = .backendError
        case "503": self = .unavailable
        case "401": self = .unauthorized
        case "drop", "dropAfterBody": self = .drop
        case "dropBeforeBody": self = .dropBeforeBody
        case "emptyHistoryPage": self = .emptyHistoryPage
        case "hold": self = .hold
        case "commitThenDrop": self = .commitThenDrop
        case "commitThenError500": self = .commitThenError500
        default:
            guard spec.hasPrefix("slow"), let ms = Int(spec.drop { !$0.isNumber }) else { return nil }
            self = .slow(milliseconds: ms)
        }
    }

    /// The error body for the kinds that answer with an error.
    var error: GmailError? {
        switch self {
        case .tooManyRequests: .tooManyConcurrent
        case .userRateLimit403: .userRateLimit
        case .backendError: .backendError
        case .unavailable: .unavailable
        case .unauthorized: .unauthenticated
        case .insufficientScope: .insufficientPermissions
        case .invalidArgument: .badRequest("Invalid argument (injected fault)", reason: "invalidArgument")
        case .drop, .dropBeforeBody, .slow, .hold, .emptyHistoryPage, .commitThenDrop, .commitThenError500: nil
        }
    }
}

/// One fault rule: which method, how likely, what happens, and optionally how many times.
public struct FaultRule: Sendable, Equatable {
    /// A method name such as `messages.get`, or `*` for every Gmail method.
    public var method: String
    public var probability: Double
    public var kind: FaultKind
    /// Fire at most this many times (`nil` = unlimited); lets tests inject exactly one empty page.
    public var remaining: Int?
    /// Only for this message id (`nil` = any).
    public var messageId: String?

    public init(method: String, probability: Double, kind: FaultKind, remaining: Int? = nil, messageId: String? = nil) {
        self.method = method
        self.probability = probability
        self.kind = kind
        self.remaining = remaining
        self.messageId = messageId
    }
}

/// When a fault is decided: as the request head arrives (only `dropBeforeBody` rules), or once the
/// whole request has been read (every other kind). Rules of the other stage draw no random number, so
/// adding an early rule leaves the sequence of the others unchanged.
public enum FaultStage: Sendable {
    case beforeBody
    case afterBody
}

/// Decides, with a seeded generator, whether a request gets a fault.
public actor FaultInjector {
    private var rules: [FaultRule] = []
    private var random: SeededRandom
    /// Requests stopped by a `hold` fault, resumed by ``releaseHeld()``. A test can then act while a
    /// request is known to be in flight (kill the client, say) instead of guessing with a delay.
    private var held: [CheckedContinuation<Void, Never>] = []

    public init(seed: UInt64) { random = SeededRandom(seed: seed ^ 0xFA17) }

    public func set(_ rules: [FaultRule], seed: UInt64? = nil) {
        self.rules = rules
        if let seed { random = SeededRandom(seed: seed) }
    }

    public var currentRules: [FaultRule] { rules }

    /// How many requests a `hold` fault is holding now.
    public var heldCount: Int { held.count }

    /// Waits until ``releaseHeld()``: the request has arrived and been read, and nothing of it has run.
    public func hold() async {
        await withCheckedContinuation { held.append($0) }
    }

    /// Lets every held request go on, in arrival order; returns how many there were.
    public func releaseHeld() -> Int {
        let released = held
        held = []
        for continuation in released { continuation.resume() }
        return released.count
    }

    /// The method name under which the outer batch request (`POST /batch...`) is faulted.
    public static let batchMethod = "batch"

    /// The fault for this call, if a rule fires. Rules are tried in order; the first that fires wins.
    /// `method` is a Gmail method name, or `batch` for the outer batch request (matched by name only,
    /// never by `*`, so a `*` rule keeps hitting each inner call as before).
    public func fault(method: String, messageId: String?, stage: FaultStage = .afterBody) -> FaultKind? {
        for index in rules.indices {
            let rule = rules[index]
            guard (rule.kind == .dropBeforeBody) == (stage == .beforeBody) else { continue }
            if method == Self.batchMethod && rule.method != Self.batchMethod { continue }
            guard rule.method == "*" || rule.method == method else { continue }
            if let wanted = rule.messageId, wanted != messageId { continue }
            if let remaining = rule.remaining, remaining <= 0 { continue }
            if rule.kind == .emptyHistoryPage && method != "history.list" { continue }
            guard random.nextUnit() < rule.probability else { continue }
            if let remaining = rule.remaining { rules[index].remaining = remaining - 1 }
            return rule.kind
        }
        return nil
    }
}
