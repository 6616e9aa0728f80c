import Fluent
import Foundation

/// The mountains' version (`ski_catalogue_state`, one row): every write that changes what a list of
/// mountains shows or sorts by (a mountain's name or place, a ticket price; an import, a price sheet, an
/// admin's edit, the demo seed) raises it in its write transaction, so each server process knows when its
/// in-memory index (`SkiMountainIndex`) is stale — also after a write by another process.
final class SkiCatalogueState: Model, @unchecked Sendable {
    static let schema = "ski_catalogue_state"
    static let rowID = 1

    @ID(custom: "id", generatedBy: .user) var id: Int?
    @Field(key: "version") var version: Int
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(version: Int, updatedAt: Date) {
        id = Self.rowID
        self.version = version
        self.updatedAt = updatedAt
    }

    /// The stored version; 0 before the first write.
    static func version(on db: any Database) async throws -> Int {
        try await find(rowID, on: db)?.version ?? 0
    }

    /// Raises the version; call it inside the write transaction that changes the mountains or their prices.
    static func bump(on db: any Database, at now: Date) async throws {
        if let state = try await find(rowID, on: db) {
            state.version += 1
            state.updatedAt = now
            try await state.save(on: db)
        } else {
            try await SkiCatalogueState(version: 1, updatedAt: now).create(on: db)
        }
    }
}
