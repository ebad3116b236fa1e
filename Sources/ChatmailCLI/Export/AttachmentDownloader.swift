import ChatmailStore
import Foundation
import GmailAPI
import GmailModel
import MarkdownExport

/// Fetches attachment bytes from Gmail for `export --attachments`.
///
/// Attachment ids are ephemeral: the id saved at sync time is tried first, and when
/// Gmail no longer knows it, the message is fetched again and the same MIME part (by part id) is read,
/// inline or through its fresh attachment id.
struct AttachmentDownloader: AttachmentFetching {
    let client: GmailClient

    /// A connection for downloading, to the logged-in account's Gmail.
    /// - throws: ``ExportError/attachmentsNeedLogin`` when this home has no saved login.
    static func connect(_ env: AppEnvironment) throws -> GmailConnection {
        do {
            return try GmailConnection.open(env)
        } catch StoreError.noAccount {
            throw ExportError.attachmentsNeedLogin
        }
    }

    /// A lost or revoked login: `chatmail login` is the fix, and every other download would fail too.
    func stopsExport(_ error: any Error) -> Bool {
        error is GmailAPIError && ExitStatus(for: error) == .notLoggedIn
    }

    func data(for source: AttachmentSource) async throws -> Data {
        if let id = source.gmailAttachmentID {
            do {
                return try Self.decode(try await client.getAttachment(messageID: source.gmailID, attachmentID: id))
            } catch GmailAPIError.giveUp(.notFound), GmailAPIError.badRequest {
                // The id expired: fall through to a fresh copy of the message.
            }
        }
        let message = try await client.getMessage(id: source.gmailID, format: .full)
        guard let part = message.payload.flatMap({ Self.part(source.partID, in: $0) }) else {
            throw ExportError.attachmentUnavailable("the message no longer has part \(source.partID)")
        }
        if let data = part.body?.data { return try Self.decode(MessagePartBody(data: data)) }
        if let id = part.body?.attachmentId {
            return try Self.decode(try await client.getAttachment(messageID: source.gmailID, attachmentID: id))
        }
        return Data()  // an empty part
    }

    static func part(_ id: String, in part: MessagePart) -> MessagePart? {
        if part.partId == id { return part }
        for child in part.parts {
            if let found = Self.part(id, in: child) { return found }
        }
        return nil
    }

    /// The bytes of a body's base64url data (padded or not); whitespace is dropped first, as the
    /// base64 decoders of mail clients do.
    static func decode(_ body: MessagePartBody) throws -> Data {
        guard let text = body.data else { return Data() }
        guard let bytes = Base64URL.decode(text.filter { !$0.isWhitespace }) else {
            throw ExportError.attachmentUnavailable("Gmail sent data that is not base64url")
        }
        return Data(bytes)
    }
}
