import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The server directory's files, written before the first start.
extension DovecotServer {
    static func prepareFiles(layout: DovecotLayout, configuration: DovecotConfiguration, owner: MailOwner)
        throws(DovecotError)
    {
        let directory = layout.directory
        try makeDirectory(directory)
        // The mail and auth processes run as `owner`, who must reach the homes, the rawlog directories and
        // the password file; a `mktemp -d`-style 0700 directory would lock them out.
        try setMode(0o755, of: directory)
        if owner.isRoot { try checkTraversable(ancestorsOf: directory) }
        for shared in [layout.baseDirectory, layout.stateDirectory, layout.homes, layout.rawlogs] {
            try makeDirectory(shared)
            try setMode(0o755, of: shared)
        }
        for user in configuration.users {
            try makeDirectory(layout.home(of: user.name))
            try owner.take(layout.home(of: user.name))
            if configuration.rawlog {
                // Dovecot writes rawlogs only into a directory that already exists.
                try makeDirectory(layout.rawlog(of: user.name))
                try owner.take(layout.rawlog(of: user.name))
            }
        }
        try write(DovecotConfigWriter.passwordText(configuration.users), to: layout.passwordFile)
        if let url = configuration.oauth2IntrospectionURL {
            try write(DovecotConfigWriter.oauth2Text(introspectionURL: url), to: layout.oauth2File)
        }
    }

    /// Creates the configuration's extra folders for every user, subscribed, as a mail client would.
    func createExtraFolders() throws(DovecotError) {
        guard !configuration.extraFolders.isEmpty else { return }
        for user in configuration.users {
            try doveadm(["mailbox", "create", "-s", "-u", user.name] + configuration.extraFolders)
        }
    }

    static func write(_ text: String, to url: URL) throws(DovecotError) {
        do { try Data(text.utf8).write(to: url) } catch {
            throw .fileSystem(path: url.path, reason: "\(error)")
        }
    }

    static func makeDirectory(_ url: URL) throws(DovecotError) {
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
            throw .fileSystem(path: url.path, reason: "\(error)")
        }
    }

    static func setMode(_ mode: mode_t, of url: URL) throws(DovecotError) {
        guard chmod(url.path, mode) == 0 else {
            throw .fileSystem(path: url.path, reason: "chmod: \(LoopbackProbe.errnoText())")
        }
    }

    /// Fails, naming the directory, when `nobody` cannot pass through one of `url`'s parents. Parents are
    /// not changed here: they may be somebody's home.
    private static func checkTraversable(ancestorsOf url: URL) throws(DovecotError) {
        var parent = url.standardizedFileURL.deletingLastPathComponent()
        while parent.path != "/" && !parent.path.isEmpty {
            var status = stat()
            if stat(parent.path, &status) == 0 && status.st_mode & S_IXOTH == 0 {
                throw .invalidConfiguration(
                    "\(parent.path) is not searchable by others (chmod o+x), so Dovecot's processes cannot reach \(url.path)"
                )
            }
            parent = parent.deletingLastPathComponent()
        }
    }
}

extension MailOwner {
    /// Makes `url` the mail user's, so Dovecot's mail processes can write there; a no-op when not root,
    /// where they run as this process's own user.
    func take(_ url: URL) throws(DovecotError) {
        guard isRoot else { return }
        guard chown(url.path, uid, gid) == 0 else {
            throw .fileSystem(path: url.path, reason: "chown: \(LoopbackProbe.errnoText())")
        }
    }
}
