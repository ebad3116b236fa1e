import GRDB
import GRDBSQLite

/// Binds values straight onto a cached GRDB statement, for the per-row inserts of bulk writes.
///
/// `StatementArguments` boxes every value in an existential and an enum before binding; on the insert
/// path that runs several times per stored message, that boxing cost more than SQLite's own work.
/// This binds with `sqlite3_bind_*` directly, then lets GRDB step the statement, so GRDB's error
/// handling, transaction observation and scheduling checks still apply.
///
/// It relies on one GRDB behaviour: after ``prepare(_:)`` marks the statement's arguments as bound,
/// `execute()` only calls `sqlite3_reset`, which keeps bindings. Unchanged bindings carry over from
/// one row to the next, so a caller binds shared values once. Bound values are not recorded by GRDB,
/// so they can never appear in an error message.
struct DirectBinding {
    let statement: Statement

    /// Clears previous bindings and marks the arguments as bound.
    static func prepare(_ statement: Statement) -> DirectBinding {
        statement.setUncheckedArguments(StatementArguments())
        return DirectBinding(statement: statement)
    }

    func bind(_ value: Int64, at index: Int32) {
        check(sqlite3_bind_int64(statement.sqliteStatement, index, value))
    }

    func bind(_ value: Bool, at index: Int32) {
        check(sqlite3_bind_int64(statement.sqliteStatement, index, value ? 1 : 0))
    }

    func bind(_ value: String, at index: Int32) {
        var text = value
        let code = text.withUTF8 { utf8 -> Int32 in
            // An empty buffer may have no base address, which SQLite would take for NULL.
            guard let base = utf8.baseAddress, utf8.count > 0 else {
                return sqlite3_bind_text(statement.sqliteStatement, index, "", 0, nil)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                sqlite3_bind_text(statement.sqliteStatement, index, $0, Int32(utf8.count), Self.transient)
            }
        }
        check(code)
    }

    func bind(_ value: String?, at index: Int32) {
        guard let value else {
            check(sqlite3_bind_null(statement.sqliteStatement, index))
            return
        }
        bind(value, at: index)
    }

    func bind(_ value: Int64?, at index: Int32) {
        guard let value else {
            check(sqlite3_bind_null(statement.sqliteStatement, index))
            return
        }
        bind(value, at: index)
    }

    /// Steps the statement to completion, then resets it so the next row can be bound
    /// (SQLite refuses bindings on a statement that has been stepped and not reset).
    func execute() throws {
        try statement.execute()
        sqlite3_reset(statement.sqliteStatement)  // after SQLITE_DONE this cannot fail
    }

    /// SQLITE_TRANSIENT: SQLite copies the text before `bind` returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Binding fails only on a wrong index or an out-of-memory condition: programming errors.
    private func check(_ code: Int32) {
        precondition(code == SQLITE_OK, "sqlite3_bind failed with code \(code)")
    }
}
