import Foundation
import Geo
import Zlib

/// Collects features during an import, then freezes them into a `Basemap` in drawing order.
struct BasemapBuilder {
    private struct Pending {
        var style: FeatureStyle
        var geometry: GeometryKind
        var name: String?
        var osmLayer: Int
        var parts: [[WorldPoint]]
        var box: WorldBox
        var sortKey: Double
    }

    private var pending: [Pending] = []

    var count: Int { pending.count }

    /// Adds a feature; parts must already be clipped to the covered area. Nothing is added for empty parts.
    /// Areas and lines too small to be seen at their style's first zoom start where they reach two pixels.
    mutating func add(
        _ style: FeatureStyle, _ geometry: GeometryKind, parts: [[WorldPoint]], name: String?, osmLayer: Int = 0
    ) {
        let minimum = geometry == .point ? 1 : 2
        let parts = parts.filter { $0.count >= minimum }
        guard let box = WorldBox(covering: parts.joined()) else { return }
        var style = style
        if geometry != .point {
            let size = max(box.width, box.height, 1)
            // One pixel of a 256-pixel tile at zoom z is 2^(24 - z) world units.
            let visibleFrom = Int((25 - log2(size)).rounded(.up))
            style.minZoom = max(style.minZoom, min(visibleFrom, Basemap.maxZoom))
        }
        let sortKey: Double
        switch geometry {
        case .polygon: sortKey = -Polygon(outer: parts[0], holes: Array(parts.dropFirst())).area
        case .line: sortKey = Double(osmLayer * 100 + Self.stacking(style))
        case .point: sortKey = Double(style.rank)
        }
        pending.append(
            Pending(
                style: style, geometry: geometry, name: name, osmLayer: max(-128, min(127, osmLayer)), parts: parts,
                box: box,
                sortKey: sortKey))
    }

    /// Within one OSM layer: tunnels below, then minor to major ways, bridges on top.
    private static func stacking(_ style: FeatureStyle) -> Int {
        let order = [
            "path", "cycleway", "steps", "track", "service", "pedestrian", "minor", "tertiary", "secondary", "primary",
            "trunk", "motorway", "tram_minor", "rail_minor", "tram", "subway", "light_rail", "rail",
        ]
        let base = order.firstIndex(of: style.kind) ?? 0
        if style.flags.contains(.tunnel) { return base - 40 }
        if style.flags.contains(.bridge) { return base + 40 }
        return base
    }

    func build(metadata: BasemapMetadata) -> Basemap {
        let order = pending.indices.sorted { a, b in
            let pa = pending[a], pb = pending[b]
            if pa.style.layer != pb.style.layer { return pa.style.layer.rawValue < pb.style.layer.rawValue }
            if pa.sortKey != pb.sortKey { return pa.sortKey < pb.sortKey }
            return a < b
        }
        var layer: [UInt8] = [], geometry: [UInt8] = [], minZoom: [UInt8] = [], rank: [UInt8] = [], flags: [UInt8] = []
        var osmLayer: [UInt8] = [], kind: [UInt32] = [], name: [Int32] = [], box: [UInt32] = []
        var partStart: [Int32] = [0], pointStart: [Int32] = [0], x: [UInt32] = [], y: [UInt32] = []
        var kinds: [String] = [], kindIndex: [String: UInt32] = [:]
        var names: [String] = [], nameIndex: [String: Int32] = [:]
        var counts: [String: Int] = [:]
        func world(_ value: Double) -> UInt32 { UInt32(max(0, min(WebMercator.worldSize - 1, value.rounded()))) }
        for index in order {
            let feature = pending[index]
            layer.append(feature.style.layer.rawValue)
            geometry.append(feature.geometry.rawValue)
            minZoom.append(UInt8(max(0, min(Basemap.maxZoom, feature.style.minZoom))))
            rank.append(UInt8(max(0, min(255, feature.style.rank))))
            flags.append(feature.style.flags.rawValue)
            osmLayer.append(UInt8(bitPattern: Int8(feature.osmLayer)))
            if kindIndex[feature.style.kind] == nil {
                kindIndex[feature.style.kind] = UInt32(kinds.count)
                kinds.append(feature.style.kind)
            }
            kind.append(kindIndex[feature.style.kind]!)
            if let text = feature.name {
                if nameIndex[text] == nil {
                    nameIndex[text] = Int32(names.count)
                    names.append(text)
                }
                name.append(nameIndex[text]!)
            } else {
                name.append(-1)
            }
            box += [world(feature.box.minX), world(feature.box.minY), world(feature.box.maxX), world(feature.box.maxY)]
            for part in feature.parts {
                for point in part {
                    x.append(world(point.x))
                    y.append(world(point.y))
                }
                pointStart.append(Int32(x.count))
            }
            partStart.append(Int32(pointStart.count - 1))
            counts[feature.style.layer.description, default: 0] += 1
        }
        var metadata = metadata
        metadata.features = counts
        var crc: UInt32 = 0
        func checksum<T>(_ array: [T]) {
            array.withUnsafeBytes { bytes in crc = Zlib.crc32(bytes, continuing: crc) }
        }
        checksum(layer)
        checksum(minZoom)
        checksum(rank)
        checksum(flags)
        checksum(kind)
        checksum(name)
        checksum(pointStart)
        checksum(x)
        checksum(y)
        checksum(Array((kinds + names + [metadata.name, "\(metadata.coverage)"]).joined(separator: "\u{1F}").utf8))
        metadata.version = String(format: "%08x", crc)
        return Basemap(
            metadata: metadata, layer: layer, geometry: geometry, minZoom: minZoom, rank: rank, flags: flags,
            osmLayer: osmLayer, kind: kind, name: name, partStart: partStart, pointStart: pointStart, x: x, y: y,
            box: box,
            kinds: kinds, names: names)
    }
}

extension Basemap {
    /// The deepest zoom tiles are cut for. At zoom 16 a tile is 300–600 m wide in Europe and its 4,096 units
    /// are 7–15 cm, fine enough to draw four zooms deeper.
    public static let maxZoom = 16
}
