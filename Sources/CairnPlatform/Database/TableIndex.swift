import Fluent
import SQLKit

/// A plain (non-unique) index a migration creates beside its tables — the one way migrations declare them:
///
/// ```swift
/// static let indexes = [TableIndex("planned_runs_user_id_created_at", on: PlannedRun.schema, "user_id", "created_at")]
/// // prepare: after the tables
/// try await TableIndex.create(Self.indexes, on: database)
/// // revert: before the tables
/// try await TableIndex.drop(Self.indexes, on: database)
/// ```
///
/// Unique constraints stay with the table (`.unique(on:)`), so that Fluent reports their violations.
package struct TableIndex: Sendable, Equatable {
    package let name: String
    package let table: String
    package let columns: [String]

    package init(_ name: String, on table: String, _ columns: String...) {
        self.name = name
        self.table = table
        self.columns = columns
    }

    /// Creates `indexes` in order.
    package static func create(_ indexes: [TableIndex], on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        for index in indexes {
            var create = sql.create(index: index.name).on(index.table)
            for column in index.columns { create = create.column(column) }
            try await create.run()
        }
    }

    /// Drops `indexes`, last first.
    package static func drop(_ indexes: [TableIndex], on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        for index in indexes.reversed() {
            try await sql.drop(index: index.name).run()
        }
    }
}
