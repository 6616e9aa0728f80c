import CairnAPI
import CairnPlatform
import CairnTestSupport
import Fluent
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnServer

/// Upgrading: a database made by the previous release — its migrations only, then an account and a planned run
/// made through its API — is migrated by this release on start-up, and everything in it is still there and
/// usable: the person signs in, finds the run, uses what came since (a review), and can delete the account
/// (which reaches every module's tables). On SQLite and PostgreSQL. A later migration that cannot run on a table
/// with rows (a required column without a default) fails here, where a migration from empty does not.
@Suite struct UpgradeTests {
    /// The last migration of the previous release CI accepted (stop 30: every module up to the trails' version
    /// row). Move it forward when a release lands.
    static let previousRelease = "CairnTrails.CreateTrailCatalogueState"

    @Test func aDatabaseOfThePreviousReleaseMigratesWithItsDataKept() async throws {
        try await TestDatabase.withFresh { database in
            let config = testConfig(database: database)
            let mail = CapturingMailTransport()
            let clock = TestClock()
            let app = try await Application.make(.testing)
            do {
                let cairn = try await configure(app, config: config, services: .test(mail: mail, now: clock.read))
                try await DatabaseSetup.prepare(app, location: config.database)
                let names = CairnMigrations.all.map(\.name)
                let released = try #require(names.firstIndex(of: Self.previousRelease), "\(names)")
                let previous = Migrations()
                previous.add(Array(CairnMigrations.all.prefix(released + 1)))
                let migrator = Migrator(
                    databases: app.databases, migrations: previous, logger: app.logger, on: app.eventLoopGroup.any())
                try await migrator.setupIfNeeded().get()
                try await migrator.prepareBatch().get()

                let harness = AccountsHarness(app: app, mail: mail, clock: clock, cairn: cairn)
                let ada = try await harness.register("ada")
                let square = ContractScenario.square
                let route: [String: JSONValue] = [
                    "distance_km": 4, "sheltered": false, "length_m": .number(square.pathLengthMeters),
                    "sheltered_m": 0,
                    "geometry": [
                        "type": "LineString",
                        "coordinates": .array(square.map { [.number($0.longitude), .number($0.latitude)] }),
                    ],
                ]
                let saved = try await harness.send(.POST, "/api/runs/planned", json: route, token: ada.token)
                try #require(saved.status == .created, "\(saved.body.string)")

                try await app.autoMigrate()

                let token = try await harness.logIn("ada")
                let runs = try await harness.send(.GET, "/api/runs/planned", token: token)
                #expect(runs.status == .ok)
                #expect(try runs.decoded(PlannedRunList.self).plannedRuns.count == 1)
                let review = try await harness.send(
                    .PUT, "/api/reviews/community:general", json: ["rating": 5, "text": "Still here."], token: token)
                #expect(review.status == .created, "\(review.body.string)")
                let deleted = try await harness.send(
                    .DELETE, "/api/account", json: ["current_password": .string(AccountsHarness.password)],
                    token: token)
                #expect(deleted.status == .noContent, "\(deleted.body.string)")
                let applied = try await SchemaDescription(app.db).appliedMigrations()
                #expect(applied == names.sorted())
            } catch {
                try? await app.asyncShutdown()
                try? FileManager.default.removeItem(at: config.dataDirectory)
                throw error
            }
            try await app.asyncShutdown()
            try? FileManager.default.removeItem(at: config.dataDirectory)
        }
    }
}
