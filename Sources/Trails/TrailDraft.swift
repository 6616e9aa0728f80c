import Foundation
import Geo

/// A trail as an importer read it, before the catalogue keeps it: its lines (in walking order where the source
/// gives one), the heights the source had, and what the source says about difficulty and access.
public struct TrailDraft: Sendable, Equatable {
    /// Where it came from, stable across imports of the same data: `osm:relation/123`, `osm:way/45`,
    /// `gpx:<sha256>`, `geojson:<sha256>#2`. Importing it again updates the same trail.
    public var source: String
    public var name: String
    public var description: String
    /// One or more lines; each at least two points.
    public var lines: [[Coordinate]]
    /// Heights in metres per point of `lines`, when the source had them (GPX `ele`, GeoJSON altitudes).
    public var elevations: [[Double?]]?
    /// OpenStreetMap's `sac_scale` and `trail_visibility`, when given.
    public var sacScale: String?
    public var trailVisibility: String?
    /// A difficulty the source states outright (a GeoJSON `difficulty` property).
    public var statedDifficulty: String?
    /// Whether a wheelchair can use it: `wheelchair=yes`, or every way paved without steps.
    public var accessible: Bool
    public var city: String
    public var region: String
    public var pointsOfInterest: [PointOfInterest]
    /// Amenity kinds found along the trail (raw values of the API's `TrailAmenity`).
    public var amenities: [String]

    /// A point of interest the source holds near the trail (an OSM viewpoint, waterfall, historic site).
    public struct PointOfInterest: Sendable, Equatable {
        public var name: String
        /// Raw value of the API's `TrailPOIKind`.
        public var kind: String
        public var history: String
        public var position: Coordinate

        public init(name: String, kind: String, history: String, position: Coordinate) {
            self.name = name
            self.kind = kind
            self.history = history
            self.position = position
        }
    }

    public init(
        source: String, name: String, description: String = "", lines: [[Coordinate]],
        elevations: [[Double?]]? = nil, sacScale: String? = nil, trailVisibility: String? = nil,
        statedDifficulty: String? = nil, accessible: Bool = false, city: String = "", region: String = "",
        pointsOfInterest: [PointOfInterest] = [], amenities: [String] = []
    ) {
        self.source = source
        self.name = name
        self.description = description
        self.lines = lines
        self.elevations = elevations
        self.sacScale = sacScale
        self.trailVisibility = trailVisibility
        self.statedDifficulty = statedDifficulty
        self.accessible = accessible
        self.city = city
        self.region = region
        self.pointsOfInterest = pointsOfInterest
        self.amenities = amenities
    }

    /// The geometry: a LineString for one line, a MultiLineString for more.
    public var geometry: Geometry {
        lines.count == 1 ? .lineString(lines[0]) : .multiLineString(lines.map { $0.map { Position($0) } })
    }

    /// Where the trail starts: the first point of its first line.
    public var trailhead: Coordinate { lines[0][0] }

    /// The figures computed from the geometry and heights.
    public var figures: TrailFigures { TrailFigures(lines: lines, elevations: elevations) }

    /// The difficulty tier by the documented rule (docs/trails.md, `TrailDifficultyRule`).
    public var difficulty: String {
        TrailDifficultyRule.difficulty(
            stated: statedDifficulty, sacScale: sacScale, trailVisibility: trailVisibility,
            lengthMeters: figures.lengthMeters, elevationGainMeters: figures.elevationGainMeters)
    }
}
