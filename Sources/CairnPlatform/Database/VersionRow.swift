import Fluent
import Foundation

/// A data set whose version is kept in a one-row table (the field guide's catalogue, the ski mountains, the
/// trails): every write that changes the set raises it in its own transaction, so each server process — and
/// each device — can tell with one indexed read that its in-memory copy is stale, also after a write by another
/// process. A module declares its set as an enum naming the table; `VersionRow<Self>` is the row and
/// `VersionGuardedStore` the in-memory copy kept by it.
package protocol VersionTable {
    /// The one-row table: `id` (always `VersionRow.rowID`), `version`, `updated_at`.
    static var schema: String { get }
}

extension VersionTable {
    /// The stored version; 0 before the first write.
    package static func version(on db: any Database) async throws -> Int {
        try await VersionRow<Self>.find(VersionRow<Self>.rowID, on: db)?.version ?? 0
    }

    /// Raises the version (to 1 when there is none yet) and returns it; call it inside the write transaction
    /// that changes the set.
    @discardableResult
    package static func bump(on db: any Database, at now: Date) async throws -> Int {
        guard let state = try await VersionRow<Self>.find(VersionRow<Self>.rowID, on: db) else {
            try await VersionRow<Self>(version: 1, updatedAt: now).create(on: db)
            return 1
        }
        state.version += 1
        state.updatedAt = now
        try await state.save(on: db)
        return state.version
    }
}

/// The one row of a `VersionTable`.
package final class VersionRow<Table: VersionTable>: Model, @unchecked Sendable {
    package static var schema: String { Table.schema }

    /// The one row's id.
    package static var rowID: Int { 1 }

    @ID(custom: "id", generatedBy: .user) package var id: Int?
    @Field(key: "version") package var version: Int
    @Field(key: "updated_at") package var updatedAt: Date

    package init() {}

    package init(version: Int, updatedAt: Date) {
        id = Self.rowID
        self.version = version
        self.updatedAt = updatedAt
    }
}
