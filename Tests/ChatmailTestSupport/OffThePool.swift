import Foundation

/// Runs blocking work (reading a child's pipe, waiting for it to exit, a blocking socket) on a thread of
/// its own, and awaits the result.
///
/// Swift's cooperative pool has one thread per core, two on a small CI machine, and the test runner runs
/// tests in parallel on it. A test that blocks a pool thread stalls every other test, and the in-process
/// emulators that answer on the same pool, until somebody's time-out fires: the suite would then pass or
/// fail by how busy the machine is. Every blocking call the tests make from async code goes through here.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// Reads `handle` up to its first line feed, byte by byte so nothing after the line is consumed.
/// Blocking: call it through ``offThePool(_:)``.
public func firstLine(of handle: FileHandle) throws -> String {
    var line = Data()
    while let byte = try handle.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) {
        line.append(byte)
    }
    return String(decoding: line, as: UTF8.self)
}
