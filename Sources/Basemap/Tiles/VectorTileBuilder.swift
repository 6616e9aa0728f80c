import Foundation

/// Cuts vector tiles from a `Basemap`: the features of a tile's zoom that meet it (with a buffer, so that
/// strokes and fills join across tile edges), clipped to the buffered tile, simplified for the zoom
/// (Douglas–Peucker, a quarter of a pixel; a sixteenth at the deepest zoom, which is drawn up to 16× larger),
/// rounded to the tile's 4,096 units, with areas and lines that shrank below a pixel left out.
public struct VectorTileBuilder: Sendable {
    public static let extent = 4096
    /// Units of buffer around the tile: 8 pixels of a 256-pixel tile.
    public static let buffer = 128

    public let basemap: Basemap

    public init(basemap: Basemap) { self.basemap = basemap }

    /// The encoded tile (Mapbox Vector Tile 2.1, not compressed); empty bytes for a tile with nothing in it,
    /// such as every tile outside the covered area.
    /// - Precondition: `tile.isValid` and `tile.z <= Basemap.maxZoom`.
    public func tile(_ tile: TileID) -> [UInt8] {
        precondition(tile.isValid && tile.z <= Basemap.maxZoom, "tile \(tile) is outside the pyramid")
        let tileBox = tile.box
        let scale = Double(Self.extent) / tile.worldSize
        let bufferWorld = Double(Self.buffer) / scale
        guard basemap.coverageBox.intersects(tileBox.expanded(by: bufferWorld)) else { return [] }
        let candidates = basemap.index.features(in: tileBox.expanded(by: bufferWorld), zoom: tile.z)
        let deepest = tile.z == Basemap.maxZoom
        let tolerance = deepest ? 1.0 : 4.0
        let minimumArea = deepest ? 4.0 : 64.0
        let minimumLength = deepest ? 2.0 : 8.0
        let clip = WorldBox(
            minX: -Double(Self.buffer), minY: -Double(Self.buffer), maxX: Double(Self.extent + Self.buffer),
            maxY: Double(Self.extent + Self.buffer))
        let (originX, originY) = (tileBox.minX, tileBox.minY)
        var encoder = VectorTile.Encoder(extent: Self.extent)
        let map = basemap

        func points(ofPart part: Int) -> [WorldPoint] {
            (Int(map.pointStart[part])..<Int(map.pointStart[part + 1])).map {
                WorldPoint(x: (Double(map.x[$0]) - originX) * scale, y: (Double(map.y[$0]) - originY) * scale)
            }
        }
        func quantized(_ line: [WorldPoint]) -> [(x: Int, y: Int)] {
            var output: [(x: Int, y: Int)] = []
            output.reserveCapacity(line.count)
            for point in line {
                let q = (x: Int(point.x.rounded()), y: Int(point.y.rounded()))
                if let last = output.last, last == q { continue }
                output.append(q)
            }
            return output
        }
        func area(_ ring: [(x: Int, y: Int)]) -> Double {
            var sum = 0
            var previous = ring[ring.count - 1]
            for point in ring {
                sum += previous.x * point.y - point.x * previous.y
                previous = point
            }
            return Double(sum) / 2
        }

        for feature in candidates.map(Int.init) {
            let layer = BasemapLayer(rawValue: map.layer[feature])!
            let parts = Int(map.partStart[feature])..<Int(map.partStart[feature + 1])
            var geometry: [[(x: Int, y: Int)]] = []
            let type = GeometryKind(rawValue: map.geometry[feature])!
            switch type {
            case .polygon:
                for (ringIndex, part) in parts.enumerated() {
                    var ring = PlaneGeometry.clipRing(points(ofPart: part), to: clip)
                    guard ring.count >= 3 else {
                        if ringIndex == 0 { break } else { continue }
                    }
                    ring.append(ring[0])
                    ring = PlaneGeometry.simplify(ring, tolerance: tolerance)
                    var integer = quantized(ring)
                    if integer.count > 1, integer.first! == integer.last! { integer.removeLast() }
                    guard integer.count >= 3 else {
                        if ringIndex == 0 { break } else { continue }
                    }
                    let signed = area(integer)
                    if ringIndex == 0 {
                        guard signed >= minimumArea else { break }
                    } else if signed > -minimumArea {
                        continue
                    }
                    geometry.append(integer)
                }
            case .line:
                for part in parts {
                    for piece in PlaneGeometry.clipLine(points(ofPart: part), to: clip) {
                        let simplified = PlaneGeometry.simplify(piece, tolerance: tolerance)
                        guard PlaneGeometry.length(simplified) >= minimumLength else { continue }
                        let integer = quantized(simplified)
                        if integer.count >= 2 { geometry.append(integer) }
                    }
                }
            case .point:
                let index = Int(map.pointStart[parts.lowerBound])
                let x = (Double(map.x[index]) - originX) * scale, y = (Double(map.y[index]) - originY) * scale
                // A point belongs to the one tile it lies in; labels are not repeated across tile edges.
                if x >= 0, x < Double(Self.extent), y >= 0, y < Double(Self.extent) {
                    geometry = [[(Int(x.rounded(.down)), Int(y.rounded(.down)))]]
                }
            }
            guard !geometry.isEmpty else { continue }
            var properties: [(String, VectorTile.Value)] = [("class", .string(map.kinds[Int(map.kind[feature])]))]
            if map.name[feature] >= 0, layer != .road || tile.z >= 13 {
                properties.append(("name", .string(map.names[Int(map.name[feature])])))
            }
            let flags = FeatureFlags(rawValue: map.flags[feature])
            if flags.contains(.tunnel) { properties.append(("brunnel", .string("tunnel"))) }
            if flags.contains(.bridge) { properties.append(("brunnel", .string("bridge"))) }
            let osmLayer = Int8(bitPattern: map.osmLayer[feature])
            if osmLayer != 0 { properties.append(("layer", .int(Int64(osmLayer)))) }
            if type == .point { properties.append(("rank", .int(Int64(map.rank[feature])))) }
            encoder.add(layer: layer.description, type: type, parts: geometry, properties: properties)
        }
        return encoder.encoded()
    }
}
