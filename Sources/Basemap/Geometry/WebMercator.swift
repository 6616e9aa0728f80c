import Foundation
import Geo

/// A point in Web Mercator world coordinates (EPSG:3857 scaled to the unit square and then to 2³²): `x` grows
/// east from the antimeridian, `y` grows **south** from 85.05° N, as tile and screen coordinates do. One unit
/// is about a centimetre at the equator, so UInt32 storage loses nothing an OSM coordinate (10⁻⁷°) holds.
///
/// On screen (y down) a ring whose shoelace sum is positive runs clockwise; the basemap stores outer rings
/// that way and holes the other way, as the Mapbox Vector Tile specification wants them in tile coordinates.
public struct WorldPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The projection between latitude/longitude and `WorldPoint`s, and the slippy-map tile grid on top of it.
public enum WebMercator {
    /// 2³²: the size of the world in world units.
    public static let worldSize = 4_294_967_296.0
    /// The latitude where the square world ends (atan(sinh(π)) in degrees).
    public static let maxLatitude = 85.051_128_779_806_59

    public static func project(_ coordinate: Coordinate) -> WorldPoint {
        project(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }

    public static func project(latitude: Double, longitude: Double) -> WorldPoint {
        let lat = min(max(latitude, -maxLatitude), maxLatitude) * .pi / 180
        let x = (longitude + 180) / 360
        let y = (1 - log(tan(lat) + 1 / cos(lat)) / .pi) / 2
        return WorldPoint(x: x * worldSize, y: y * worldSize)
    }

    public static func unproject(_ point: WorldPoint) -> Coordinate {
        let x = point.x / worldSize, y = point.y / worldSize
        let longitude = x * 360 - 180
        let latitude = atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// World units per metre on the ground at `latitude` (the Mercator scale grows with 1 / cos φ).
    public static func unitsPerMeter(atLatitude latitude: Double) -> Double {
        worldSize / (2 * .pi * 6_378_137) / cos(latitude * .pi / 180)
    }
}

/// An axis-aligned box in world coordinates.
public struct WorldBox: Hashable, Sendable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The world box of a latitude/longitude box (north becomes `minY`).
    public init(_ box: BoundingBox) {
        let northWest = WebMercator.project(latitude: box.north, longitude: box.west)
        let southEast = WebMercator.project(latitude: box.south, longitude: box.east)
        self.init(minX: northWest.x, minY: northWest.y, maxX: southEast.x, maxY: southEast.y)
    }

    /// The smallest box holding every point; nil for none.
    public init?(covering points: some Sequence<WorldPoint>) {
        var iterator = points.makeIterator()
        guard let first = iterator.next() else { return nil }
        self.init(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
        while let point = iterator.next() {
            minX = min(minX, point.x)
            maxX = max(maxX, point.x)
            minY = min(minY, point.y)
            maxY = max(maxY, point.y)
        }
    }

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }

    public func contains(_ point: WorldPoint) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

    public func intersects(_ other: WorldBox) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    /// The box grown by `margin` on every side.
    public func expanded(by margin: Double) -> WorldBox {
        WorldBox(minX: minX - margin, minY: minY - margin, maxX: maxX + margin, maxY: maxY + margin)
    }

    /// The latitude/longitude box.
    public var boundingBox: BoundingBox {
        let northWest = WebMercator.unproject(WorldPoint(x: minX, y: minY))
        let southEast = WebMercator.unproject(WorldPoint(x: maxX, y: maxY))
        return BoundingBox(
            south: southEast.latitude, west: northWest.longitude, north: northWest.latitude, east: southEast.longitude)
    }
}

/// One tile of the slippy-map grid (zoom `z`, column `x` from the west, row `y` from the north), as OSM's
/// raster tiles and every vector tile server number them.
public struct TileID: Hashable, Sendable, CustomStringConvertible {
    public var z: Int
    public var x: Int
    public var y: Int

    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// Whether the tile exists: 0 ≤ z ≤ 30 and x, y within the 2^z tiles of that zoom.
    public var isValid: Bool { z >= 0 && z <= 30 && x >= 0 && y >= 0 && x < 1 << z && y < 1 << z }

    /// The tile's size in world units.
    public var worldSize: Double { WebMercator.worldSize / Double(1 << z) }

    /// The tile's box in world coordinates.
    public var box: WorldBox {
        let size = worldSize
        return WorldBox(
            minX: Double(x) * size, minY: Double(y) * size, maxX: Double(x + 1) * size, maxY: Double(y + 1) * size)
    }

    /// The tiles of zoom `z` that intersect `box`.
    public static func covering(_ box: WorldBox, zoom z: Int) -> [TileID] {
        let size = WebMercator.worldSize / Double(1 << z)
        let last = (1 << z) - 1
        let x0 = max(0, min(last, Int((box.minX / size).rounded(.down))))
        let x1 = max(0, min(last, Int((box.maxX / size).rounded(.down))))
        let y0 = max(0, min(last, Int((box.minY / size).rounded(.down))))
        let y1 = max(0, min(last, Int((box.maxY / size).rounded(.down))))
        var tiles: [TileID] = []
        for y in y0...y1 {
            for x in x0...x1 { tiles.append(TileID(z: z, x: x, y: y)) }
        }
        return tiles
    }

    public var description: String { "\(z)/\(x)/\(y)" }
}
