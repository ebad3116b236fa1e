import Foundation

/// The one seam between the Gmail client and the network.
///
/// The client never touches `URLSession` directly, so tests can script responses in memory and the
/// emulator tests can swap in a real socket transport. A transport reports every HTTP status as a
/// response (non-2xx does not throw); it throws only when no response arrived at all.
public protocol HTTPTransport: Sendable {
    /// Sends one request and returns whatever the server answered.
    /// - Throws: any error when no HTTP response was received (DNS, connection reset, timeout, cancellation).
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// An HTTP request as a plain value, so it can cross task boundaries and be recorded by test transports.
public struct HTTPRequest: Sendable, CustomStringConvertible {
    /// `GET`, `POST`, ...
    public var method: String
    public var url: URL
    /// Header fields in send order; names are matched case-insensitively on lookup.
    public var headers: HTTPHeaders
    public var body: Data?
    /// Whole seconds: FoundationNetworking truncates fractional timeouts, so the type
    /// makes the unit impossible to get wrong.
    public var timeoutSeconds: Int

    public init(
        method: String, url: URL, headers: HTTPHeaders = HTTPHeaders(), body: Data? = nil, timeoutSeconds: Int = 60
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutSeconds = timeoutSeconds
    }

    /// Method, URL, redacted headers and body size; never the body (it may hold tokens or mail).
    public var description: String {
        "\(method) \(url.absoluteString) \(headers) body: \(body?.count ?? 0) bytes"
    }
}

/// An HTTP response as a plain value: status, headers, and the full body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Data

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the status is in the 2xx range.
    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// An ordered list of header fields with case-insensitive lookup (RFC 9110 §5.1: field names are
/// case-insensitive), keeping repeated fields.
public struct HTTPHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The fields in order, names as they were given.
    public private(set) var fields: [(name: String, value: String)]

    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value of the field `name`, compared case-insensitively.
    public subscript(name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// Appends a field, keeping any earlier field of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field named `name` by one field with `value`.
    public mutating func set(_ name: String, _ value: String) {
        let wanted = name.lowercased()
        fields.removeAll { $0.name.lowercased() == wanted }
        fields.append((name: name, value: value))
    }

    /// Names and values, with credentials (`Authorization`, cookies) replaced by `<redacted>`, so
    /// headers can be logged without leaking tokens.
    public var description: String {
        let secret: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]
        return "["
            + fields.map { "\($0.name): \(secret.contains($0.name.lowercased()) ? "<redacted>" : $0.value)" }.joined(
                separator: ", ") + "]"
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.map { "\($0.name.lowercased()):\($0.value)" }
            == rhs.fields.map { "\($0.name.lowercased()):\($0.value)" }
    }
}
