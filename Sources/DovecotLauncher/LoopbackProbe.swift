import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Plain blocking sockets on 127.0.0.1: a free port for a new server, and whether a port greets.
enum LoopbackProbe {
    /// A port nothing listens on right now: bound to port 0, read back, closed. Another process may take
    /// it before Dovecot binds it, so a start that finds it taken picks another.
    static func freePort() throws(DovecotError) -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw .startFailed(reason: "socket: \(errnoText())", log: "") }
        defer { close(descriptor) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw .startFailed(reason: "bind 127.0.0.1:0: \(errnoText())", log: "") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw .startFailed(reason: "getsockname: \(errnoText())", log: "") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// What a connection to `port` says first, up to its first line feed, or nil when nothing accepts
    /// the connection or nothing is said within `timeout`.
    static func greeting(port: Int, timeout: Duration = .seconds(2)) -> String? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let seconds = timeout.components.seconds
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard connectLoopback(descriptor, port: port) else { return nil }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 4096 {
            guard read(descriptor, &byte, 1) == 1 else { return nil }
            if byte == 0x0A { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Whether anything accepts connections on `port`.
    static func isAccepting(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return connectLoopback(descriptor, port: port)
    }

    private static func connectLoopback(_ descriptor: Int32, port: Int) -> Bool {
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return connected == 0
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        return address
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
