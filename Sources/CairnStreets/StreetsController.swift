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
    static let maxSuggestions = 20
    static let maxLandmarkRadiusMeters = 50_000.0

    let streets: Streets

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

    /// GeoJSON of the walkable ways in `bbox`, thinned for phones (docs/routing.md, "Street layer").
    func layer(req: Request) async throws -> Response {
        let map = try streets.requireMap()
        var query = QueryReader(req)
        let box = query.box("bbox")
        try query.validate()
        let layer = map.router.streetLayer(in: box!)
        let body = StreetLayerBody(
            features: layer.features.features, thinned: layer.isThinned, edgesInBox: layer.edgeCountInBox)
        let response = try await body.encodeResponse(for: req)
        response.headers.contentType = HTTPMediaType(type: "application", subType: "geo+json")
        response.headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=3600")
        return response
    }

    func suggestions(req: Request) throws -> PlaceSuggestions {
        let map = try streets.requireMap()
        var query = QueryReader(req)
        let text = query.text("q")
        if text == nil {
            query.appendError(field: "q", "q is required: the start of a street, address or place name.")
        } else if text!.count > 100 {
            query.appendError(field: "q", "q must be at most 100 characters.")
        }
        let near = query.location(required: false)
        let limit = query.number("limit", in: 1...Double(Self.maxSuggestions), default: 8)
        try query.validate()
        let found = map.suggestions.suggest(text!, near: near, limit: Int(limit))
        return PlaceSuggestions(
            suggestions: found.map {
                PlaceSuggestion(
                    text: $0.text, kind: $0.kind.rawValue, detail: $0.detail, lat: $0.coordinate.latitude,
                    lon: $0.coordinate.longitude, distanceM: $0.distanceMeters.map { ($0 * 10).rounded() / 10 })
            })
    }

    func landmarks(req: Request) throws -> LandmarkList {
        let map = try streets.requireMap()
        var query = QueryReader(req)
        let center = query.location(required: true)
        let radius = query.number("radius_m", in: 1...Self.maxLandmarkRadiusMeters, default: 1_000)
        try query.validate()
        return LandmarkList(
            landmarks: map.landmarks(near: center!, radiusMeters: radius).map { found in
                LandmarkSummary(found.landmark, distanceMeters: found.distanceMeters)
            })
    }

    func route(req: Request) throws -> WalkingRoute {
        let map = try streets.requireMap()
        var query = QueryReader(req)
        let from = query.point("from"), to = query.point("to")
        try query.validate()
        var problems: [Problem.FieldError] = []
        var ends: [EdgePosition] = []
        for (field, point) in [("from", from!), ("to", to!)] {
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
        return WalkingRoute(lengthM: (route.lengthMeters * 10).rounded() / 10, geometry: .lineString(route.geometry))
    }
}

/// A GeoJSON FeatureCollection with two foreign members saying whether the layer was thinned.
private struct StreetLayerBody: Content {
    var type = "FeatureCollection"
    var features: [Feature]
    var thinned: Bool
    var edgesInBox: Int

    enum CodingKeys: String, CodingKey {
        case type, features, thinned
        case edgesInBox = "edges_in_box"
    }
}
