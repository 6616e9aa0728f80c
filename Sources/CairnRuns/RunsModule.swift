import CairnAPI
import CairnAccounts
import CairnPlatform
import CairnStreets
import Fluent
import Foundation
import Geo
import Vapor

/// The running-route planner (run-route-planner 4, 5): three distinct loops of the chosen distance from a
/// start, through a landmark, shelter-optimised on request, planned on the street network Streets loaded
/// (`streets`); and the routes a runner keeps. docs/runs.md describes the algorithm and the API.
package struct RunsModule: CairnModule {
    private let streets: Streets
    private let identity: Identity
    private let platform: PlatformServices
    /// The planner over the network; nil when the installation has no street network.
    private let planning: RunPlanning?

    package init(streets: Streets, identity: Identity, platform: PlatformServices) {
        self.streets = streets
        self.identity = identity
        self.platform = platform
        planning = streets.map.map { RunPlanning(map: $0, streets: streets, executor: platform.heavyWork) }
    }

    package var openAPIFragment: URL? { OpenAPIDocument.fragment("runs", in: .module) }

    package func boot(api: any RoutesBuilder) throws {
        try api.register(
            collection: RunPlanController(
                planning: planning, streets: streets, planLimit: platform.rateLimited(RunsRateLimits.plans),
                clients: platform.clients, heavyWork: platform.heavyWork))
        try api.register(
            collection: PlannedRunsController(
                planning: planning, identity: identity, writer: platform.writer, idempotency: platform.idempotency,
                heavyWork: platform.heavyWork, now: platform.now))
    }

    /// Routes a guest chose to save (`guest_data.runs.planned_runs`, bodies of `POST /api/runs/planned`) join
    /// their planned routes, at sign-up and at login. Each is validated like a save; what does not validate is
    /// skipped, and a landmark this network does not know is dropped from the route.
    package func adoptGuestData(_ data: GuestData, for userID: UUID, on db: any Database) async throws {
        struct Runs: Decodable {
            var plannedRuns: [JSONValue]?
            enum CodingKeys: String, CodingKey { case plannedRuns = "planned_runs" }
        }
        guard let bodies = data.decode("runs", as: Runs.self)?.plannedRuns else { return }
        let landmarks = streets.map?.network.landmarks ?? []
        var time = platform.now()
        for value in bodies.prefix(PlannedRunsController.maxPerUser) {
            guard case .object(let members) = value, var form = try? PlannedRunForm(json: members) else { continue }
            let landmark = form.landmarkID.flatMap { id in landmarks.first { $0.id.description == id } }
            if landmark == nil { form.landmarkID = nil }
            // A second apart, in the order the guest saved them, so the list shows the last one first.
            time = time.addingTimeInterval(1)
            let run = try PlannedRun(form, userID: userID, landmarkName: landmark?.name, now: time)
            do {
                try await PlannedRunsController.keep(run, on: db)
            } catch RunsProblem.tooManyPlannedRuns {
                return
            }
        }
    }

    package func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws {
        try await PlannedRun.query(on: db).filter(\.$user.$id == userID).delete()
    }

    package func sampleUserData(for userID: UUID, on db: any Database) async throws {
        let square = [
            Coordinate(latitude: 60.1699, longitude: 24.9384), Coordinate(latitude: 60.1789, longitude: 24.9384),
            Coordinate(latitude: 60.1789, longitude: 24.9564), Coordinate(latitude: 60.1699, longitude: 24.9564),
            Coordinate(latitude: 60.1699, longitude: 24.9384),
        ]
        let run = PlannedRun(
            userID: userID, createdAt: platform.now(), distanceKm: 4, mode: .sheltered,
            landmarkID: "n1", landmarkName: "Sample landmark", lengthMeters: square.pathLengthMeters,
            shelteredMeters: 0, startLatitude: square[0].latitude, startLongitude: square[0].longitude,
            geometry: Polyline.encode(square, precision: PlannedRun.polylinePrecision), shelteredSegments: "[]"
        )
        try await platform.writer.transaction(on: db) { try await run.create(on: $0) }
    }
}
