import Fluent
import Geo
import Vapor

/// The running-route planner (run-route-planner 4, 5): three distinct loops of the chosen distance from a
/// start, through a landmark, shelter-optimised on request, planned on the street network the Streets
/// module loaded; and the routes a runner keeps. docs/runs.md describes the algorithm and the API.
struct RunsModule: CairnModule {
    var migrations: [any Migration] {
        [CreatePlannedRun()]
    }

    func boot(api: any RoutesBuilder, app: Application) throws {
        let planning = app.streetMap.map { RunPlanning(map: $0, executor: app.heavyWork) }
        try api.register(collection: RunPlanController(planning: planning))
        try api.register(collection: PlannedRunsController(planning: planning))
    }

    func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws {
        try await PlannedRun.query(on: db).filter(\.$user.$id == userID).delete()
    }

    func sampleUserData(for userID: UUID, on app: Application) async throws {
        let square = [
            Coordinate(latitude: 60.1699, longitude: 24.9384), Coordinate(latitude: 60.1789, longitude: 24.9384),
            Coordinate(latitude: 60.1789, longitude: 24.9564), Coordinate(latitude: 60.1699, longitude: 24.9564),
            Coordinate(latitude: 60.1699, longitude: 24.9384),
        ]
        let run = PlannedRun(
            userID: userID, createdAt: app.externalServices.now(), distanceKm: 4, mode: .sheltered,
            landmarkID: "n1", landmarkName: "Sample landmark", lengthMeters: square.pathLengthMeters,
            shelteredMeters: 0, startLatitude: square[0].latitude, startLongitude: square[0].longitude,
            geometry: Polyline.encode(square, precision: PlannedRun.polylinePrecision), shelteredSegments: "[]"
        )
        try await app.writeTransaction { try await run.create(on: $0) }
    }
}
