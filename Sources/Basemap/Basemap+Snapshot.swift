import Foundation
import Routing

extension GraphSnapshot.Tag {
    /// The basemap's sections (docs/basemap.md, "Stored form"): metadata as JSON, then one raw array each.
    static let basemapMetadata: Self = "BMET"
    static let basemapLayer: Self = "BLAY"
    static let basemapGeometry: Self = "BGEO"
    static let basemapMinZoom: Self = "BMNZ"
    static let basemapRank: Self = "BRNK"
    static let basemapFlags: Self = "BFLG"
    static let basemapOSMLayer: Self = "BOSL"
    static let basemapKind: Self = "BKND"
    static let basemapName: Self = "BNAM"
    static let basemapPartStart: Self = "BPRT"
    static let basemapPointStart: Self = "BPTS"
    static let basemapX: Self = "BPTX"
    static let basemapY: Self = "BPTY"
    static let basemapBox: Self = "BBOX"
    static let basemapKinds: Self = "BKTX"
    static let basemapNames: Self = "BNTX"
}

extension Basemap {
    /// The sections that store this basemap in a graph snapshot, beside the street network it was imported
    /// with (`StreetMap.write(_:adding:to:)`).
    public var snapshotSections: [(GraphSnapshot.Tag, Data)] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        func strings(_ list: [String]) -> Data {
            var writer = SnapshotRecordWriter()
            writer.write(UInt32(list.count))
            for text in list { writer.write(text) }
            return writer.data
        }
        return [
            (.basemapMetadata, (try? encoder.encode(metadata)) ?? Data()),
            (.basemapLayer, Data(snapshotArray: layer)),
            (.basemapGeometry, Data(snapshotArray: geometry)),
            (.basemapMinZoom, Data(snapshotArray: minZoom)),
            (.basemapRank, Data(snapshotArray: rank)),
            (.basemapFlags, Data(snapshotArray: flags)),
            (.basemapOSMLayer, Data(snapshotArray: osmLayer)),
            (.basemapKind, Data(snapshotArray: kind)),
            (.basemapName, Data(snapshotArray: name)),
            (.basemapPartStart, Data(snapshotArray: partStart)),
            (.basemapPointStart, Data(snapshotArray: pointStart)),
            (.basemapX, Data(snapshotArray: x)),
            (.basemapY, Data(snapshotArray: y)),
            (.basemapBox, Data(snapshotArray: box)),
            (.basemapKinds, strings(kinds)),
            (.basemapNames, strings(names)),
        ]
    }

    /// The basemap stored in `snapshot`, or nil when the snapshot has none (a graph imported before Cairn
    /// drew basemaps).
    /// - Throws: `GraphSnapshotError` naming `file` when a section is missing, damaged or inconsistent.
    public static func load(from snapshot: GraphSnapshot, file: String) throws -> Basemap? {
        guard let metadataSection = snapshot[.basemapMetadata] else { return nil }
        func fail(_ detail: String) -> GraphSnapshotError { GraphSnapshotError(file: file, .corrupt(detail)) }
        func array<T: SnapshotScalar>(_ tag: GraphSnapshot.Tag, _ type: T.Type) throws -> [T] {
            guard let data = snapshot[tag] else {
                throw GraphSnapshotError(file: file, .missingSection(tag.description))
            }
            guard let values = data.snapshotArray(of: type) else { throw fail("section \(tag) has a partial element") }
            return values
        }
        func strings(_ tag: GraphSnapshot.Tag) throws -> [String] {
            guard let data = snapshot[tag] else {
                throw GraphSnapshotError(file: file, .missingSection(tag.description))
            }
            var reader = SnapshotRecordReader(data)
            do {
                let count = Int(try reader.read(UInt32.self))
                var list: [String] = []
                list.reserveCapacity(min(count, data.count / 4))
                for _ in 0..<count { list.append(try reader.readString()) }
                return list
            } catch {
                throw fail("section \(tag) ends early")
            }
        }
        let metadata: BasemapMetadata
        do {
            metadata = try JSONDecoder().decode(BasemapMetadata.self, from: metadataSection)
        } catch {
            throw fail("section \(GraphSnapshot.Tag.basemapMetadata) is not valid metadata")
        }
        let layer = try array(.basemapLayer, UInt8.self), geometry = try array(.basemapGeometry, UInt8.self)
        let minZoom = try array(.basemapMinZoom, UInt8.self), rank = try array(.basemapRank, UInt8.self)
        let flags = try array(.basemapFlags, UInt8.self), osmLayer = try array(.basemapOSMLayer, UInt8.self)
        let kind = try array(.basemapKind, UInt32.self), name = try array(.basemapName, Int32.self)
        let partStart = try array(.basemapPartStart, Int32.self), pointStart = try array(.basemapPointStart, Int32.self)
        let x = try array(.basemapX, UInt32.self), y = try array(.basemapY, UInt32.self)
        let box = try array(.basemapBox, UInt32.self)
        let kinds = try strings(.basemapKinds), names = try strings(.basemapNames)

        let count = layer.count
        guard
            [geometry.count, minZoom.count, rank.count, flags.count, osmLayer.count, kind.count, name.count]
                .allSatisfy({ $0 == count }), box.count == 4 * count, partStart.count == count + 1, x.count == y.count
        else { throw fail("the basemap's sections disagree on how many features it has") }
        guard layer.allSatisfy({ BasemapLayer(rawValue: $0) != nil }),
            geometry.allSatisfy({ GeometryKind(rawValue: $0) != nil }),
            kind.allSatisfy({ Int($0) < kinds.count }), name.allSatisfy({ $0 >= -1 && Int($0) < names.count })
        else { throw fail("a basemap feature has an unknown layer, geometry, class or name") }
        guard partStart.first == 0, zip(partStart, partStart.dropFirst()).allSatisfy({ $0 < $1 }),
            Int(partStart.last!) == pointStart.count - 1, pointStart.first == 0,
            zip(pointStart, pointStart.dropFirst()).allSatisfy({ $0 < $1 }), Int(pointStart.last!) == x.count
        else { throw fail("the basemap's parts do not add up to its points") }
        return Basemap(
            metadata: metadata, layer: layer, geometry: geometry, minZoom: minZoom, rank: rank, flags: flags,
            osmLayer: osmLayer, kind: kind, name: name, partStart: partStart, pointStart: pointStart, x: x, y: y,
            box: box,
            kinds: kinds, names: names)
    }
}
