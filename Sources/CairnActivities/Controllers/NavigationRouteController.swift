import CairnAPI
import CairnPlatform
import Foundation
import Geo
import Navigation
import Routing
import Vapor

extension NavigationRouteData: Content {}

/// `POST /api/activities/route`: a route (a planned loop, a kept route, a trail) made ready to follow on the
/// device — matched onto the street network for street names and junctions, with its turn instructions
/// (docs/navigation.md). Open to guests: anyone can run. Without a street network, or off it, the turns
/// come from the line's shape.
struct NavigationRouteController: RouteCollection {
    static let maxPositions = 20_000

    let platform: PlatformServices
    let streets: StreetMap?

    func boot(routes: any RoutesBuilder) throws {
        routes.limited(by: platform.rateLimited(ActivitiesRateLimits.routes)).post("activities", "route", use: route)
    }

    func route(req: Request) async throws -> NavigationRouteData {
        let line = try NavigationRouteRequest(req).line
        let map = streets
        return try await platform.heavyWork.run(
            "preparing routes", client: "activity-route:\(platform.clients.address(of: req))", perClient: 2
        ) {
            Self.prepare(line, on: map)
        }
    }

    /// The route along `line`, matched onto `map` when at least half of it lies on the network.
    static func prepare(_ line: [Coordinate], on map: StreetMap?) -> NavigationRouteData {
        if let map {
            let matched = NavigationRoute(matching: line, in: map.graph, segments: map.router.segments)
            let known = matched.streets.filter { $0 != RouteStreet() }.count
            if Double(known) >= 0.5 * Double(matched.streets.count) {
                return NavigationRoutePresenter.data(
                    route: matched, instructions: matched.instructions(), matched: true)
            }
        }
        let route = NavigationRoute(geometry: line)
        return NavigationRoutePresenter.data(route: route, instructions: route.instructions(), matched: false)
    }
}

/// `POST /api/activities/route`: `{"geometry": <GeoJSON LineString>}` of 2 to 20,000 positions, at least two
/// of them apart.
struct NavigationRouteRequest {
    static let fields: Set<String> = ["geometry"]

    let line: [Coordinate]

    init(_ req: Request) throws {
        let input = try RequestInput(body: req, allowed: Self.fields)
        let maxPositions = NavigationRouteController.maxPositions
        let shape = "geometry must be a GeoJSON LineString of 2 to \(maxPositions) [lon, lat] positions."
        guard let value = input.json("geometry"), let data = try? JSONEncoder().encode(value),
            case .lineString(let positions)? = try? JSONDecoder().decode(Geometry.self, from: data)
        else { throw Problem.invalid(field: "geometry", shape) }
        let line = positions.map(\.coordinate)
        guard line.count <= maxPositions, line.allSatisfy(\.isValid), Set(line).count >= 2 else {
            throw Problem.invalid(field: "geometry", shape)
        }
        self.line = line
    }
}
