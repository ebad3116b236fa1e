import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Mail in and out of the server from the side, not over IMAP: what a test sets up before its client
/// connects, and what it checks afterwards.
extension DovecotServer {
    /// The user's Maildir, which is also their INBOX.
    public func maildir(of user: String) -> URL {
        layout.home(of: user).appendingPathComponent("Maildir")
    }

    /// Where `folder` (named with `.` between levels, as over IMAP) keeps its messages: INBOX is the
    /// Maildir itself, any other folder is `Maildir/.Name` with its name in modified UTF-7.
    public func folderDirectory(_ folder: String, of user: String) -> URL {
        if folder.uppercased() == "INBOX" { return maildir(of: user) }
        return maildir(of: user).appendingPathComponent("." + ModifiedUTF7.encode(folder))
    }

    /// Runs `doveadm -c CONF <arguments>` and returns what it printed. The server must be running: doveadm
    /// looks users up through it.
    @discardableResult
    public func doveadm(_ arguments: [String]) throws(DovecotError) -> String {
        try runDoveadm(arguments, input: nil)
    }

    /// Stores `message` in `folder` through `doveadm save` (as a delivery agent would), then adds `flags`
    /// (such as `\Seen`) to it. Returns once the message is stored. The flags go to the folder's highest
    /// UID, so deliveries to one folder must not run concurrently.
    public func deliver(_ message: [UInt8], to folder: String, user: String, flags: [String] = [])
        throws(DovecotError)
    {
        try runDoveadm(["save", "-u", user, "-m", folder], input: message)
        guard !flags.isEmpty else { return }
        // doveadm's search has no `*` for the highest UID, so it is read back from the folder's UID list.
        let listing = try runDoveadm(["search", "-u", user, "mailbox", folder, "all"], input: nil)
        let uids = listing.split(separator: "\n").compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
        guard let newest = uids.max() else {
            throw .commandFailed(
                arguments: ["search", "-u", user, "mailbox", folder, "all"], status: 0,
                stderr: "the message just saved is not in \(folder)")
        }
        try runDoveadm(
            ["flags", "add", "-u", user, flags.joined(separator: " "), "mailbox", folder, "uid", String(newest)],
            input: nil)
    }

    /// Writes `messages` straight into the folder's `cur/` (through `tmp/`, as Maildir asks), in order,
    /// named so that Dovecot gives them ascending UIDs in that order when it next looks at the folder.
    /// Creates the folder's directories when missing. Fast enough for tens of thousands of messages.
    public func fillMaildir(_ messages: [[UInt8]], folder: String, user: String, seen: Bool) throws(DovecotError) {
        let root = maildir(of: user)
        let target = folderDirectory(folder, of: user)
        for directory in [root, target] {
            for part in ["", "cur", "new", "tmp"] {
                let url = part.isEmpty ? directory : directory.appendingPathComponent(part)
                try Self.makeDirectory(url)
                try owner.take(url)
            }
        }
        if target != root {
            // Maildir++ marks a subfolder with this empty file.
            let marker = target.appendingPathComponent("maildirfolder")
            if !FileManager.default.fileExists(atPath: marker.path) {
                try Self.write("", to: marker)
                try owner.take(marker)
            }
        }
        let first = lock.withLock {
            defer { nextMaildirSequence += messages.count }
            return nextMaildirSequence
        }
        // Dovecot sorts new files by the seconds, then the number after `M`, of their names.
        let seconds = time(nil)
        let process = getpid()
        for (offset, message) in messages.enumerated() {
            let base = "\(seconds).M\(first + offset)P\(process).chatmail,S=\(message.count)"
            let name = base + (seen ? ":2,S" : ":2,")
            let temporary = target.appendingPathComponent("tmp").appendingPathComponent(base)
            do { try Data(message).write(to: temporary) } catch {
                throw .fileSystem(path: temporary.path, reason: "\(error)")
            }
            try owner.take(temporary)
            let final = target.appendingPathComponent("cur").appendingPathComponent(name)
            guard rename(temporary.path, final.path) == 0 else {
                throw .fileSystem(path: final.path, reason: "rename: \(LoopbackProbe.errnoText())")
            }
        }
    }

    /// Gives `folder` a new UIDVALIDITY: stops Dovecot, removes the folder's `dovecot-uidlist` and its
    /// `dovecot.index*` files (the index alone would bring the old value back), waits a second and starts
    /// it again. The messages stay, under new UIDs.
    public func resetUIDValidity(of folder: String, user: String) throws(DovecotError) {
        let directory = folderDirectory(folder, of: user)
        try whileStopped { () throws(DovecotError) in
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: directory.path) } catch {
                throw .fileSystem(path: directory.path, reason: "\(error)")
            }
            for name in names where name == "dovecot-uidlist" || name.hasPrefix("dovecot.index") {
                let path = directory.appendingPathComponent(name).path
                guard unlink(path) == 0 else {
                    throw .fileSystem(path: path, reason: "unlink: \(LoopbackProbe.errnoText())")
                }
            }
            // Dovecot derives a new UIDVALIDITY from the clock; within the same second it could repeat.
            sleep(1)
        }
    }

    /// Every command line the user's IMAP sessions have sent so far, oldest first across sessions, without
    /// rawlog's timestamps. Commands before login (LOGIN, AUTHENTICATE) are not recorded.
    public func clientCommands(of user: String) throws(DovecotError) -> [String] {
        guard configuration.rawlog else { throw .rawlogDisabled }
        let directory = layout.rawlog(of: user)
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory.path) } catch {
            throw .fileSystem(path: directory.path, reason: "\(error)")
        }
        var lines: [RawlogLine] = []
        for name in names where name.hasSuffix(".in") {
            let url = directory.appendingPathComponent(name)
            let data: Data
            do { data = try Data(contentsOf: url) } catch { throw .fileSystem(path: url.path, reason: "\(error)") }
            lines += RawlogLine.parse(data)
        }
        // Stable, so lines within one session keep their order when their timestamps tie.
        return lines.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element.text)
    }

    @discardableResult
    private func runDoveadm(_ arguments: [String], input: [UInt8]?) throws(DovecotError) -> String {
        let run = try ToolRun.run(Self.doveadmPath, ["-c", layout.configFile.path] + arguments, input: input)
        guard run.status == 0 else {
            throw .commandFailed(
                arguments: arguments, status: run.status,
                stderr: String(decoding: run.errors.suffix(2048), as: UTF8.self))
        }
        return String(decoding: run.output, as: UTF8.self)
    }
}

/// One line of a rawlog `.in` file: `<seconds>.<microseconds> <what the client sent>`.
struct RawlogLine {
    /// Microseconds since the epoch; a line without a timestamp (none was seen so far) takes the previous one's.
    let time: Int
    let text: String

    /// Split on bytes: as Swift characters, `\r\n` is one character that `\n` does not match.
    static func parse(_ contents: Data) -> [RawlogLine] {
        var lines: [RawlogLine] = []
        var time = 0
        for raw in contents.split(separator: 0x0A, omittingEmptySubsequences: true) {
            var line = Substring(String(decoding: raw.last == 0x0D ? raw.dropLast() : raw, as: UTF8.self))
            if let space = line.firstIndex(of: " "), let stamp = microseconds(line[..<space]) {
                time = stamp
                line = line[line.index(after: space)...]
            }
            lines.append(RawlogLine(time: time, text: String(line)))
        }
        return lines
    }

    private static func microseconds(_ stamp: Substring) -> Int? {
        let parts = stamp.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let seconds = Int(parts[0]), let fraction = Int(parts[1]), parts[1].count == 6
        else { return nil }
        return seconds * 1_000_000 + fraction
    }
}

/// IMAP's modified UTF-7 (RFC 3501, 5.1.3), which Dovecot also uses for folder names on disk: printable
/// ASCII stays, `&` becomes `&-`, and any other run becomes `&` + UTF-16 in base64 (`,` for `/`) + `-`.
enum ModifiedUTF7 {
    static func encode(_ name: String) -> String {
        var result = ""
        var pending: [UInt16] = []
        func flush() {
            guard !pending.isEmpty else { return }
            let bytes = pending.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            let base64 = Data(bytes).base64EncodedString().replacingOccurrences(of: "/", with: ",")
            result += "&" + base64.replacingOccurrences(of: "=", with: "") + "-"
            pending = []
        }
        for scalar in name.unicodeScalars {
            if scalar.value >= 0x20 && scalar.value <= 0x7E {
                flush()
                result += scalar == "&" ? "&-" : String(scalar)
            } else {
                pending += Array(String(scalar).utf16)
            }
        }
        flush()
        return result
    }
}
