import ChatmailTestSupport
import Foundation
import Glibc
import Synchronization

/// A small stateful server that speaks Gmail's IMAP dialect (X-GM-EXT-1: X-GM-MSGID, X-GM-THRID,
/// X-GM-LABELS; CONDSTORE; All Mail as `\All`), for the one provider behaviour a Dovecot cannot show.
///
/// It answers only the commands chatmail sends (AUTHENTICATE PLAIN, CAPABILITY, LIST, SELECT, UID FETCH,
/// UID SEARCH, LOGOUT) and refuses anything else with BAD, so a client that strays fails the test. Every
/// command line is recorded. Connections are served one at a time on a thread of its own.
final class GmailIMAPDouble: Sendable {
    struct Message: Sendable {
        var uid: UInt32
        var gmailID: UInt64
        var threadID: UInt64
        var labels: [String]
        var flags: [String]
        var modSeq: UInt64
        var raw: String
    }

    struct State: Sendable {
        var uidValidity: UInt32 = 11
        var highestModSeq: UInt64 = 100
        var messages: [Message] = []
        var commands: [String] = []
        var nextUID: UInt32 { (messages.map(\.uid).max() ?? 0) + 1 }
    }

    let port: Int
    private let listener: Int32
    let state = Mutex(State())

    static let capabilities =
        "IMAP4rev1 UNSELECT IDLE NAMESPACE QUOTA ID XLIST CHILDREN X-GM-EXT-1 UIDPLUS COMPRESS=DEFLATE ENABLE MOVE CONDSTORE ESEARCH UTF8=ACCEPT LIST-EXTENDED LIST-STATUS LITERAL- SPECIAL-USE APPENDLIMIT=35651584"

    init() throws {
        let loopback = try LoopbackListener(backlog: 4)
        listener = loopback.descriptor
        port = loopback.port
        Thread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }  // the listener was shut down
                serve(client)
                close(client)
            }
        }.start()
    }

    func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    /// Adds a message with the next UID and a new MODSEQ.
    func add(gmailID: UInt64, labels: [String], flags: [String] = [], raw: String) {
        state.withLock { state in
            state.highestModSeq += 1
            state.messages.append(
                Message(
                    uid: state.nextUID, gmailID: gmailID, threadID: gmailID, labels: labels, flags: flags,
                    modSeq: state.highestModSeq, raw: raw))
        }
    }

    /// Changes a message's labels and flags as Gmail does when another client relabels it: a new MODSEQ.
    func change(gmailID: UInt64, labels: [String], flags: [String]) {
        state.withLock { state in
            guard let index = state.messages.firstIndex(where: { $0.gmailID == gmailID }) else { return }
            state.highestModSeq += 1
            state.messages[index].labels = labels
            state.messages[index].flags = flags
            state.messages[index].modSeq = state.highestModSeq
        }
    }

    /// Renumbers every message under a new UIDVALIDITY, as after a server-side rebuild.
    func renumber() {
        state.withLock { state in
            state.uidValidity += 1
            for index in state.messages.indices { state.messages[index].uid = UInt32(1000 + index) }
        }
    }

    var commands: [String] { state.withLock { $0.commands } }

    // MARK: Serving one connection

    private func serve(_ client: Int32) {
        let peer = LinePeer(socket: client)
        peer.send("* OK Gimap ready for requests from 127.0.0.1\r\n")
        while let line = peer.readLine() {
            state.withLock { $0.commands.append(line) }
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return }
            let tag = parts[0]
            let command = parts[1]
            let upper = command.uppercased()
            if upper.hasPrefix("AUTHENTICATE PLAIN") {
                if upper == "AUTHENTICATE PLAIN" {  // without SASL-IR the credentials follow a continuation
                    peer.send("+ \r\n")
                    guard peer.readLine() != nil else { return }
                }
                peer.send("\(tag) OK [CAPABILITY \(Self.capabilities)] alice@gmail.com authenticated (Success)\r\n")
            } else if upper == "CAPABILITY" {
                peer.send(
                    "* CAPABILITY IMAP4rev1 UNSELECT IDLE NAMESPACE QUOTA ID XLIST CHILDREN X-GM-EXT-1 XYZZY SASL-IR "
                        + "AUTH=XOAUTH2 AUTH=PLAIN AUTH=PLAIN-CLIENTTOKEN AUTH=OAUTHBEARER\r\n\(tag) OK Thats all she wrote!\r\n"
                )
            } else if upper.hasPrefix("LIST") {
                peer.send(
                    """
                    * LIST (\\HasNoChildren) "/" "INBOX"\r
                    * LIST (\\HasChildren \\Noselect) "/" "[Gmail]"\r
                    * LIST (\\All \\HasNoChildren) "/" "[Gmail]/All Mail"\r
                    * LIST (\\HasNoChildren \\Sent) "/" "[Gmail]/Sent Mail"\r
                    * LIST (\\HasNoChildren \\Trash) "/" "[Gmail]/Trash"\r
                    * LIST (\\HasNoChildren) "/" "Work"\r
                    \(tag) OK Success\r

                    """)
            } else if upper.hasPrefix("SELECT \"[GMAIL]/ALL MAIL\"") {
                let (validity, next, modSeq, count) = state.withLock {
                    ($0.uidValidity, $0.nextUID, $0.highestModSeq, $0.messages.count)
                }
                let nextUID = max(next, state.withLock { s in (s.messages.map(\.uid).max() ?? 0) + 1 })
                peer.send(
                    """
                    * FLAGS (\\Answered \\Flagged \\Draft \\Deleted \\Seen $NotPhishing $Phishing)\r
                    * OK [PERMANENTFLAGS (\\Answered \\Flagged \\Draft \\Deleted \\Seen \\*)] Flags permitted.\r
                    * OK [UIDVALIDITY \(validity)] UIDs valid.\r
                    * \(count) EXISTS\r
                    * 0 RECENT\r
                    * OK [UIDNEXT \(nextUID)] Predicted next UID.\r
                    * OK [HIGHESTMODSEQ \(modSeq)]\r
                    \(tag) OK [READ-WRITE] [Gmail]/All Mail selected. (Success)\r

                    """)
            } else if upper.hasPrefix("UID FETCH ") {
                peer.send(fetch(command, tag: tag))
            } else if upper.hasPrefix("UID SEARCH") {
                let uids = state.withLock { $0.messages.map(\.uid) }
                if upper.contains("RETURN") {
                    let all = uids.map(String.init).joined(separator: ",")
                    peer.send("* ESEARCH (TAG \"\(tag)\") UID ALL \(all)\r\n\(tag) OK SEARCH completed (Success)\r\n")
                } else {
                    let all = uids.map(String.init).joined(separator: " ")
                    peer.send("* SEARCH \(all)\r\n\(tag) OK SEARCH completed (Success)\r\n")
                }
            } else if upper == "LOGOUT" {
                peer.send("* BYE LOGOUT Requested\r\n\(tag) OK 73 good day (Success)\r\n")
                return
            } else {
                peer.send("\(tag) BAD Unknown command\r\n")
            }
        }
    }

    /// `UID FETCH <set> (<items>) [(CHANGEDSINCE n)]`, for sets of single UIDs and ranges with `*`.
    private func fetch(_ command: String, tag: String) -> String {
        let words = command.split(separator: " ")
        guard words.count >= 3 else { return "\(tag) BAD Could not parse command\r\n" }
        let ranges: [(UInt32, UInt32)] = words[2].split(separator: ",").map { part in
            let bounds = part.split(separator: ":").map { $0 == "*" ? UInt32.max : UInt32($0) ?? 0 }
            return bounds.count == 2 ? (min(bounds[0], bounds[1]), max(bounds[0], bounds[1])) : (bounds[0], bounds[0])
        }
        let upper = command.uppercased()
        let wantsBody = upper.contains("BODY.PEEK[]")
        var changedSince: UInt64?
        if let range = upper.range(of: "CHANGEDSINCE ") {
            changedSince = UInt64(upper[range.upperBound...].prefix { $0.isNumber })
        }
        let messages = state.withLock { $0.messages }
        let last = messages.map(\.uid).max() ?? 0
        var output = ""
        for (sequence, message) in messages.enumerated() {
            let inSet = ranges.contains { message.uid >= $0.0 && message.uid <= $0.1 }
            // `n:*` also names the last message when n is above it, as every server does.
            let starNamesLast = ranges.contains { $0.1 == UInt32.max && $0.0 > last } && message.uid == last
            guard inSet || starNamesLast else { continue }
            if let changedSince, message.modSeq <= changedSince { continue }
            let labels = message.labels.map { $0.hasPrefix("\\") ? $0 : "\"\($0)\"" }.joined(separator: " ")
            let raw = Array(message.raw.utf8)
            var item =
                "* \(sequence + 1) FETCH (UID \(message.uid) X-GM-MSGID \(message.gmailID) X-GM-THRID \(message.threadID) "
                + "X-GM-LABELS (\(labels)) FLAGS (\(message.flags.joined(separator: " "))) RFC822.SIZE \(raw.count) "
                + "INTERNALDATE \"02-Mar-2026 10:00:00 +0000\" MODSEQ (\(message.modSeq))"
            if wantsBody { item += " BODY[] {\(raw.count)}\r\n" + message.raw }
            output += item + ")\r\n"
        }
        return output + "\(tag) OK Success\r\n"
    }

    struct DoubleFailure: Error { var detail: String }
}

/// Blocking line I/O on one socket.
private final class LinePeer {
    let socket: Int32
    private var buffer: [UInt8] = []

    init(socket: Int32) { self.socket = socket }

    func readLine() -> String? {
        while true {
            if let end = buffer.firstIndex(of: 0x0A) {
                let line = buffer[..<end].filter { $0 != 0x0D }
                buffer.removeSubrange(...end)
                return String(decoding: line, as: UTF8.self)
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = recv(socket, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }

    func send(_ text: String) {
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let sent = Glibc.send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL))
            guard sent > 0 else { return }
            bytes.removeFirst(sent)
        }
    }
}
