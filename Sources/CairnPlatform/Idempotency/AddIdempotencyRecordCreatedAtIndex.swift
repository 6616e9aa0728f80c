import Fluent
import SQLKit

/// Indexes `idempotency_records.created_at`: every idempotent write deletes the records past their lifetime.
/// (Lookups by owner and key, and deletion by owner, use the unique (owner, key) index.)
package struct AddIdempotencyRecordCreatedAtIndex: AsyncMigration {
    static let index = "idempotency_records_created_at"

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await (database as! any SQLDatabase).create(index: Self.index).on(IdempotencyRecord.schema)
            .column("created_at").run()
    }

    package func revert(on database: any Database) async throws {
        try await (database as! any SQLDatabase).drop(index: Self.index).run()
    }
}
