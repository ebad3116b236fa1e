import Foundation

/// One HTTP request as the emulator's handlers see it, independent of Hummingbird.
///
/// Batch inner requests are parsed into the same value, so a `messages.get` inside a batch runs
/// exactly the code a single `messages.get` runs.
public struct EmulatorRequest: Sendable {
    public var method: String
    /// The path without the query string, percent-decoded per segment.
    public var path: String
    /// Query parameters in order; a key may repeat (`labelIds=A&labelIds=B`).
    public var query: [(String, String)]
    /// Header fields with lowercased names.
    public var headers: [String: String]
    public var body: [UInt8]

    public init(method: String, target: String, headers: [String: String], body: [UInt8]) {
        self.method = method.uppercased()
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        self.path = String(parts.first ?? "")
        self.query = parts.count > 1 ? EmulatorRequest.parseForm(String(parts[1])) : []
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// Decodes `application/x-www-form-urlencoded` text (also used for query strings).
    public static func parseForm(_ text: String) -> [(String, String)] {
        text.split(separator: "&").compactMap { pair in
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let rawKey = kv.first, !rawKey.isEmpty else { return nil }
            let decode: (Substring) -> String = { raw in
                let spaced = raw.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decode(rawKey), kv.count > 1 ? decode(kv[1]) : "")
        }
    }

    /// The first value of a query parameter.
    public func param(_ name: String) -> String? { query.first { $0.0 == name }?.1 }

    /// Every value of a repeated query parameter.
    public func params(_ name: String) -> [String] { query.filter { $0.0 == name }.map(\.1) }

    /// Path segments after splitting on `/`, percent-decoded.
    public var segments: [String] {
        path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
    }

    /// The bearer token of the `Authorization` header, if any.
    public var bearerToken: String? {
        guard let value = headers["authorization"] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }

    /// The request body parsed as a form (OAuth endpoints).
    public var form: [(String, String)] { EmulatorRequest.parseForm(String(decoding: body, as: UTF8.self)) }
}
