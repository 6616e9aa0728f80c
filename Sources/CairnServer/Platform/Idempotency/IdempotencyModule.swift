import Fluent
import Foundation
import Vapor

/// The platform's store of idempotency records (`Request.idempotentWrite`), plugged in like an app module so
/// that its table is migrated with the others and a user's records go with their account.
struct IdempotencyModule: CairnModule {
    var migrations: [any Migration] {
        [CreateIdempotencyRecord()]
    }

    func boot(api: any RoutesBuilder, app: Application) throws {}

    func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws {
        try await IdempotencyRecord.query(on: db).filter(\.$owner == userID.uuidString).delete()
    }

    func sampleUserData(for userID: UUID, on app: Application) async throws {
        try await IdempotencyRecord(
            owner: userID.uuidString, key: "sample-key", fingerprint: String(repeating: "0", count: 64), status: 201,
            contentType: "application/json", location: nil, body: Data(#"{"user_id":"\#(userID)"}"#.utf8),
            createdAt: app.externalServices.now()
        ).create(on: app.db)
    }
}
