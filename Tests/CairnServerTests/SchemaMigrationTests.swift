import CairnPlatform
import CairnTestSupport
import Fluent
import Foundation
import Testing
import Vapor

@testable import CairnServer

/// The one migration history, on the test database (SQLite, or PostgreSQL under `make test-swift-postgres`):
/// from empty, up gives exactly the schema described in Fixtures/schema.<database>.txt, and down leaves nothing.
/// A schema change fails here until the description is updated with it: run the test with
/// `CAIRN_UPDATE_SCHEMA=1` and review the diff.
@Suite struct SchemaMigrationTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test func migratingUpGivesTheDescribedSchemaAndDownLeavesNothing() async throws {
        try await TestDatabase.withFresh { database in
            let config = testConfig(database: database)
            let app = try await Application.make(.testing)
            do {
                try await configure(app, config: config, services: .test())
                try await DatabaseSetup.prepare(app, location: config.database)
                let schema = SchemaDescription(app.db)

                try await app.autoMigrate()
                let up = try await schema.text()
                let applied = try await schema.appliedMigrations()
                try await app.autoRevert()
                let tablesLeft = try await schema.tables()
                let indexesLeft = try await schema.allIndexes()
                let migrationsLeft = try await schema.appliedMigrations()

                let described = "migrations\n" + CairnMigrations.all.map { "  \($0.name)\n" }.joined() + up
                let file = Self.fixtures.appendingPathComponent(
                    "schema.\(schema.isSQLite ? "sqlite" : "postgresql").txt")
                if ProcessInfo.processInfo.environment["CAIRN_UPDATE_SCHEMA"] == "1" {
                    try described.write(to: file, atomically: true, encoding: .utf8)
                }
                let expected = try String(contentsOf: file, encoding: .utf8)
                #expect(
                    described == expected,
                    "the schema after migrating differs from \(file.lastPathComponent); if the change is meant, run with CAIRN_UPDATE_SCHEMA=1 and commit the file"
                )
                #expect(applied == CairnMigrations.all.map(\.name).sorted())
                #expect(tablesLeft.isEmpty, "tables left after reverting every migration: \(tablesLeft)")
                #expect(indexesLeft.isEmpty, "indexes left after reverting every migration: \(indexesLeft)")
                #expect(migrationsLeft.isEmpty)
            } catch {
                try? await app.asyncShutdown()
                try? FileManager.default.removeItem(at: config.dataDirectory)
                throw error
            }
            try await app.asyncShutdown()
            try? FileManager.default.removeItem(at: config.dataDirectory)
        }
    }

    @Test func theMigrationsThatLandedKeepTheirNamesAndOrder() {
        let names = CairnMigrations.all.map(\.name)

        #expect(
            Array(names.prefix(5)) == [
                "CairnServer.CreateIdempotencyRecord", "CairnServer.CreateUser", "CairnServer.CreateUserSession",
                "CairnServer.CreatePasswordResetCode", "CairnServer.CreatePlannedRun",
            ])
        #expect(Set(names).count == names.count)
    }
}
