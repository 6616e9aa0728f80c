import Fluent
import Foundation

/// A data set's version kept in a one-row table (the field guide's catalogue, the ski mountains): every write
/// that changes the set raises it in its own transaction, so each server process — and each device — can tell
/// with one indexed read that its in-memory copy is stale, also after a write by another process.
package protocol VersionRow: Model where IDValue == Int {
    var version: Int { get set }
    var updatedAt: Date { get set }
    init(version: Int, updatedAt: Date)
}

extension VersionRow {
    /// The one row's id.
    package static var rowID: Int { 1 }

    /// The stored version; 0 before the first write.
    package static func version(on db: any Database) async throws -> Int {
        try await find(rowID, on: db)?.version ?? 0
    }

    /// Raises the version (to 1 when there is none yet) and returns it; call it inside the write transaction
    /// that changes the set.
    @discardableResult
    package static func bump(on db: any Database, at now: Date) async throws -> Int {
        guard let state = try await find(rowID, on: db) else {
            try await Self(version: 1, updatedAt: now).create(on: db)
            return 1
        }
        state.version += 1
        state.updatedAt = now
        try await state.save(on: db)
        return state.version
    }
}
