import CairnTestSupport
import Fluent
import Foundation
import SQLKit

@testable import CairnServer

/// Looks through every table and column of the live schema (SQLite or PostgreSQL) for rows that mention
/// a value: a user's id (as text in any case, or as the 16 bytes of a blob), email or username. Used to
/// prove that deleting an account leaves nothing of its user, in every module, present and future.
struct SchemaScan {
    let db: any SQLDatabase

    init(_ db: any Database) {
        self.db = db as! any SQLDatabase
    }

    struct Column: Hashable, CustomStringConvertible {
        var table: String
        var name: String
        var description: String { "\(table).\(name)" }
    }

    /// Every column of every table Cairn made (Fluent's own bookkeeping excluded).
    func columns() async throws -> [Column] {
        if db.dialect.name == "sqlite" {
            let tables = try await db.raw(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
            .all(decodingColumn: "name", as: String.self)
            var result: [Column] = []
            for table in tables where table != "_fluent_migrations" {
                let names = try await db.raw("SELECT name FROM pragma_table_info(\(bind: table))").all(
                    decodingColumn: "name", as: String.self)
                result += names.map { Column(table: table, name: $0) }
            }
            return result
        }
        let rows = try await db.raw(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name <> '_fluent_migrations'"
        ).all()
        return try rows.map {
            Column(
                table: try $0.decode(column: "table_name", as: String.self),
                name: try $0.decode(column: "column_name", as: String.self))
        }
    }

    /// The columns holding at least one row that mentions any of `texts` (case-insensitively) or `id`.
    func columns(mentioning id: UUID, texts: [String]) async throws -> Set<Column> {
        let hex = withUnsafeBytes(of: id.uuid) { Data($0) }.map { String(format: "%02x", $0) }.joined()
        let patterns = ([id.uuidString.lowercased(), hex] + texts.map { $0.lowercased() }).map { "%\($0)%" }
        var found = Set<Column>()
        for column in try await columns() {
            let text =
                db.dialect.name == "sqlite"
                ? SQLQueryString("lower(CAST(\(ident: column.name) AS TEXT) || ' ' || hex(\(ident: column.name)))")
                : SQLQueryString("lower(CAST(\(ident: column.name) AS TEXT))")
            for pattern in patterns {
                let count =
                    try await db.raw(
                        "SELECT COUNT(*) AS n FROM \(ident: column.table) WHERE \(text) LIKE \(bind: pattern)"
                    ).first(decodingColumn: "n", as: Int.self) ?? 0
                if count > 0 {
                    found.insert(column)
                    break
                }
            }
        }
        return found
    }

    /// Tables with a column that names a user (`user_id`, `owner_user_id`, …): each module's per-user data.
    func userTables() async throws -> Set<String> {
        Set(try await columns().filter { $0.name == "user_id" || $0.name.hasSuffix("_user_id") }.map(\.table))
    }
}
