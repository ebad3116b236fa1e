import ChatmailStore
import IMAPProtocol
import MailText

/// Finds the stored message a copy is from its metadata alone, so it need not be downloaded.
///
/// On Gmail, X-GM-MSGID is the message. Elsewhere only a folder that starts over under a new UIDVALIDITY is
/// matched this way: its messages were stored a moment ago and are simply renumbered, so the Message-ID,
/// size and INTERNALDATE of exactly one stored message (not yet in this folder) identify it. Anything
/// else (no Message-ID, several candidates, none) is downloaded and decided by its digest.
enum IMAPHeaderMatch {
    static func storedMessage(
        for attributes: IMAPFetchAttributes, folder: IMAPFolderState, matchingHeaders: Bool, tx: StoreTransaction,
        account: AccountID
    ) throws -> MessageID? {
        if let gmailID = attributes.gmailMessageID {
            let stored = try tx.imapMessage(withKey: String(gmailID, radix: 16), in: account)
            guard let stored, !stored.folders.contains(folder.id) else { return nil }
            return stored.messageID
        }
        guard matchingHeaders, let header = attributes.header, let size = attributes.rfc822Size,
            let date = attributes.internalDateMs,
            let messageID = ParsedMessage(raw: header + Array("\r\n".utf8)).messageID
        else { return nil }
        let candidates = try tx.imapMessages(
            withMessageID: messageID, size: Int64(size), internalDateMs: date, in: account
        ).filter { !$0.folders.contains(folder.id) }
        return candidates.count == 1 ? candidates[0].messageID : nil
    }
}
