import Fluent
import Foundation
import Vapor

/// The platform's store of idempotency records (`Idempotency.write`), plugged in like an app module so that
/// a user's records go with their account. Its table comes with `CreateIdempotencyRecord` in the migration list.
package struct IdempotencyModule: CairnModule {
    private let now: @Sendable () -> Date

    package init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    package func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws {
        try await IdempotencyRecord.query(on: db).filter(\.$owner == userID.uuidString).delete()
    }

    package func sampleUserData(for userID: UUID, on db: any Database) async throws {
        try await IdempotencyRecord(
            owner: userID.uuidString, key: "sample-key", fingerprint: String(repeating: "0", count: 64), status: 201,
            contentType: "application/json", location: nil, body: Data(#"{"user_id":"\#(userID)"}"#.utf8),
            createdAt: now()
        ).create(on: db)
    }
}
