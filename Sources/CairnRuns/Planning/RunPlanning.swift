import CairnPlatform
import CairnStreets
import Geo
import Routing

/// The run planner over the loaded street network: snaps starts, knows the landmarks by id, lists the
/// valid ones for a start and distance (run-route-planner 4.3.1.1.1) and plans loops on the heavy-work executor, so
/// a plan never holds up an event loop, an async handler or a database query.
final class RunPlanning: Sendable {
    let map: StreetMap
    private let streets: Streets
    /// Idle planners, lent out one per plan being computed: a planner holds search buffers the size of the
    /// graph and is not shareable between threads.
    private let planners: ObjectPool<LoopPlanner>
    private let executor: BoundedExecutor
    /// Plans one client may have in progress at once.
    static let plansInProgressPerClient = 1
    /// `Landmark.id.description` ("n123") → index in `map.network.landmarks`.
    private let landmarkIndex: [String: Int]

    init(map: StreetMap, streets: Streets, executor: BoundedExecutor) {
        self.map = map
        self.streets = streets
        self.executor = executor
        let graph = map.graph
        planners = ObjectPool { LoopPlanner(graph: graph) }
        var index: [String: Int] = [:]
        for (position, landmark) in map.network.landmarks.enumerated() {
            index[landmark.id.description] = index[landmark.id.description] ?? position
        }
        landmarkIndex = index
    }

    /// The walkable point nearest to `coordinate`; 422 "No walkable path near this point." on `field`.
    func snap(_ coordinate: Coordinate, field: String) throws -> EdgePosition {
        try streets.snap(coordinate, field: field, on: map)
    }

    /// The landmark with this id ("n123"), as an index into `map.network.landmarks`.
    func landmark(id: String) -> Int? { landmarkIndex[id] }

    /// Landmarks whose shortest round trip from `start` is at most `distanceMeters`, nearest first.
    func validLandmarks(from start: EdgePosition, distanceMeters: Double) -> [(index: Int, roundTripMeters: Double)] {
        map.landmarks(withinRoundTrip: distanceMeters, from: start)
    }

    /// Runs `body` (shortest-path searches: the valid landmarks, a landmark's round trip) on the heavy-work
    /// executor, at most one at a time for `client`.
    func searching<Value: Sendable>(
        for client: String, _ body: @escaping @Sendable (RunPlanning) throws -> Value
    ) async throws -> Value {
        try await executor.run("finding landmarks", client: "runs-landmarks:\(client)", perClient: 1) {
            try body(self)
        }
    }

    /// The shortest round trip from `start` to the landmark and back; infinity when it cannot be reached.
    func roundTripMeters(from start: EdgePosition, toLandmark index: Int) -> Double {
        guard let position = map.landmarkPositions[index] else { return .infinity }
        return 2 * map.router.distance(from: start, to: position)
    }

    /// Plans on the heavy-work executor with a pooled planner, at most `plansInProgressPerClient` at a time
    /// for `client`.
    /// - Throws: `LoopRequestError` for a request the planner cannot work on; `ServerBusy` or `ClientBusy`.
    func plan(_ request: LoopRequest, for client: String) async throws -> LoopPlan {
        try await executor.run(
            "planning routes", client: "runs-plan:\(client)", perClient: Self.plansInProgressPerClient
        ) { [planners] in
            try planners.withObject { try $0.plan(request) }
        }
    }
}
