import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Creating export files without ever replacing one by accident.
enum OutputFiles {
    /// Whether anything, even a dangling symbolic link, is at `url`.
    static func exists(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }

    /// Whether `url` is a regular file (not a symbolic link to one) holding exactly `data`: a file an
    /// export can leave alone because writing it again would change nothing.
    static func holds(_ url: URL, exactly data: Data) -> Bool {
        var status = stat()
        guard lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) == data.count
        else {
            return false
        }
        // A file that cannot be read is not known to be the same: it counts as changed, which at worst
        // asks for --force.
        guard let existing = FileManager.default.contents(atPath: url.path) else { return false }
        return existing == data
    }

    /// Whether `url` is a regular file, not a symbolic link or a folder.
    static func isRegularFile(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    static func write(_ text: String, to url: URL, force: Bool) throws {
        try write(Data(text.utf8), to: url, force: force)
    }

    /// The bytes go to a new temporary file beside `url` first, so a reader, or the user after a crash,
    /// never finds half a file under the final name (at worst a hidden `.chatmail-….tmp`). Without `force`
    /// the finished file is then hard-linked to its name, which fails if anything, even a dangling
    /// symbolic link, is there: nothing is ever replaced or followed. With `force` it is renamed over
    /// the old one (a symbolic link is replaced, not followed).
    ///
    /// There is no fsync: an export is a copy that can be made again, and syncing ten thousand files
    /// one by one took most of an `--all` export's time.
    static func write(_ data: Data, to url: URL, force: Bool) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".chatmail-\(UUID().uuidString).tmp")
        try create(temporary, with: data)
        if force {
            guard rename(temporary.path, url.path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary.path)
                throw ExportError.writeFailed(path: url.path, reason: reason)
            }
            return
        }
        let linked = link(temporary.path, url.path) == 0
        let error = errno
        unlink(temporary.path)
        if linked { return }
        if error == EEXIST { throw ExportError.wouldOverwrite(path: url.path, count: 1) }
        // File systems without hard links (FAT on a USB stick, some network shares): create the file
        // itself, still exclusively, at the cost of a short file under its name if the export is killed.
        guard [EPERM, ENOTSUP, EMLINK, ENOSYS].contains(error) else {
            throw ExportError.writeFailed(path: url.path, reason: String(cString: strerror(error)))
        }
        try create(url, with: data)
    }

    /// Creates `url` (mode 0666 less the umask, so 0600 under chatmail's 077) and writes `data` to it.
    private static func create(_ url: URL, with data: Data) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            if errno == EEXIST || errno == ELOOP { throw ExportError.wouldOverwrite(path: url.path, count: 1) }
            throw ExportError.writeFailed(path: url.path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    let reason = String(cString: strerror(errno))
                    unlink(url.path)
                    throw ExportError.writeFailed(path: url.path, reason: reason)
                }
                offset += written
            }
        }
    }

    /// Creates the folders `components` below `base`, one level at a time, and returns the innermost.
    /// A component that exists must be a real directory: a symbolic link (to somewhere outside the
    /// export) is refused, not followed.
    static func makeDirectories(_ components: [String], in base: URL) throws -> URL {
        var url = base
        for component in components {
            url = url.appendingPathComponent(component, isDirectory: true)
            if mkdir(url.path, 0o777) == 0 { continue }
            guard errno == EEXIST else {
                throw ExportError.writeFailed(path: url.path, reason: String(cString: strerror(errno)))
            }
            var status = stat()
            guard lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                throw ExportError.writeFailed(
                    path: url.path,
                    reason: "it exists and is not a directory (the export does not follow symbolic links)")
            }
        }
        return url
    }

    static func makeDirectory(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw ExportError.notADirectory(url.path) }
            return
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ExportError.writeFailed(path: url.path, reason: error.localizedDescription)
        }
    }
}
