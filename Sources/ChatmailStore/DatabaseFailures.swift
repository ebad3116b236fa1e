import Foundation
import GRDB

extension DatabaseError {
    /// `true` for the SQLite codes that mean the file itself is damaged: SQLITE_CORRUPT (with its
    /// extended codes for a damaged index, sequence or virtual table such as the search index),
    /// SQLITE_NOTADB (garbage where the header should be) and SQLITE_FORMAT, which older SQLite
    /// versions raised for the same reason.
    var isCorruption: Bool {
        resultCode == .SQLITE_CORRUPT || resultCode == .SQLITE_NOTADB || resultCode == .SQLITE_FORMAT
    }

    /// SQLite's own explanation on one line ("database disk image is malformed"), without the statement
    /// and arguments that GRDB's description appends: they may hold the user's mail.
    var reasonWithoutStatement: String {
        let message = (self.message ?? "").split(whereSeparator: \.isNewline).joined(separator: " ")
        return message.isEmpty ? "SQLite error \(extendedResultCode.rawValue)" : message
    }
}

extension StoreError {
    /// The store error a GRDB failure on the database at `path` stands for, or `nil` when it is none
    /// of those a caller must tell apart (a constraint, a query the search index rejects).
    static func mapping(_ error: DatabaseError, path: String) -> StoreError? {
        if error.isLockError { return .databaseLocked }
        if error.isCorruption { return .databaseDamaged(path: path, reason: error.reasonWithoutStatement) }
        return nil
    }

    /// A one-line description of an error raised by the database library, for reporting an error
    /// nobody anticipated; `nil` for other errors.
    ///
    /// GRDB's own descriptions quote the SQL statement and, for some errors, the values of the row:
    /// mail addresses and text that must not end up in a terminal or a bug report.
    public static func databaseFailureSummary(of error: any Error) -> String? {
        if let error = error as? DatabaseError {
            return
                "Database error (SQLite error \(error.extendedResultCode.rawValue)): \(error.reasonWithoutStatement)."
        }
        let type = String(reflecting: Swift.type(of: error))
        guard type.hasPrefix("GRDB.") else { return nil }
        return "Unexpected database error (\(type.dropFirst("GRDB.".count)))."
    }
}
