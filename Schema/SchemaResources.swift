import Foundation

/// The SQL migration files shipped in `Schema/Migrations`, as package resources.
///
/// This target exists only to carry the files: SwiftPM ships resources from inside a target's folder,
/// and the migrations must stay in the top-level `Schema/` folder, the single truth about the database.
public enum SchemaResources {
    /// The folder holding the `NNN_name.sql` files, or `nil` when the resource bundle cannot be found.
    ///
    /// SwiftPM's generated `Bundle.module` traps when its bundle is missing (for instance when the
    /// `chatmail` binary was copied away from its build folder). A missing schema must instead become a
    /// clear error, so this looks in the same places without trapping: beside the running executable,
    /// following symlinks, and then where SwiftPM's accessor would look.
    public static var migrationsDirectory: URL? {
        let bundleName = "chatmail_ChatmailSchema.resources"
        var candidates: [URL] = [Bundle.main.bundleURL.appendingPathComponent(bundleName)]
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent(bundleName))
        for bundle in candidates {
            let migrations = bundle.appendingPathComponent("Migrations")
            if FileManager.default.fileExists(atPath: migrations.path) {
                return migrations
            }
        }
        #if os(Linux)
        return nil
        #else
        return Bundle.module.url(forResource: "Migrations", withExtension: nil)
        #endif
    }
}
