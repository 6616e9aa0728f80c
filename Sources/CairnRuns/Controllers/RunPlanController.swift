import CairnAPI
import CairnPlatform
import CairnStreets
import Geo
import Routing
import Vapor

extension RunPlan: Content {}
extension RunLandmarks: Content {}

/// `POST /api/runs/plan` (three distinct loops from a start) and `GET /api/runs/landmarks` (the landmarks
/// such a loop can pass). Open to guests: planning needs no account. 503 without a street network.
struct RunPlanController: RouteCollection {
    let planning: RunPlanning?
    let streets: Streets
    /// `RunsRateLimits.plans`, taken before a plan is read.
    let planLimit: RateLimited
    let clients: ClientAddresses
    /// Writes the plan's JSON (three lines of thousands of positions) off the event loop.
    let heavyWork: BoundedExecutor

    func boot(routes: any RoutesBuilder) throws {
        let runs = routes.grouped("runs")
        runs.limited(by: planLimit).post("plan", use: plan)
        runs.get("landmarks", use: landmarks)
    }

    func plan(req: Request) async throws -> Response {
        let planning = try requirePlanning()
        let query = try RunPlanQuery(req)
        let start = try planning.snap(query.start, field: "start")
        var landmark: (index: Int, summary: LandmarkSummary)?
        if let id = query.landmarkID {
            let distance = query.distanceMeters
            landmark = try await planning.searching(for: clients.address(of: req)) { planning in
                try Self.validLandmark(id, from: start, distanceMeters: distance, planning: planning)
            }
        }
        let request = LoopRequest(
            start: .position(start), distanceMeters: query.distanceMeters,
            via: landmark.flatMap { planning.map.landmarkPositions[$0.index] }.map(NetworkPoint.position),
            sheltered: query.sheltered, seed: query.seed, count: 3)
        let started = ContinuousClock.now
        let plan: LoopPlan
        do {
            plan = try await planning.plan(request, for: clients.address(of: req))
        } catch let error as LoopRequestError {
            throw RunsProblem.loopRequest(error)
        }
        let elapsed = ContinuousClock.now - started
        req.logger.info(
            "run planned",
            metadata: [
                "distance_m": "\(Int(query.distanceMeters))", "sheltered": "\(query.sheltered)",
                "landmark": "\(query.landmarkID ?? "-")", "routes": "\(plan.loops.count)", "time": "\(elapsed)",
            ])
        return try await heavyWork.response(
            RunPlanPresenter.plan(
                plan, start: start.coordinate, distanceMeters: query.distanceMeters, sheltered: query.sheltered,
                seed: query.seed, landmark: landmark?.summary))
    }

    /// The valid landmarks for `lat`, `lon` and `distance_km`, nearest first (run-route-planner 4.3.1.1), one
    /// per name: OSM maps a group of statues or a park's parts as several elements of the same name (the four
    /// "Lyhdynkantajat" of the railway station), and a runner picks the place, so the nearest of namesakes
    /// stands for them all.
    func landmarks(req: Request) async throws -> RunLandmarks {
        let planning = try requirePlanning()
        let query = try RunLandmarksQuery(req)
        let start = try planning.snap(query.point, field: "start")
        let landmarks = planning.map.network.landmarks
        let valid = try await planning.searching(for: clients.address(of: req)) { planning in
            planning.validLandmarks(from: start, distanceMeters: query.distanceMeters)
        }
        var names = Set<String>()
        let distinct = valid.filter { names.insert(TextFolding.folded(landmarks[$0.index].name)).inserted }
        return RunLandmarks(
            start: LatLon(RunPlanPresenter.rounded(start.coordinate)),
            landmarks: distinct.map { LandmarkSummary(landmarks[$0.index], distanceMeters: $0.roundTripMeters) })
    }

    private func requirePlanning() throws -> RunPlanning {
        guard let planning else { throw streets.unavailable }
        return planning
    }

    /// The landmark `id` when a loop of `distanceMeters` from `start` can pass it; 422 on `landmark_id`
    /// saying why not otherwise.
    private static func validLandmark(
        _ id: String, from start: EdgePosition, distanceMeters: Double, planning: RunPlanning
    ) throws -> (index: Int, summary: LandmarkSummary) {
        guard let index = planning.landmark(id: id) else { throw RunsProblem.unknownLandmark }
        let landmark = planning.map.network.landmarks[index]
        guard planning.map.landmarkPositions[index] != nil else { throw RunsProblem.landmarkOffNetwork(landmark.name) }
        if let valid = planning.validLandmarks(from: start, distanceMeters: distanceMeters).first(where: {
            $0.index == index
        }) {
            return (index, LandmarkSummary(landmark, distanceMeters: valid.roundTripMeters))
        }
        throw RunsProblem.landmarkTooFar(
            landmark.name, distanceMeters: distanceMeters,
            roundTripMeters: planning.roundTripMeters(from: start, toLandmark: index))
    }
}
