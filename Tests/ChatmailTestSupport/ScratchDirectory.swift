import Foundation

/// A new, empty directory under the temporary directory, for one test; the test removes it.
public func scratchDirectory(_ purpose: String = "test") throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "chatmail-\(purpose)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}
