import Fluent

/// Indexes `idempotency_records.created_at`: every idempotent write deletes the records past their lifetime.
/// (Lookups by owner and key, and deletion by owner, use the unique (owner, key) index.)
package struct AddIdempotencyRecordCreatedAtIndex: AsyncMigration {
    static let indexes = [TableIndex("idempotency_records_created_at", on: IdempotencyRecord.schema, "created_at")]

    package init() {}

    package func prepare(on database: any Database) async throws {
        try await TableIndex.create(Self.indexes, on: database)
    }

    package func revert(on database: any Database) async throws {
        try await TableIndex.drop(Self.indexes, on: database)
    }
}
