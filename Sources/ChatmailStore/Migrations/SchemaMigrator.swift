import ChatmailSchema
import Foundation
import GRDB

/// Applies the numbered SQL files of `Schema/Migrations` in order, through GRDB's `DatabaseMigrator`.
///
/// Each file becomes one migration named after the file (`001_account`), recorded in GRDB's
/// `grdb_migrations` table, so running the migrator on a migrated database is a no-op. The files are the
/// single truth about the schema; no Swift type appears in them, because they describe the past.
package struct SchemaMigrator: Sendable {
    /// One migration file.
    package struct Migration: Sendable, Equatable {
        package var number: Int
        package var identifier: String
        package var sql: String
    }

    /// The migrations, in the order they apply.
    package let migrations: [Migration]

    /// Loads the migrations shipped with chatmail.
    package init() throws(StoreError) {
        guard let directory = SchemaResources.migrationsDirectory else { throw .schemaMissing }
        try self.init(directory: directory)
    }

    /// Loads `NNN_name.sql` files from `directory`.
    ///
    /// - throws: ``StoreError/invalidMigrations(_:)`` when a name is malformed, a number repeats or
    ///   the numbers are not contiguous from 1: a missing file would otherwise be silently skipped.
    package init(directory: URL) throws(StoreError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".sql") }
        } catch {
            throw .schemaMissing
        }
        var migrations: [Migration] = []
        for name in names {
            let identifier = String(name.dropLast(".sql".count))
            let digits = identifier.prefix { $0.isASCII && $0.isNumber }
            guard digits.count == 3, identifier.dropFirst(3).first == "_", let number = Int(digits) else {
                throw .invalidMigrations("\(name) is not named NNN_name.sql")
            }
            let sql: String
            do {
                sql = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            } catch {
                throw .invalidMigrations("\(name) cannot be read")
            }
            migrations.append(Migration(number: number, identifier: identifier, sql: sql))
        }
        migrations.sort { $0.number < $1.number }
        for (index, migration) in migrations.enumerated() where migration.number != index + 1 {
            throw .invalidMigrations("expected migration \(index + 1) but found \(migration.identifier)")
        }
        self.migrations = migrations
    }

    /// A GRDB migrator with one registered migration per file.
    package func makeMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in migrations {
            let sql = migration.sql
            migrator.registerMigration(migration.identifier) { db in
                try db.execute(sql: sql)
            }
        }
        return migrator
    }

    /// Brings `writer` up to date.
    ///
    /// A read comes first: when nothing is left to apply, no write lock is taken, so readers can open
    /// the store while a sync holds the writer.
    package func migrate(_ writer: some DatabaseWriter) throws(StoreError) {
        let migrator = makeMigrator()
        do {
            let (complete, superseded) = try writer.read { db in
                (try migrator.hasCompletedMigrations(db), try migrator.hasBeenSuperseded(db))
            }
            if superseded { throw StoreError.schemaFromNewerVersion }
            if complete { return }
            try migrator.migrate(writer)
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            if let mapped = StoreError.mapping(error, path: writer.path) { throw mapped }
            throw .migrationFailed(error.message ?? "SQLite error \(error.resultCode.rawValue)")
        } catch {
            throw .migrationFailed(String(describing: error))
        }
    }
}

extension DatabaseError {
    /// `true` for SQLITE_BUSY and SQLITE_LOCKED: another connection holds a lock past the busy timeout.
    var isLockError: Bool {
        resultCode == .SQLITE_BUSY || resultCode == .SQLITE_LOCKED
    }
}
