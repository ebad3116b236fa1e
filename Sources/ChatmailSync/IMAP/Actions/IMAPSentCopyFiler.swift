import IMAPClient

/// Files the Sent copy of a message chatmail submitted over SMTP. Its connection is opened, and the
/// Sent folder found (or created), while the message is being submitted, so the copy adds only the
/// APPEND to the time a person waits.
struct IMAPSentCopyFiler: Sendable {
    let connection: IMAPConnection
    /// The `\Sent` folder, or "Sent" created for a server that has none.
    let folder: String

    /// The filer, or why none could be opened (the message is sent all the same; the copy is noted).
    /// - parameter knownFolder: the Sent folder sync already reads, which spares a LIST.
    static func open(_ connector: IMAPConnector, credentials: IMAPAuthentication, knownFolder: String?) async
        -> Result<IMAPSentCopyFiler, any Error>
    {
        let connection: IMAPConnection
        do {
            connection = try await IMAPConnection.connect(
                to: connector.endpoint, authentication: credentials, timeouts: connector.timeouts)
        } catch {
            return .failure(error)
        }
        if let knownFolder { return .success(IMAPSentCopyFiler(connection: connection, folder: knownFolder)) }
        do {
            let folders = IMAPServerFolders(listing: try await connection.listFolders(), isGmail: connection.isGmail)
            let sent = folders.sent ?? "Sent"
            if folders.sent == nil { try await connection.create(sent) }
            return .success(IMAPSentCopyFiler(connection: connection, folder: sent))
        } catch {
            await connection.logout()
            return .failure(error)
        }
    }

    /// APPENDs `raw` with `\Seen`; the new UID when the server reports it (UIDPLUS).
    func append(_ raw: [UInt8], internalDateMs: Int64) async throws -> IMAPAppendedUID? {
        try await connection.append(raw, to: folder, flags: ["\\Seen"], internalDateMs: internalDateMs)
    }

    /// Drops the connection: the APPEND has been answered, and a person waits for `reply` to finish
    /// while a LOGOUT would wait for the server's goodbye.
    func close() async {
        await connection.close()
    }
}

/// What a send needs from the server before the message exists: the credentials, asked for once, and
/// the Sent copy's connection, opening meanwhile. `reply` and `send` start it before they compose and
/// queue, so the login to the IMAP server overlaps their local work.
public struct IMAPSendPreparation: Sendable {
    let credentials: Result<IMAPAuthentication, any Error>
    /// `nil` when the server files its own copy.
    let filer: Task<Result<IMAPSentCopyFiler, any Error>, Never>?

    /// Closes the connection the send did not use.
    func discard() async {
        if case .success(let opened)? = await filer?.value { await opened.close() }
    }
}
