import Foundation

/// A static spatial index for cutting tiles: every feature sits in the smallest cell of the tile pyramid
/// (levels 0…20) that holds its whole box, and entries are sorted by (first zoom, level, Morton code of the
/// cell). The cells under a tile form one run of Morton codes at each deeper level, and the cells above it
/// are its ancestors, so a tile's candidates come from a few binary searches per level — and a zoom-10 tile
/// never visits the buildings that start at zoom 14.
struct FeatureIndex: Sendable {
    static let maxLevel = 20

    private let keys: [UInt64]
    private let features: [Int32]
    private let box: [UInt32]
    /// The (first zoom, level) pairs that have entries, as `minZoom << 8 | level`.
    private let groups: [UInt16]

    init(minZoom: [UInt8], box: [UInt32]) {
        self.box = box
        var entries: [(UInt64, Int32)] = []
        entries.reserveCapacity(minZoom.count)
        var groupSet = Set<UInt16>()
        for feature in minZoom.indices {
            let minX = UInt64(box[4 * feature]), minY = UInt64(box[4 * feature + 1])
            let maxX = UInt64(box[4 * feature + 2]), maxY = UInt64(box[4 * feature + 3])
            var level = Self.maxLevel
            while level > 0 {
                let shift = UInt64(32 - level)
                if minX >> shift == maxX >> shift, minY >> shift == maxY >> shift { break }
                level -= 1
            }
            let shift = UInt64(32 - level)
            let key = Self.key(
                minZoom: Int(minZoom[feature]), level: level,
                cell: Self.morton(UInt32(minX >> shift), UInt32(minY >> shift)))
            entries.append((key, Int32(feature)))
            groupSet.insert(UInt16(minZoom[feature]) << 8 | UInt16(level))
        }
        entries.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
        keys = entries.map(\.0)
        features = entries.map(\.1)
        groups = groupSet.sorted()
    }

    static func key(minZoom: Int, level: Int, cell: UInt64) -> UInt64 {
        UInt64(minZoom) << 58 | UInt64(level) << 52 | cell
    }

    /// Interleaves the bits of x and y (x in the even bits).
    static func morton(_ x: UInt32, _ y: UInt32) -> UInt64 {
        func spread(_ value: UInt32) -> UInt64 {
            var v = UInt64(value) & 0xFFFF_FFFF
            v = (v | v << 16) & 0x0000_FFFF_0000_FFFF
            v = (v | v << 8) & 0x00FF_00FF_00FF_00FF
            v = (v | v << 4) & 0x0F0F_0F0F_0F0F_0F0F
            v = (v | v << 2) & 0x3333_3333_3333_3333
            v = (v | v << 1) & 0x5555_5555_5555_5555
            return v
        }
        return spread(x) | spread(y) << 1
    }

    /// Features shown at `zoom` whose box meets `area`, in drawing order (ascending index).
    func features(in area: WorldBox, zoom: Int) -> [Int32] {
        let worldMax = WebMercator.worldSize - 1
        let clamped = WorldBox(
            minX: max(0, area.minX), minY: max(0, area.minY), maxX: min(worldMax, area.maxX),
            maxY: min(worldMax, area.maxY))
        guard clamped.minX <= clamped.maxX, clamped.minY <= clamped.maxY else { return [] }
        let tiles = TileID.covering(clamped, zoom: min(zoom, Self.maxLevel))
        var found: [Int32] = []
        for group in groups {
            let minZoom = Int(group >> 8), level = Int(group & 0xFF)
            guard minZoom <= zoom else { break }
            if level <= tiles[0].z {
                let cells = TileID.covering(clamped, zoom: level)
                for cell in cells {
                    let key = Self.key(
                        minZoom: minZoom, level: level, cell: Self.morton(UInt32(cell.x), UInt32(cell.y)))
                    collect(from: key, to: key + 1, into: &found)
                }
            } else {
                let depth = UInt64(2 * (level - tiles[0].z))
                for tile in tiles {
                    let code = Self.morton(UInt32(tile.x), UInt32(tile.y))
                    collect(
                        from: Self.key(minZoom: minZoom, level: level, cell: code << depth),
                        to: Self.key(minZoom: minZoom, level: level, cell: (code + 1) << depth), into: &found)
                }
            }
        }
        let (minX, minY, maxX, maxY) = (clamped.minX, clamped.minY, clamped.maxX, clamped.maxY)
        found = found.filter { feature in
            let f = Int(feature) * 4
            return Double(box[f]) <= maxX && Double(box[f + 2]) >= minX && Double(box[f + 1]) <= maxY
                && Double(box[f + 3]) >= minY
        }
        found.sort()
        return found
    }

    private func collect(from lower: UInt64, to upper: UInt64, into found: inout [Int32]) {
        var index = lowerBound(lower)
        while index < keys.count, keys[index] < upper {
            found.append(features[index])
            index += 1
        }
    }

    private func lowerBound(_ key: UInt64) -> Int {
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
