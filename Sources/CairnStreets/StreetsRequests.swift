import CairnPlatform
import Geo
import Vapor

/// `GET /api/streets/layer?bbox=west,south,east,north`.
struct StreetLayerRequest {
    /// The widest box the layer is cut for: the map asks from zoom 13 on, a few hundredths of a degree.
    static let maxSpanDegrees = 1.0

    let box: BoundingBox

    init(_ req: Request) throws {
        var input = RequestInput(query: req)
        let box = input.box("bbox", maxSpanDegrees: Self.maxSpanDegrees)
        self.box = try input.finish(box)
    }
}

/// `GET /api/streets/suggestions?q=&lat=&lon=&limit=`.
struct SuggestionsRequest {
    static let maxLimit = 20

    let text: String
    /// Where the person is, to rank nearer places first.
    let near: Coordinate?
    let limit: Int

    init(_ req: Request) throws {
        var input = RequestInput(query: req)
        let text = input.text("q", label: "the text to search for", length: 1...100)
        near = input.location(required: false)
        limit = input.integer("limit", in: 1...Self.maxLimit, default: 8)
        self.text = try input.finish(text)
    }
}

/// `GET /api/streets/landmarks?lat=&lon=&radius_m=`.
struct LandmarksNearRequest {
    static let maxRadiusMeters = 50_000.0

    let center: Coordinate
    let radiusMeters: Double

    init(_ req: Request) throws {
        var input = RequestInput(query: req)
        let center = input.location()
        radiusMeters = input.number("radius_m", in: 1...Self.maxRadiusMeters, default: 1_000)
        self.center = try input.finish(center)
    }
}

/// `GET /api/streets/route?from=LAT,LON&to=LAT,LON`.
struct WalkingRouteRequest {
    let from: Coordinate
    let to: Coordinate

    init(_ req: Request) throws {
        var input = RequestInput(query: req)
        let from = input.point("from"), to = input.point("to")
        (self.from, self.to) = try input.finish(from, to)
    }
}
