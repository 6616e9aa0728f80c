import CairnAPI
import CairnPlatform
import Geo
import Routing
import Vapor

extension StreetNetworkInfo: Content {}
extension PlaceSuggestions: Content {}
extension LandmarkList: Content {}
extension WalkingRoute: Content {}

/// `/api/streets…`: the loaded network's extent, the street layer for the map, place suggestions while
/// typing, landmarks near a point and walking routes. Every route answers 503 when no network is loaded.
struct StreetsController: RouteCollection {
    let streets: Streets
    /// The street layer and walking routes are cut on the heavy-work executor, never on an event loop.
    let heavyWork: BoundedExecutor

    func boot(routes: any RoutesBuilder) throws {
        let streets = routes.grouped("streets")
        streets.get(use: info)
        streets.get("layer", use: layer)
        streets.get("suggestions", use: suggestions)
        streets.get("landmarks", use: landmarks)
        streets.get("route", use: route)
    }

    func info(req: Request) throws -> StreetNetworkInfo {
        let map = try streets.requireMap()
        let summary = map.network.summary
        let box = map.graph.boundingBox ?? BoundingBox(around: map.graph.coordinate(of: 0), radiusMeters: 100)
        return StreetNetworkInfo(
            source: summary.source, bbox: [box.west, box.south, box.east, box.north], center: Position(box.center),
            nodes: summary.nodes, edges: summary.edges, walkableKm: summary.walkableKm,
            shelteredKm: summary.shelteredKm, landmarks: summary.landmarks)
    }

    /// GeoJSON of the walkable ways in `bbox`, thinned for phones (docs/routing.md, "Street layer"): cut and
    /// encoded on the heavy-work executor (a dense box is thousands of features).
    func layer(req: Request) async throws -> Response {
        let map = try streets.requireMap()
        let query = try StreetLayerRequest(req)
        let layer = try await heavyWork.run("cutting the street layer") { map.router.streetLayer(in: query.box) }
        let response = try await heavyWork.response(
            StreetLayerBody(
                features: layer.features.features, thinned: layer.isThinned, edgesInBox: layer.edgeCountInBox),
            mediaType: HTTPMediaType(type: "application", subType: "geo+json"))
        response.headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=3600")
        return response
    }

    func suggestions(req: Request) throws -> PlaceSuggestions {
        let map = try streets.requireMap()
        let query = try SuggestionsRequest(req)
        let found = map.suggestions.suggest(query.text, near: query.near, limit: query.limit)
        return PlaceSuggestions(
            suggestions: found.map {
                PlaceSuggestion(
                    text: $0.text, kind: $0.kind.rawValue, detail: $0.detail, lat: $0.coordinate.latitude,
                    lon: $0.coordinate.longitude, distanceM: $0.distanceMeters.map { ($0 * 10).rounded() / 10 })
            })
    }

    func landmarks(req: Request) throws -> LandmarkList {
        let map = try streets.requireMap()
        let query = try LandmarksNearRequest(req)
        return LandmarkList(
            landmarks: map.landmarks(near: query.center, radiusMeters: query.radiusMeters).map { found in
                LandmarkSummary(found.landmark, distanceMeters: found.distanceMeters)
            })
    }

    /// The shortest walk, searched on the heavy-work executor.
    func route(req: Request) async throws -> WalkingRoute {
        let map = try streets.requireMap()
        let query = try WalkingRouteRequest(req)
        let streets = self.streets
        return try await heavyWork.run("finding walking routes") {
            var problems: [Problem.FieldError] = []
            var ends: [EdgePosition] = []
            for (field, point) in [("from", query.from), ("to", query.to)] {
                do {
                    ends.append(try streets.snap(point, field: field, on: map))
                } catch let problem as Problem {
                    problems += problem.errors ?? []
                }
            }
            if !problems.isEmpty { throw Problem.invalid(problems) }
            guard let route = map.router.route(from: ends[0], to: ends[1]) else {
                throw Problem.invalid(field: "to", "No walkable route connects these points.")
            }
            return WalkingRoute(
                lengthM: (route.lengthMeters * 10).rounded() / 10, geometry: .lineString(route.geometry))
        }
    }
}

/// A GeoJSON FeatureCollection with two foreign members saying whether the layer was thinned.
private struct StreetLayerBody: Encodable, Sendable {
    var type = "FeatureCollection"
    var features: [Feature]
    var thinned: Bool
    var edgesInBox: Int

    enum CodingKeys: String, CodingKey {
        case type, features, thinned
        case edgesInBox = "edges_in_box"
    }
}
