import Foundation

/// The demo mailbox shipped in `Fixtures/demo-mailbox`, as a package resource.
///
/// This target exists only to carry that folder: SwiftPM ships resources from inside a target's folder,
/// and the mailbox stays in `Fixtures/` beside the other inputs the tests read.
public enum DemoMailboxResources {
    /// The name of SwiftPM's resource bundle for this target, which lands beside the executable.
    public static let bundleName = "chatmail_ChatmailDemoMailbox.resources"

    /// The shipped mailbox folder, or `nil` when the resource bundle cannot be found.
    ///
    /// SwiftPM's generated `Bundle.module` traps when its bundle is missing (for instance when the
    /// `chatmail` binary was copied without it). A missing mailbox must instead become a clear error, so
    /// on Linux this looks only where `Bundle.module` looks first, beside the running executable (also
    /// following symlinks to it), as the schema's bundle is found; elsewhere it falls back on
    /// `Bundle.module`, as the schema does.
    public static var mailboxDirectory: URL? {
        var candidates: [URL] = [Bundle.main.bundleURL.appendingPathComponent(bundleName)]
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent(bundleName))
        for bundle in candidates {
            let mailbox = bundle.appendingPathComponent("demo-mailbox", isDirectory: true)
            if FileManager.default.fileExists(atPath: mailbox.path) {
                return mailbox
            }
        }
        #if os(Linux)
        return nil
        #else
        return Bundle.module.url(forResource: "demo-mailbox", withExtension: nil)
        #endif
    }
}
