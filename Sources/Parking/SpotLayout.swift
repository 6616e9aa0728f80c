import Foundation
import Geo

/// Lays out parking spots in a rectangular lot: rows of stalls along the lot's long side, two rows back to back
/// between driving aisles, as striped surface lots are built. Stalls are 2.7 m × 5.5 m, aisles 7 m.
public enum SpotLayout {
    public static let stallWidthMeters = 2.7
    public static let stallDepthMeters = 5.5
    public static let aisleMeters = 7.0

    /// A stall: its four corners (counter-clockwise, closed ring in GeoJSON order) and its centre.
    public struct Stall: Sendable, Equatable {
        public var row: Int
        public var number: Int
        public var corners: [Coordinate]
        public var center: Coordinate
    }

    /// The stalls of the axis-aligned lot `box` (south-west to north-east), rows running east–west, at most
    /// `limit` of them, filled row by row from the south.
    public static func stalls(in box: BoundingBox, limit: Int = .max) -> [Stall] {
        let projection = LocalProjection(origin: Coordinate(latitude: box.south, longitude: box.west))
        let corner = projection.project(latitude: box.north, longitude: box.east)
        let width = corner.x
        let height = corner.y
        let perRow = Int((width - 2) / stallWidthMeters)
        guard perRow > 0 else { return [] }
        var stalls: [Stall] = []
        var y = aisleMeters / 2
        var row = 0
        while y + stallDepthMeters <= height, stalls.count < limit {
            for index in 0..<perRow where stalls.count < limit {
                let x = 1 + Double(index) * stallWidthMeters
                let inset = 0.15
                let ring = [
                    (x + inset, y), (x + stallWidthMeters - inset, y),
                    (x + stallWidthMeters - inset, y + stallDepthMeters),
                    (x + inset, y + stallDepthMeters), (x + inset, y),
                ].map { projection.unproject(x: $0.0, y: $0.1) }
                let center = projection.unproject(x: x + stallWidthMeters / 2, y: y + stallDepthMeters / 2)
                stalls.append(Stall(row: row, number: index + 1, corners: ring, center: center))
            }
            row += 1
            // Back to back with the next row on odd rows, an aisle after even ones.
            y += stallDepthMeters + (row % 2 == 1 ? 0 : aisleMeters)
        }
        return stalls
    }
}
