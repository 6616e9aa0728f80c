import Geo

/// `GET /api/streets/basemap`: the offline basemap as a TileJSON 3.0.0 document
/// (https://github.com/mapbox/tilejson-spec/tree/master/3.0.0) with Cairn's own members (`coverage_name`,
/// `source`, `features`). Map clients read `tiles`, `bounds` and `maxzoom` from it.
public struct BasemapInfo: Codable, Sendable, Equatable {
    public var tilejson = "3.0.0"
    /// What the covered area is called ("Helsinki").
    public var name: String
    public var attribution: String
    /// Changes with every import whose content differs; part of the tile URL.
    public var version: String
    /// One URL template, `/api/streets/basemap/{version}/{z}/{x}/{y}.mvt`.
    public var tiles: [String]
    public var minzoom: Int
    public var maxzoom: Int
    /// The covered area, `[west, south, east, north]`; outside it the map has no data.
    public var bounds: [Double]
    /// `[longitude, latitude, zoom]` where a map opens.
    public var center: [Double]
    /// The vector layers and their properties.
    public var vectorLayers: [VectorLayer]
    /// The OpenStreetMap extract the basemap was imported from.
    public var source: String
    /// Whether `bounds` is the box the extract declares (true) or the extent of its nodes.
    public var coverageDeclared: Bool
    /// Features per layer.
    public var features: [String: Int]

    public struct VectorLayer: Codable, Sendable, Equatable {
        public var id: String
        public var description: String
        public var fields: [String: String]

        public init(id: String, description: String, fields: [String: String]) {
            self.id = id
            self.description = description
            self.fields = fields
        }
    }

    public init(
        name: String, attribution: String, version: String, tiles: [String], minzoom: Int, maxzoom: Int,
        bounds: [Double], center: [Double], vectorLayers: [VectorLayer], source: String, coverageDeclared: Bool,
        features: [String: Int]
    ) {
        self.name = name
        self.attribution = attribution
        self.version = version
        self.tiles = tiles
        self.minzoom = minzoom
        self.maxzoom = maxzoom
        self.bounds = bounds
        self.center = center
        self.vectorLayers = vectorLayers
        self.source = source
        self.coverageDeclared = coverageDeclared
        self.features = features
    }

    enum CodingKeys: String, CodingKey {
        case tilejson, name, attribution, version, tiles, minzoom, maxzoom, bounds, center, source, features
        case vectorLayers = "vector_layers"
        case coverageDeclared = "coverage_declared"
    }
}
