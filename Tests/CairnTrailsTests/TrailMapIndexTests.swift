import CairnAPI
import CairnServer
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnTrails

/// The map's trails in view come from each instance's in-memory index (`TrailMapIndex`), on SQLite and
/// PostgreSQL: every trail write (an upload, `cairn trails import`, an admin's edit or deletion) is seen by the
/// next map request, also by another instance on the same database.
@Suite struct TrailMapIndexTests {
    static let city = "/api/trails?bbox=24.85,60.15,24.95,60.26"

    /// The names of the trails the map shows for `query`, in the answer's order.
    static func names(_ cairn: AccountsHarness, _ query: String = city) async throws -> [String] {
        let response = try await cairn.send(.GET, query)
        try #require(response.status == .ok, "\(response.body.string)")
        let collection = try JSONDecoder().decode(FeatureCollection.self, from: Data(buffer: response.body))
        return collection.features.compactMap {
            if case .string(let name)? = $0.properties?["name"] { return name }
            return nil
        }
    }

    @Test func everyTrailWriteIsSeenByTheNextMapRequest() async throws {
        try await withAccounts { cairn in
            let trails = try await cairn.seedTrails()
            let keeper = try await cairn.admin()
            let shore = try #require(trails["Seurasaari shore"])
            #expect(try await Self.names(cairn) == ["Central Park traverse", "Seurasaari shore"])

            let renamed = try await cairn.send(
                .PATCH, "/api/trails/\(shore.id)", json: ["name": "Seurasaari bay", "difficulty": "hard"],
                token: keeper.token)
            #expect(renamed.status == .ok)
            #expect(try await Self.names(cairn) == ["Central Park traverse", "Seurasaari bay"])
            let hard = try await Self.names(cairn, "\(Self.city)&difficulty=hard")
            #expect(hard.sorted() == ["Central Park traverse", "Seurasaari bay"])

            let upload = try await cairn.upload(TrailsFixtures.gpx, token: keeper.token)
            #expect(upload.status == .created)
            // The islands lie south-east of the city's view: the harbour's takes them in.
            let harbour = "/api/trails?bbox=24.85,60.13,24.98,60.26"
            #expect(try await Self.names(cairn, harbour).contains("Vallisaari circuit"))

            let file = FileManager.default.temporaryDirectory.appendingPathComponent("map-\(UUID()).geojson")
            defer { try? FileManager.default.removeItem(at: file) }
            try Data(
                """
                {"type":"Feature","properties":{"name":"Pihlajasaari path"},
                 "geometry":{"type":"LineString","coordinates":[[24.915,60.139],[24.917,60.141]]}}
                """.utf8
            ).write(to: file)
            let imported = try await cairn.cairn.trails.importFile(
                at: file.path, demo: false, region: "Uusimaa", on: cairn.app.db)
            #expect(imported.created == 1)
            #expect(try await Self.names(cairn, harbour).contains("Pihlajasaari path"))

            #expect(try await cairn.send(.DELETE, "/api/trails/\(shore.id)", token: keeper.token).status == .noContent)
            #expect(!(try await Self.names(cairn).contains("Seurasaari bay")))
        }
    }

    @Test func theMapsFiltersAreTheLists() async throws {
        try await withAccounts { cairn in
            _ = try await cairn.seedTrails()
            let keeper = try await cairn.admin()
            let wide = "/api/trails?bbox=24.4,60.1,25,60.4"
            for filters in [
                "q=nuuksio", "q=HELSINKI", "q=%25shore", "difficulty=easy,moderate", "min_length_km=1",
                "max_length_km=1", "min_length_km=0.5&max_length_km=3", "accessible=true",
            ] {
                let list = try await cairn.send(.GET, "/api/trails?\(filters)").decoded(TrailList.self)
                #expect(
                    try await Self.names(cairn, "\(wide)&\(filters)").sorted() == list.trails.map(\.name).sorted(),
                    "\(filters)")
            }
            let nuuksio = try await cairn.send(.GET, "/api/trails?q=nuuksio").decoded(TrailList.self).trails[0]
            let edited = try await cairn.send(
                .PATCH, "/api/trails/\(nuuksio.id)", json: ["accessible": true], token: keeper.token)
            #expect(edited.status == .ok)
            #expect(try await Self.names(cairn, "\(wide)&accessible=true") == ["Nuuksio lake loop"])
        }
    }

    @Test func theSameViewGetsTheSameBytes() async throws {
        try await withAccounts { cairn in
            _ = try await cairn.seedTrails()

            let first = try await cairn.send(.GET, "\(Self.city)&zoom=14")
            let again = try await cairn.send(.GET, "\(Self.city)&zoom=14")

            #expect(first.body == again.body)
            let text = first.body.string
            #expect(text.hasPrefix(#"{"features":[{"geometry":{"coordinates":"#))
            #expect(text.hasSuffix(#"],"truncated":false,"type":"FeatureCollection"}"#))
        }
    }

    @Test(.enabled(if: onPostgres, "two instances share one PostgreSQL database"))
    func aWriteOnOneInstanceIsSeenOnTheOther() async throws {
        let mail = CapturingMailTransport()
        let clock = TestClock()
        let services: () -> CairnServices = { .test(mail: mail, now: clock.read) }
        try await withTwoInstances(services: services) { instances in
            let harnesses = instances.map { AccountsHarness(app: $0.app, mail: mail, clock: clock, cairn: $0.cairn) }
            let trails = try await harnesses[0].seedTrails()
            let keeper = try await harnesses[0].admin()
            let shore = try #require(trails["Seurasaari shore"])
            #expect(try await Self.names(harnesses[1]) == ["Central Park traverse", "Seurasaari shore"])

            let renamed = try await harnesses[0].send(
                .PATCH, "/api/trails/\(shore.id)", json: ["name": "Seurasaari bay"], token: keeper.token)
            #expect(renamed.status == .ok)
            #expect(try await Self.names(harnesses[1]) == ["Central Park traverse", "Seurasaari bay"])

            let deleted = try await harnesses[0].send(.DELETE, "/api/trails/\(shore.id)", token: keeper.token)
            #expect(deleted.status == .noContent)
            #expect(try await Self.names(harnesses[1]) == ["Central Park traverse"])
        }
    }
}
