import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A listening TCP socket on a free port of 127.0.0.1, for the small servers tests run on their own
/// threads (proxies, scripted IMAP servers, an OAuth endpoint). Blocking; the caller owns and closes it.
public struct LoopbackListener: Sendable {
    public let descriptor: Int32
    public let port: Int

    /// - throws: the failing call and `strerror`'s words.
    public init(backlog: Int32 = 16) throws(LoopbackListenerError) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw LoopbackListenerError(reason: "socket: \(Self.errnoText())") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound, listen(descriptor, backlog) == 0 else {
            let reason = Self.errnoText()
            close(descriptor)
            throw LoopbackListenerError(reason: "bind or listen: \(reason)")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// Why no loopback port could be listened on.
public struct LoopbackListenerError: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { "cannot listen on 127.0.0.1: \(reason)" }
}
