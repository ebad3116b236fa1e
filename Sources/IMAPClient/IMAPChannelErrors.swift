import IMAPProtocol
import NIOSSL

extension IMAPClientError {
    /// What an error NIO reports on an established channel means for the connection; the channel handler
    /// reports errors during a TLS handshake as ``tlsFailed(host:port:reason:)`` itself.
    init(channelError error: any Error) {
        if let error = error as? IMAPProtocolError {
            self = .malformedResponse(error.errorDescription ?? String(describing: error))
        } else if let error = error as? IMAPTruncatedResponse {
            self = .disconnected(
                reason: "the connection closed in the middle of a response (\(error.bufferedByteCount) bytes of it "
                    + "had arrived)")
        } else if let error = error as? NIOSSLError, case .uncleanShutdown = error {
            self = .disconnected(reason: "the server closed the connection without ending TLS")
        } else {
            self = .disconnected(reason: String(describing: error))
        }
    }
}
