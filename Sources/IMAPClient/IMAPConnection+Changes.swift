import IMAPProtocol

/// The `[COPYUID v src dst]` a COPY or MOVE reported (UIDPLUS): where each copied message landed.
public struct IMAPCopiedUIDs: Sendable, Hashable {
    /// The destination mailbox's UIDVALIDITY.
    public var uidValidity: UInt32
    /// Source UID → destination UID.
    public var mapping: [UInt32: UInt32]

    public init(uidValidity: UInt32, mapping: [UInt32: UInt32]) {
        self.uidValidity = uidValidity
        self.mapping = mapping
    }
}

/// The `[APPENDUID v uid]` an APPEND reported (UIDPLUS).
public struct IMAPAppendedUID: Sendable, Hashable {
    /// The mailbox's UIDVALIDITY.
    public var uidValidity: UInt32
    public var uid: UInt32

    public init(uidValidity: UInt32, uid: UInt32) {
        self.uidValidity = uidValidity
        self.uid = uid
    }
}

/// Whether a STORE adds or removes flags (or Gmail labels).
public enum IMAPFlagChange: Sendable, Hashable {
    case add, remove

    /// `+FLAGS.SILENT`: the server need not echo the new flags, which the caller knows.
    func storeOperation(_ item: String) -> String {
        (self == .add ? "+" : "-") + item + ".SILENT"
    }
}

extension IMAPConnection {
    /// `UID STORE uids ±FLAGS.SILENT (flags)` on the selected mailbox; flags are raw (`\Seen`, `$Junk`).
    /// An empty set or list sends nothing.
    public func uidStoreFlags(_ uids: IMAPUIDSet, _ change: IMAPFlagChange, _ flags: [String])
        async throws(IMAPClientError)
    {
        guard !uids.isEmpty, !flags.isEmpty else { return }
        _ = try await execute(.uidStore(uids, change.storeOperation("FLAGS"), flags), name: "UID STORE")
    }

    /// `UID STORE uids ±X-GM-LABELS.SILENT (labels)` on Gmail. System labels (`\Inbox`, `\Trash`,
    /// `\Important`) go as Gmail writes them, bare; user labels as quoted strings in modified UTF-7, as
    /// Gmail encodes labels like mailbox names. An empty set or list sends nothing.
    ///
    /// - Throws: ``IMAPClientError/missingCapability(_:)`` when the server is not Gmail (`X-GM-EXT-1`).
    public func uidStoreGmailLabels(_ uids: IMAPUIDSet, _ change: IMAPFlagChange, _ labels: [String])
        async throws(IMAPClientError)
    {
        guard isGmail else { throw .missingCapability("X-GM-EXT-1") }
        guard !uids.isEmpty, !labels.isEmpty else { return }
        let arguments = labels.map(Self.gmailLabelArgument)
        _ = try await execute(.uidStore(uids, change.storeOperation("X-GM-LABELS"), arguments), name: "UID STORE")
    }

    /// `UID COPY`; nil when the server sent no usable COPYUID, or does not announce UIDPLUS (whose
    /// codes are not trusted without it), or when `uids` is empty (nothing is sent).
    public func uidCopy(_ uids: IMAPUIDSet, to mailbox: String) async throws(IMAPClientError) -> IMAPCopiedUIDs? {
        guard !uids.isEmpty else { return nil }
        let response = try await execute(.uidCopy(uids, mailbox: mailbox), name: "UID COPY")
        return has("UIDPLUS") ? Self.copiedUIDs(in: response) : nil
    }

    /// `UID MOVE` (RFC 6851). The COPYUID comes in an untagged OK before the expunges, or in the tagged
    /// OK; nil when neither carries a usable one, without UIDPLUS, or when `uids` is empty (nothing is
    /// sent).
    ///
    /// - Throws: ``IMAPClientError/missingCapability(_:)`` without `MOVE`: copy, store `\Deleted` and
    ///   expunge instead.
    public func uidMove(_ uids: IMAPUIDSet, to mailbox: String) async throws(IMAPClientError) -> IMAPCopiedUIDs? {
        guard has("MOVE") else { throw .missingCapability("MOVE") }
        guard !uids.isEmpty else { return nil }
        let response = try await execute(.uidMove(uids, mailbox: mailbox), name: "UID MOVE")
        return has("UIDPLUS") ? Self.copiedUIDs(in: response) : nil
    }

    /// `UID EXPUNGE uids`: removes those of the messages marked `\Deleted`, and no others. An empty set
    /// sends nothing.
    ///
    /// - Throws: ``IMAPClientError/missingCapability(_:)`` without `UIDPLUS`.
    public func uidExpunge(_ uids: IMAPUIDSet) async throws(IMAPClientError) {
        guard has("UIDPLUS") else { throw .missingCapability("UIDPLUS") }
        guard !uids.isEmpty else { return }
        _ = try await execute(.uidExpunge(uids), name: "UID EXPUNGE")
    }

    /// `EXPUNGE`: removes every message of the selected mailbox marked `\Deleted`, for servers without
    /// UIDPLUS.
    public func expunge() async throws(IMAPClientError) {
        _ = try await execute(.expunge, name: "EXPUNGE")
    }

    /// `CREATE`. A mailbox that exists already (`[ALREADYEXISTS]`, or a NO whose text says it exists)
    /// is not an error.
    public func create(_ mailbox: String) async throws(IMAPClientError) {
        let response = try await executeUnchecked(.create(mailbox: mailbox), name: "CREATE", kind: .ordinary)
        let completion = response.completion
        switch completion.status {
        case .ok: return
        case .no where Self.saysAlreadyExists(completion): return
        default:
            throw .commandFailed(command: "CREATE", status: completion.status.rawValue, serverText: completion.text)
        }
    }

    /// `APPEND` with raw flags (`\Seen`) and an optional INTERNALDATE; nil when the server sent no
    /// APPENDUID or does not announce UIDPLUS. The message goes as a non-synchronizing literal when the
    /// server allows it (LITERAL+, or LITERAL- up to 4096 bytes), else after the server's `+`.
    public func append(_ message: [UInt8], to mailbox: String, flags: [String], internalDateMs: Int64? = nil)
        async throws(IMAPClientError) -> IMAPAppendedUID?
    {
        let literalMinusLimit = 4096
        let literalPlus =
            has("LITERAL+")
            || (has("LITERAL-") && message.count <= literalMinusLimit
                && ModifiedUTF7.encode(mailbox).utf8.count <= literalMinusLimit)
        let command = IMAPCommand.append(
            mailbox: mailbox, flags: flags, internalDateMs: internalDateMs, message: message)
        let response = try await finish(submit(command, name: "APPEND", literalPlus: literalPlus), name: "APPEND")
        guard has("UIDPLUS"), case .appendUID(let uidValidity, let uid)? = response.completion.code else {
            return nil
        }
        return IMAPAppendedUID(uidValidity: uidValidity, uid: uid)
    }

    // MARK: Helpers

    /// `\Inbox` bare when it is a system label (a backslash and atom characters), anything else quoted
    /// after modified UTF-7 encoding.
    static func gmailLabelArgument(_ label: String) -> String {
        let bytes = Array(label.utf8)
        let isSystemLabel =
            bytes.count > 1 && bytes[0] == UInt8(ascii: "\\")
            && bytes.dropFirst().allSatisfy { byte in
                (0x21...0x7E).contains(byte) && !Array("(){\"\\%*]".utf8).contains(byte)
            }
        if isSystemLabel { return label }
        var quoted = "\""
        for character in ModifiedUTF7.encode(label) {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    /// The COPYUID codes of a COPY or MOVE, from its untagged OKs and its completion, merged; nil when
    /// there is none, or when they disagree with themselves (lists of different lengths, or several
    /// UIDVALIDITY values), since a wrong pairing would be worse than none.
    static func copiedUIDs(in response: IMAPCommandResponse) -> IMAPCopiedUIDs? {
        var codes: [IMAPResponseCode] = []
        for case .condition(.ok, let code?, _) in response.untagged { codes.append(code) }
        if let code = response.completion.code { codes.append(code) }
        var result: IMAPCopiedUIDs?
        for case .copyUID(let uidValidity, let source, let destination) in codes {
            guard source.count == destination.count, result.map({ $0.uidValidity == uidValidity }) ?? true else {
                return nil
            }
            var copied = result ?? IMAPCopiedUIDs(uidValidity: uidValidity, mapping: [:])
            for (from, to) in zip(source, destination) {
                guard copied.mapping.updateValue(to, forKey: from).map({ $0 == to }) ?? true else { return nil }
            }
            result = copied
        }
        return result
    }

    private static func saysAlreadyExists(_ completion: IMAPTaggedResponse) -> Bool {
        if case .other(let name, _)? = completion.code, name == "ALREADYEXISTS" { return true }
        let text = completion.text.lowercased()
        return text.contains("already exist")
            || (text.contains("exists") && !text.contains("not exist") && !text.contains("n't exist"))
    }
}
