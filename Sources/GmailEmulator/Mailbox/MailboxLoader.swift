import Foundation
import MailText

/// Loads the initial mailbox: a directory of `.eml` files (labels from `X-Gmail-Labels` or a
/// `labels.json` sidecar `{"file.eml": ["INBOX", "UNREAD"]}`), an mbox file (Takeout), one message
/// file, or a synthetic mailbox. No mbox `From ` separator line is kept in a stored message. Loaded
/// messages get history ids but no history records: their past is not replayable.
enum MailboxLoader {
    static func load(_ source: EmulatorConfiguration.MailboxSource, into mailbox: MailboxState, seed: UInt64)
        async throws
    {
        switch source {
        case .empty:
            return
        case .messages(let items):
            for item in items { await mailbox.insert(raw: item.raw, labelNames: item.labels, recordHistory: false) }
        case .synthetic(let count):
            // The seed is varied so the messages' draws do not repeat the mailbox's id draws.
            for message in SyntheticMailbox.emulator(messageCount: count, account: mailbox.account).messages(
                seed: seed ^ 0x5E7)
            {
                await mailbox.insert(raw: message.rfc822, labelNames: message.emulatorLabels, recordHistory: false)
            }
        case .path(let path):
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw EmulatorError.unreadableMailbox(path: path)
            }
            if isDirectory.boolValue {
                try await loadDirectory(path, into: mailbox)
            } else {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw EmulatorError.unreadableMailbox(path: path)
                }
                let bytes = [UInt8](data)
                // A file that does not open with a separator is one message, not an mbox.
                let raws = bytes.starts(with: separator) ? splitMbox(bytes) : [bytes]
                for raw in raws {
                    await mailbox.insert(raw: raw, labelNames: gmailLabels(raw), recordHistory: false)
                }
            }
        }
    }

    private static func loadDirectory(_ path: String, into mailbox: MailboxState) async throws {
        let directory = URL(fileURLWithPath: path)
        var sidecar: [String: [String]] = [:]
        if let data = FileManager.default.contents(atPath: directory.appendingPathComponent("labels.json").path),
            case .object(let pairs)? = JSONValue.parse([UInt8](data))
        {
            for (name, value) in pairs { sidecar[name] = value.arrayValue?.compactMap(\.stringValue) }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".eml") }.sorted()
        for name in names {
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
                continue
            }
            let raw = withoutSeparator([UInt8](data))
            await mailbox.insert(raw: raw, labelNames: sidecar[name] ?? gmailLabels(raw), recordHistory: false)
        }
    }

    static let separator = Array("From ".utf8)

    /// A message file without the mbox `From sender date` line some `.eml` files keep at the top: that
    /// line belongs to the mailbox file, not to the message, so `format=raw` must not return it.
    /// (`>From ` body lines are left alone: a lone `.eml` is not mbox-escaped.)
    static func withoutSeparator(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.starts(with: separator) else { return bytes }
        guard let newline = bytes.firstIndex(of: 0x0A) else { return [] }
        return Array(bytes[(newline + 1)...])
    }

    /// Takeout's `X-Gmail-Labels: Inbox,Unread,"Work, 2024"` (comma-separated, optionally quoted).
    static func gmailLabels(_ raw: [UInt8]) -> [String]? {
        let (headers, _) = HeaderBlockShim.parse(raw)
        guard let value = headers else { return nil }
        var labels: [String] = []
        var current = ""
        var quoted = false
        for c in value {
            if c == "\"" {
                quoted.toggle()
            } else if c == "," && !quoted {
                labels.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        labels.append(current)
        return labels.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Splits an mboxrd/mboxo file on `From ` separator lines (which are dropped) and undoes `>From `
    /// quoting: one `>` goes from every `>+From ` line, so mboxo's `>From ` and mboxrd's `>>From `
    /// come back as `From ` and `>From `.
    static func splitMbox(_ bytes: [UInt8]) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        var current: [UInt8] = []
        var inMessage = false
        var start = 0
        func flush() {
            if inMessage {
                while current.last == 0x0A || current.last == 0x0D { current.removeLast() }
                current.append(contentsOf: [0x0D, 0x0A])
                messages.append(current)
            }
            current = []
        }
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let line = bytes[start..<min(end + 1, bytes.count)]
            if line.starts(with: separator) {
                flush()
                inMessage = true
            } else if inMessage {
                var body = line[...]
                var index = body.startIndex
                while index < body.endIndex && body[index] == UInt8(ascii: ">") { index += 1 }
                if index > body.startIndex, body[index...].starts(with: separator) { body = body.dropFirst() }
                current.append(contentsOf: body)
            }
            start = end + 1
        }
        flush()
        return messages
    }
}

/// Reads one header from raw bytes without a full MIME parse.
enum HeaderBlockShim {
    static func parse(_ raw: [UInt8]) -> (String?, Int) {
        let (fields, start) = HeaderBlock.parse(raw[...])
        return (fields.first("X-Gmail-Labels").map { String(decoding: $0, as: UTF8.self) }, start)
    }
}
