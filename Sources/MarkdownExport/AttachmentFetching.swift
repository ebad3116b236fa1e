import ChatmailStore
import Foundation

/// Where an export gets the bytes of the attachments it saves.
///
/// The export writes files and knows nothing of the network: whoever runs it passes a fetcher (the
/// command line passes one that downloads from Gmail), and exports without attachments pass none.
public protocol AttachmentFetching: Sendable {
    /// The bytes of one attachment.
    func data(for source: AttachmentSource) async throws -> Data

    /// Whether `error`, thrown by ``data(for:)``, would fail every other download the same way (a lost
    /// login), so the export stops with it rather than list one failure per attachment.
    func stopsExport(_ error: any Error) -> Bool
}
