import Fluent
import Foundation
import SQLKit

/// The live schema of a database in words, one line per fact, for comparing with a checked-in description:
/// every table Cairn made (Fluent's migration log excepted), its columns in order with type and nullability,
/// its foreign keys and its indexes (unique ones and those behind constraints included).
struct SchemaDescription {
    let db: any SQLDatabase

    init(_ db: any Database) {
        self.db = db as! any SQLDatabase
    }

    var isSQLite: Bool { db.dialect.name == "sqlite" }

    /// The tables, sorted by name, each with its columns, foreign keys and indexes.
    func text() async throws -> String {
        var lines: [String] = []
        for table in try await tables() {
            lines.append("table \(table)")
            lines += try await columns(of: table).map { "  column \($0)" }
            lines += try await foreignKeys(of: table).map { "  foreign key \($0)" }
            lines += try await indexes(of: table).map { $0.hasPrefix("unique ") ? "  \($0)" : "  index \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every table but Fluent's own `_fluent_migrations`, sorted.
    func tables() async throws -> [String] {
        let sql: SQLQueryString =
            isSQLite
            ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
            : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name"
        return try await db.raw(sql).all(decodingColumn: "name", as: String.self).filter { $0 != "_fluent_migrations" }
    }

    /// Every index in the database, whatever table it is on (Fluent's own excepted), sorted.
    func allIndexes() async throws -> [String] {
        let sql: SQLQueryString =
            isSQLite
            ? "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name <> '_fluent_migrations' ORDER BY name"
            : "SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND tablename <> '_fluent_migrations' ORDER BY indexname"
        return try await db.raw(sql).all(decodingColumn: "name", as: String.self)
    }

    /// The names in Fluent's migration log, sorted.
    func appliedMigrations() async throws -> [String] {
        try await db.raw("SELECT name FROM _fluent_migrations ORDER BY name").all(
            decodingColumn: "name", as: String.self)
    }

    /// `name TYPE [not null]`, in the table's column order.
    private func columns(of table: String) async throws -> [String] {
        if isSQLite {
            let rows = try await db.raw(
                "SELECT name, type, \"notnull\" AS required FROM pragma_table_info(\(bind: table)) ORDER BY cid"
            )
            .all()
            return try rows.map { row in
                let name = try row.decode(column: "name", as: String.self)
                let type = try row.decode(column: "type", as: String.self)
                let required = try row.decode(column: "required", as: Int.self) != 0
                return "\(name) \(type)\(required ? " not null" : "")"
            }
        }
        let rows = try await db.raw(
            """
            SELECT column_name, data_type, is_nullable FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = \(bind: table) ORDER BY ordinal_position
            """
        ).all()
        return try rows.map { row in
            let name = try row.decode(column: "column_name", as: String.self)
            let type = try row.decode(column: "data_type", as: String.self)
            let required = try row.decode(column: "is_nullable", as: String.self) == "NO"
            return "\(name) \(type)\(required ? " not null" : "")"
        }
    }

    /// `column → table.column on delete RULE`, sorted.
    private func foreignKeys(of table: String) async throws -> [String] {
        if isSQLite {
            let rows = try await db.raw(
                "SELECT \"from\" AS source, \"table\" AS target, \"to\" AS target_column, on_delete FROM pragma_foreign_key_list(\(bind: table))"
            ).all()
            return try rows.map { row in
                "\(try row.decode(column: "source", as: String.self)) → \(try row.decode(column: "target", as: String.self)).\(try row.decode(column: "target_column", as: String.self)) on delete \(try row.decode(column: "on_delete", as: String.self).lowercased())"
            }.sorted()
        }
        let rows = try await db.raw(
            """
            SELECT kcu.column_name AS source, ccu.table_name AS target, ccu.column_name AS target_column,
                   rc.delete_rule AS on_delete
            FROM information_schema.table_constraints tc
            JOIN information_schema.key_column_usage kcu
              ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
            JOIN information_schema.constraint_column_usage ccu
              ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema
            JOIN information_schema.referential_constraints rc
              ON rc.constraint_name = tc.constraint_name AND rc.constraint_schema = tc.table_schema
            WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema()
              AND tc.table_name = \(bind: table)
            """
        ).all()
        return try rows.map { row in
            "\(try row.decode(column: "source", as: String.self)) → \(try row.decode(column: "target", as: String.self)).\(try row.decode(column: "target_column", as: String.self)) on delete \(try row.decode(column: "on_delete", as: String.self).lowercased())"
        }.sorted()
    }

    /// `[unique index ]name (column, …)`, sorted by name.
    private func indexes(of table: String) async throws -> [String] {
        if isSQLite {
            let rows = try await db.raw("SELECT name, \"unique\" AS is_unique FROM pragma_index_list(\(bind: table))")
                .all()
            var result: [(name: String, line: String)] = []
            for row in rows {
                let name = try row.decode(column: "name", as: String.self)
                let unique = try row.decode(column: "is_unique", as: Int.self) != 0
                let columns = try await db.raw("SELECT name FROM pragma_index_info(\(bind: name)) ORDER BY seqno")
                    .all(decodingColumn: "name", as: String.self)
                result.append((name, "\(unique ? "unique index " : "")\(name) (\(columns.joined(separator: ", ")))"))
            }
            return result.sorted { $0.name < $1.name }.map(\.line)
        }
        let rows = try await db.raw(
            """
            SELECT i.relname AS name, ix.indisunique AS is_unique,
                   array_to_string(array_agg(a.attname ORDER BY k.ordinality), ', ') AS columns
            FROM pg_index ix
            JOIN pg_class t ON t.oid = ix.indrelid
            JOIN pg_class i ON i.oid = ix.indexrelid
            JOIN pg_namespace n ON n.oid = t.relnamespace
            CROSS JOIN LATERAL unnest(ix.indkey) WITH ORDINALITY AS k(attnum, ordinality)
            JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
            WHERE n.nspname = current_schema() AND t.relname = \(bind: table)
            GROUP BY i.relname, ix.indisunique
            ORDER BY i.relname
            """
        ).all()
        return try rows.map { row in
            let unique = try row.decode(column: "is_unique", as: Bool.self)
            return
                "\(unique ? "unique index " : "")\(try row.decode(column: "name", as: String.self)) (\(try row.decode(column: "columns", as: String.self)))"
        }
    }
}
