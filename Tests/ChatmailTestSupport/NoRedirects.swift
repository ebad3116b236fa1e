import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Keeps 302s visible: a test follows the OAuth redirect itself, as a browser would once the user approves.
public final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    public override init() {}

    public func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
