import Foundation

/// Errors of a Markdown export.
public enum ExportError: Error, Sendable, Equatable {
    /// A file or folder the export would write already exists with other content, and `force` was
    /// not given.
    case wouldOverwrite(path: String, count: Int)
    /// The output path names something that is not a directory where one is needed.
    case notADirectory(String)
    case writeFailed(path: String, reason: String)
    /// Attachments were asked for, but there is no saved login to download them with.
    case attachmentsNeedLogin
    /// One attachment could not be fetched (reported per file, not thrown out of the export).
    case attachmentUnavailable(String)
    /// The export finished, but some attachments could not be saved.
    case attachmentsFailed(count: Int, first: String)
}

extension ExportError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .wouldOverwrite(let path, let count):
            count == 1
                ? "\(path) already exists and differs from what the export would write; nothing was written. Use --force to rewrite it."
                : "\(path) and \(count - 1) more already exist and differ from what the export would write; nothing was written. Use --force to rewrite them."
        case .notADirectory(let path):
            "\(path) exists and is not a directory; --all needs a directory to write into."
        case .writeFailed(let path, let reason):
            "Could not write \(path): \(reason)."
        case .attachmentsNeedLogin:
            "--attachments downloads from Gmail, and this chatmail home is not logged in. Run `chatmail login` first, or export without --attachments."
        case .attachmentUnavailable(let reason):
            "The attachment is not available: \(reason)."
        case .attachmentsFailed(let count, let first):
            "The export was written, but \(count) attachment\(count == 1 ? "" : "s") could not be downloaded (first: \(first))."
        }
    }
}
