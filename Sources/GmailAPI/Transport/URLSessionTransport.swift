import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The production transport: FoundationNetworking's `URLSession` (libcurl on Linux).
///
/// Requests without a body (every GET) share one session, so their connections are kept alive.
/// Each request with a body (batches, modify, token refresh) gets a session of its own, hence a fresh
/// connection that nothing else uses. The reason: when a request sent on a reused connection gets no
/// byte back (the server reset or closed it, or closed it just as the request left), libcurl quietly
/// re-sends it on a new connection after asking FoundationNetworking to rewind the body, and
/// FoundationNetworking reports a rewind it did not do for an in-memory body. The re-sent request then
/// announces its Content-Length but sends no byte of it, and both sides wait until the timeout fires.
/// A body request that never rides a reused connection is never re-sent that way: a reset surfaces at
/// once as an error, and the retry policy decides what to do. GETs have nothing to rewind, so
/// libcurl's silent re-send is harmless for them. The price is one connection set-up per body request,
/// small next to a batch of 50 messages.
///
/// Timeouts are whole seconds rounded up and at least 1: libcurl truncates fractions, and 0.5 s would
/// otherwise fire at once.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// - Parameter maximumConnectionsPerHost: upper bound on parallel kept-alive connections to one host.
    public init(maximumConnectionsPerHost: Int = 8) {
        self.session = Self.makeSession(maximumConnectionsPerHost: maximumConnectionsPerHost)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    private static func makeSession(maximumConnectionsPerHost: Int) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        return URLSession(configuration: configuration)
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
        let (data, response): (Data, URLResponse)
        if request.body != nil {
            urlRequest.setValue("close", forHTTPHeaderField: "Connection")  // the connection serves this request only
            let oneShot = Self.makeSession(maximumConnectionsPerHost: 1)
            defer { oneShot.finishTasksAndInvalidate() }
            (data, response) = try await oneShot.data(for: urlRequest)
        } else {
            (data, response) = try await session.data(for: urlRequest)
        }
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
