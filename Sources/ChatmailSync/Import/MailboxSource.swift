import Foundation
import Glibc
import MailText

/// One raw message found by an import, with what its container said about it.
public struct RawMailboxMessage: Sendable {
    public var bytes: [UInt8]
    /// Where it came from, for error messages ("inbox.mbox #12", "2024/a.eml").
    public var origin: String
    /// The date on an mbox `From ` separator line, a fallback for messages without a Date header.
    public var separatorDateMs: Int64?
    /// The file's modification time, the last fallback for the date.
    public var fileDateMs: Int64?
}

/// What `chatmail import` can read: one `.eml` file, a directory of them (recursively), or an mbox
/// file such as a Google Takeout export.
public enum MailboxSource {
    /// Errors that stop an import before it starts.
    public enum Failure: Error, Sendable, Equatable {
        case notFound(String)
        case unreadable(String, reason: String)
        case noMessages(String)
        /// A file given by itself (an `.eml`, or an mbox) that holds no email message at all.
        case notAMessage(String, MessageValidation.Rejection)
    }

    /// Reads every message under `path`, in a stable order (sorted paths; mbox order).
    ///
    /// A file named by itself must hold an email message (for an mbox, at least one): importing
    /// `/etc/passwd` is a mistake to report, not an empty conversation to create. In a directory or an
    /// mbox that has some, the parts that are not messages are left for the importer to skip and name.
    public static func read(_ path: String) throws(Failure) -> [RawMailboxMessage] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .notFound(path) }
        let messages: [RawMailboxMessage]
        if isDirectory.boolValue {
            messages = try readDirectory(path)
        } else {
            let bytes = try readFile(path)
            if MboxSplitter.looksLikeMbox(bytes) {
                messages = MboxSplitter.split(bytes).enumerated().map { index, message in
                    RawMailboxMessage(
                        bytes: message.bytes, origin: "\((path as NSString).lastPathComponent) #\(index + 1)",
                        separatorDateMs: message.separatorDateMs, fileDateMs: nil)
                }
            } else {
                messages = [
                    RawMailboxMessage(
                        bytes: bytes, origin: path, separatorDateMs: nil, fileDateMs: modificationDateMs(path))
                ]
            }
            if let first = messages.first, let rejection = MessageValidation.rejection(of: first.bytes),
                messages.dropFirst().allSatisfy({ MessageValidation.rejection(of: $0.bytes) != nil })
            {
                throw .notAMessage(path, rejection)
            }
        }
        guard !messages.isEmpty else { throw .noMessages(path) }
        return messages
    }

    static func readDirectory(_ path: String) throws(Failure) -> [RawMailboxMessage] {
        guard let enumerator = FileManager.default.enumerator(atPath: path) else {
            throw .unreadable(path, reason: "cannot list it")
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let lowered = relative.lowercased()
            if lowered.hasSuffix(".eml") || lowered.hasSuffix(".mbox") { files.append(relative) }
        }
        files.sort()
        let contents = readAll(files.map { (path as NSString).appendingPathComponent($0) })
        var messages: [RawMailboxMessage] = []
        for (relative, content) in zip(files, contents) {
            let (bytes, fileDateMs) = try content.get()
            if relative.lowercased().hasSuffix(".mbox") {
                for (index, message) in MboxSplitter.split(bytes).enumerated() {
                    messages.append(
                        RawMailboxMessage(
                            bytes: message.bytes, origin: "\(relative) #\(index + 1)",
                            separatorDateMs: message.separatorDateMs, fileDateMs: nil))
                }
            } else {
                messages.append(
                    RawMailboxMessage(bytes: bytes, origin: relative, separatorDateMs: nil, fileDateMs: fileDateMs))
            }
        }
        return messages
    }

    /// Each file's bytes and date (or why it cannot be read), in the order given.
    ///
    /// Reading thousands of small files was a fifth of an import's time before any parsing could start;
    /// they are read on every core, and the caller still meets them, and their errors, in order.
    static func readAll(_ paths: [String]) -> [Result<(bytes: [UInt8], dateMs: Int64?), Failure>] {
        let results = ReadResults(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            results.store(
                Result { () throws(Failure) in
                    (try readFile(paths[index]), modificationDateMs(paths[index]))
                }, at: index)
        }
        return results.values
    }

    /// Slots the reading threads fill, each its own; `concurrentPerform` returns only after every one is
    /// filled. Raw memory, so no thread touches an array (and its copy-on-write check) another is writing.
    private final class ReadResults: @unchecked Sendable {
        typealias Slot = Result<(bytes: [UInt8], dateMs: Int64?), Failure>
        private let slots: UnsafeMutableBufferPointer<Slot>

        init(count: Int) {
            slots = .allocate(capacity: count)
            slots.initialize(repeating: .success(([], nil)))
        }

        deinit {
            slots.deinitialize()
            slots.deallocate()
        }

        func store(_ result: Slot, at index: Int) { slots[index] = result }

        var values: [Slot] { Array(slots) }
    }

    /// The file's bytes, read straight into the array: going through `FileManager.contents` and `Data`
    /// copied every message once more. A directory, or a file that cannot be opened or read, is unreadable.
    static func readFile(_ path: String) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path, reason: "cannot read it") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(path, reason: "cannot read it") }
        // One byte more than the size, so the end of the file is seen without growing the array.
        var bytes = [UInt8](repeating: 0, count: max(0, Int(info.st_size)) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(4096, count))) }
            let read = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if read == 0 { break }
            if read < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path, reason: "cannot read it")
            }
            count += read
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// The file's modification time, as `FileManager.attributesOfItem` gives it (`lstat`, so a symbolic
    /// link's own time), read with one system call: `attributesOfItem` also looks up the owner's user and
    /// group names, which cost more than parsing the message.
    static func modificationDateMs(_ path: String) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return nil  // no usable mtime: the date falls back further; nothing is lost
        }
        // Through `Date`, as FileManager does, so the milliseconds round the same way.
        let date = Date(
            timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec)
                / 1_000_000_000)
        return Int64(date.timeIntervalSince1970 * 1000)
    }
}

/// Splits an mbox file at its `From ` separator lines (mboxo/mboxrd as Google Takeout writes them).
enum MboxSplitter {
    struct Message {
        var bytes: [UInt8]
        var separatorDateMs: Int64?
    }

    static func looksLikeMbox(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array("From ".utf8))
    }

    /// Messages between separator lines; a separator is `From ` at the start of a line that follows an
    /// empty line (or starts the file). `>From ` escapes in bodies are undone (mboxrd).
    static func split(_ bytes: [UInt8]) -> [Message] {
        var messages: [Message] = []
        var start: Int?
        var separatorDate: Int64?
        var lineStart = 0
        var previousLineEmpty = true
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let next = min(bytes.count, lineEnd + 1)
            let line = bytes[lineStart..<lineEnd]
            if previousLineEmpty && line.starts(with: Array("From ".utf8)) {
                if let start {
                    messages.append(Message(bytes: unescape(bytes[start..<lineStart]), separatorDateMs: separatorDate))
                }
                start = next
                separatorDate = separatorDateMs(line)
            }
            previousLineEmpty = line.isEmpty || line.elementsEqual([0x0D])
            lineStart = next
        }
        if let start, start < bytes.count {
            messages.append(Message(bytes: unescape(bytes[start..<bytes.count]), separatorDateMs: separatorDate))
        }
        return messages
    }

    /// Removes one `>` from lines matching `^>+From ` (mboxrd), and the blank line before the next separator.
    static func unescape(_ slice: ArraySlice<UInt8>) -> [UInt8] {
        var body = Array(slice)
        if body.last == 0x0A { body.removeLast() }
        if body.last == 0x0D { body.removeLast() }
        guard body.contains(UInt8(ascii: ">")) else { return body }
        var output: [UInt8] = []
        output.reserveCapacity(body.count)
        var lineStart = true
        var index = 0
        while index < body.count {
            if lineStart && body[index] == UInt8(ascii: ">") {
                var probe = index
                while probe < body.count && body[probe] == UInt8(ascii: ">") { probe += 1 }
                if body[probe...].starts(with: Array("From ".utf8)) { index += 1 }
            }
            let byte = body[index]
            output.append(byte)
            lineStart = byte == 0x0A
            index += 1
        }
        return output
    }

    /// The asctime date at the end of `From sender Tue Mar  3 14:02:00 2025`.
    static func separatorDateMs(_ line: ArraySlice<UInt8>) -> Int64? {
        let text = String(decoding: line, as: UTF8.self)
        let words = text.split(separator: " ")
        guard words.count >= 7 else { return nil }
        return MailDate.parse(words.suffix(5).joined(separator: " "))
    }
}
