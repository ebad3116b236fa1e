import ChatmailStore

/// Decides which stored message each new copy in a folder is, and writes it, inside one transaction.
///
/// The invariants it keeps:
/// - On Gmail a copy is the message with its X-GM-MSGID; elsewhere it is a stored message with the same
///   digest of the raw bytes. Message-ID and size may pick candidates (a recovery), never decide.
/// - A folder holds at most one copy of a message: a second copy with the same bytes in the same folder is
///   a second message, keyed by the digest and a counter.
/// - The labels of every touched message are recomputed from all its copies before the transaction ends.
struct IMAPCopyPlacer {
    let account: AccountID
    let folder: IMAPFolderState

    struct Outcome {
        var inserted = 0
        var unreadable = 0
        var touched = Set<MessageID>()
    }

    /// Stores downloaded copies: each becomes a copy of the stored message it is, or a new message.
    func place(_ prepared: [PreparedIMAPMessage], tx: StoreTransaction, modifications: inout Modifications) throws
        -> Outcome
    {
        var outcome = Outcome()
        var candidates = try tx.imapMessages(withDigests: prepared.map(\.digest), in: account)
        var unfiledSent = try tx.unfiledSentMessages(in: account)
        var toArchive: [MessageID] = []
        for message in prepared {
            if let existing = try existingMessage(for: message, candidates: candidates[message.digest] ?? [], tx: tx) {
                try tx.setIMAPCopy(existing, folder: folder.id, uid: message.uid, state: message.copy)
                outcome.touched.insert(existing)
                note(existing, in: &candidates[message.digest, default: []])
                continue
            }
            var input = message.input
            let sameBytes = candidates[message.digest] ?? []
            input.gmailID =
                message.gmailKey ?? Self.key(digest: message.digest, taken: Set(sameBytes.map(\.key)))
            if let sent = try adoptSent(message, key: input.gmailID, from: &unfiledSent, tx: tx) {
                outcome.touched.insert(sent)
                candidates[message.digest, default: []].append(
                    IMAPStoredCandidate(messageID: sent, key: input.gmailID, folders: [folder.id]))
                continue
            }
            let upsert = try tx.upsert(input, in: account)
            modifications.report(upsert.affectedConversations)
            if upsert.decidedByArchivingRule { toArchive.append(upsert.messageID) }
            try tx.setIMAPIdentity(of: upsert.messageID, digest: message.digest, internalDateMs: message.internalDateMs)
            try tx.setIMAPCopy(upsert.messageID, folder: folder.id, uid: message.uid, state: message.copy)
            candidates[message.digest, default: []].append(
                IMAPStoredCandidate(messageID: upsert.messageID, key: input.gmailID, folders: [folder.id]))
            outcome.inserted += 1
            if message.unreadable != nil { outcome.unreadable += 1 }
        }
        modifications.report(try tx.archiveByRules(toArchive, in: account).conversations)
        return outcome
    }

    /// The message chatmail sent that this copy is, by its Message-ID, adopted under the copy's key: the
    /// copy a server files in Sent itself may differ in bytes from what was submitted, and the outbox
    /// copy must not stay beside it. `nil` when the copy is no such message.
    private func adoptSent(
        _ message: PreparedIMAPMessage, key: String,
        from unfiled: inout [String: (message: MessageID, key: String)], tx: StoreTransaction
    ) throws -> MessageID? {
        guard !unfiled.isEmpty, let rfc822MessageID = message.input.rfc822MessageID,
            let sent = unfiled.removeValue(forKey: rfc822MessageID)
        else { return nil }
        try tx.rekeyMessage(sent.message, from: sent.key, to: key, in: account)
        try tx.setIMAPIdentity(of: sent.message, digest: message.digest, internalDateMs: message.internalDateMs)
        try tx.setIMAPCopy(sent.message, folder: folder.id, uid: message.uid, state: message.copy)
        return sent.message
    }

    /// Adopts a copy found by its headers alone (after a UIDVALIDITY change), without downloading it.
    func adopt(_ message: MessageID, uid: UInt32, state: IMAPCopyState, tx: StoreTransaction) throws {
        try tx.setIMAPCopy(message, folder: folder.id, uid: uid, state: state)
    }

    private func existingMessage(
        for message: PreparedIMAPMessage, candidates: [IMAPStoredCandidate], tx: StoreTransaction
    ) throws -> MessageID? {
        if let gmailKey = message.gmailKey {
            // Gmail's id decides on Gmail, whatever the bytes (Gmail rewrites nothing, but one id is one message).
            guard let stored = try tx.imapMessage(withKey: gmailKey, in: account) else { return nil }
            return stored.folders.contains(folder.id) ? nil : stored.messageID
        }
        return candidates.first { !$0.folders.contains(folder.id) }?.messageID
    }

    private func note(_ message: MessageID, in candidates: inout [IMAPStoredCandidate]) {
        if let index = candidates.firstIndex(where: { $0.messageID == message }) {
            candidates[index].folders.insert(folder.id)
        }
    }

    /// The provider key of a message outside Gmail: its digest, and for further messages with the same
    /// bytes (copies in one folder) the lowest counter no stored message with those bytes has.
    static func key(digest: String, taken: Set<String>) -> String {
        let base = "imap-" + digest.prefix(32)
        if !taken.contains(base) { return base }
        var counter = 2
        while taken.contains(base + "-\(counter)") { counter += 1 }
        return base + "-\(counter)"
    }
}
