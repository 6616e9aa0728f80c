import Foundation
import Geo
import Testing

@testable import Basemap

enum BasemapFixtures {
    /// A committed fixture under Tests/BasemapTests/Fixtures.
    static func path(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
    }

    private static let fixture = Result { try BasemapImporter.importFile(atPath: path("basemap.osm")) }

    /// The hand-made extract (Fixtures/README.md), imported once.
    static func basemap() throws -> Basemap { try fixture.get() }

    /// The real Helsinki extract fetched by `make demo-data`, or nil when it is missing.
    static var helsinkiExtract: String? {
        let folder =
            ProcessInfo.processInfo.environment["CAIRN_OSM_DIR"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("var/osm")
        let path = folder.appendingPathComponent("Helsinki.osm.pbf").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    private static let helsinkiImport = Result<Basemap, any Error> {
        guard let path = helsinkiExtract else { throw CocoaError(.fileNoSuchFile) }
        return try BasemapImporter.importFile(atPath: path)
    }

    static func helsinki() throws -> Basemap { try helsinkiImport.get() }
}

extension Basemap {
    /// Features of a layer (and class).
    func features(_ layer: BasemapLayer, kind: String? = nil) -> [Feature] {
        features.filter { $0.layer == layer && (kind == nil || $0.kind == kind) }
    }

    /// Polygon features of `layer` that contain the point.
    func polygons(_ layer: BasemapLayer, containing coordinate: Coordinate) -> [Feature] {
        let point = WebMercator.project(coordinate)
        return features(layer).filter { feature in
            guard feature.geometry == .polygon, PlaneGeometry.contains(feature.parts[0], point) else { return false }
            return !feature.parts.dropFirst().contains { PlaneGeometry.contains($0, point) }
        }
    }
}

extension Coordinate {
    init(_ latitude: Double, _ longitude: Double) { self.init(latitude: latitude, longitude: longitude) }
}

/// A decoded tile's layer by name.
func layer(_ name: String, in layers: [VectorTile.Layer]) -> VectorTile.Layer? { layers.first { $0.name == name } }

/// The tile of `zoom` holding a coordinate.
func tile(at coordinate: Coordinate, zoom: Int) -> TileID {
    let point = WebMercator.project(coordinate)
    let size = WebMercator.worldSize / Double(1 << zoom)
    return TileID(z: zoom, x: Int(point.x / size), y: Int(point.y / size))
}

/// Where a coordinate falls in a tile's units.
func tileUnits(of coordinate: Coordinate, in tile: TileID) -> (x: Double, y: Double) {
    let point = WebMercator.project(coordinate)
    let scale = Double(VectorTileBuilder.extent) / tile.worldSize
    return ((point.x - tile.box.minX) * scale, (point.y - tile.box.minY) * scale)
}

/// Even-odd point in polygon over integer rings.
func contains(_ rings: [[(x: Int, y: Int)]], _ point: (x: Double, y: Double)) -> Bool {
    var inside = false
    for ring in rings {
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i], b = ring[j]
            if (Double(a.y) > point.y) != (Double(b.y) > point.y),
                point.x < Double(b.x - a.x) * (point.y - Double(a.y)) / Double(b.y - a.y) + Double(a.x)
            {
                inside.toggle()
            }
            j = i
        }
    }
    return inside
}

func ringArea(_ ring: [(x: Int, y: Int)]) -> Int {
    var sum = 0
    var previous = ring[ring.count - 1]
    for point in ring {
        sum += previous.x * point.y - point.x * previous.y
        previous = point
    }
    return sum / 2
}
