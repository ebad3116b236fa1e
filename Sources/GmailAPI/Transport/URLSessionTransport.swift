import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The production transport: FoundationNetworking's `URLSession` (libcurl on Linux).
///
/// One session per transport, so connections are kept alive across requests to the same host.
/// Timeouts are whole seconds rounded up and at least 1: libcurl truncates fractions, and 0.5 s would
/// otherwise fire at once (swift-on-linux.md).
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// - Parameter maximumConnectionsPerHost: upper bound on parallel connections to one host.
    public init(maximumConnectionsPerHost: Int = 8) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        self.session = URLSession(configuration: configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Rounds a timeout up to whole seconds, never below 1 s.
    public static func wholeSeconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 1 else { return 1 }
        return Int(seconds.rounded(.up))
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = TimeInterval(Self.wholeSeconds(Double(request.timeoutSeconds)))
        for field in request.headers.fields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        urlRequest.httpBody = request.body
        let (data, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers.add(String(describing: name), String(describing: value))
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }
}
