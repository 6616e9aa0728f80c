import Foundation
import Geo

extension GraphSnapshot.Tag {
    /// `ImportMetadata` as JSON.
    public static let metadata: Self = "META"
    public static let nodeLatitudes: Self = "NLAT"
    public static let nodeLongitudes: Self = "NLON"
    public static let adjacencyStart: Self = "ASTA"
    public static let adjacencyEdge: Self = "AEDG"
    public static let adjacencyNode: Self = "ANOD"
    public static let edgeSource: Self = "ESRC"
    public static let edgeTarget: Self = "ETGT"
    public static let edgeLength: Self = "ELEN"
    public static let edgeHighway: Self = "EHWY"
    public static let edgeFlags: Self = "EFLG"
    public static let edgeName: Self = "ENAM"
    public static let edgeWay: Self = "EWAY"
    public static let shapeStart: Self = "SSTA"
    public static let shapeLatitudes: Self = "SLAT"
    public static let shapeLongitudes: Self = "SLON"
    /// Street names: count, then each as length + UTF-8.
    public static let names: Self = "NAME"
    public static let landmarks: Self = "LMRK"
    public static let places: Self = "PLCE"
}

extension StreetNetwork {
    /// Loads the network saved at `path`.
    public init(contentsOf path: String) throws {
        try self.init(snapshot: try GraphSnapshot(contentsOf: path), file: path)
    }

    /// Saves the network at `path` (atomically: see `GraphSnapshot.write(to:)`).
    public func write(to path: String) throws { try snapshot().write(to: path) }

    /// The network's sections. Add sections of your own before writing; keep their tags distinct from
    /// those in `GraphSnapshot.Tag`.
    public func snapshot() -> GraphSnapshot {
        var snapshot = GraphSnapshot()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        snapshot[.metadata] = try? encoder.encode(metadata)
        snapshot[.nodeLatitudes] = Data(snapshotArray: graph.latitudes)
        snapshot[.nodeLongitudes] = Data(snapshotArray: graph.longitudes)
        snapshot[.adjacencyStart] = Data(snapshotArray: graph.adjacencyStart)
        snapshot[.adjacencyEdge] = Data(snapshotArray: graph.adjacencyEdge)
        snapshot[.adjacencyNode] = Data(snapshotArray: graph.adjacencyNode)
        snapshot[.edgeSource] = Data(snapshotArray: graph.edgeSource)
        snapshot[.edgeTarget] = Data(snapshotArray: graph.edgeTarget)
        snapshot[.edgeLength] = Data(snapshotArray: graph.edgeLengthMeters)
        snapshot[.edgeHighway] = Data(snapshotArray: graph.edgeHighway.map(\.rawValue))
        snapshot[.edgeFlags] = Data(snapshotArray: graph.edgeFlags.map(\.rawValue))
        snapshot[.edgeName] = Data(snapshotArray: graph.edgeNameIndex)
        snapshot[.edgeWay] = Data(snapshotArray: graph.edgeWayID)
        snapshot[.shapeStart] = Data(snapshotArray: graph.shapeStart)
        snapshot[.shapeLatitudes] = Data(snapshotArray: graph.shapeLatitudes)
        snapshot[.shapeLongitudes] = Data(snapshotArray: graph.shapeLongitudes)

        var names = SnapshotRecordWriter()
        names.write(UInt32(graph.names.count))
        for name in graph.names { names.write(name) }
        snapshot[.names] = names.data

        var landmarkRecords = SnapshotRecordWriter()
        landmarkRecords.write(UInt32(landmarks.count))
        for landmark in landmarks {
            landmarkRecords.write(landmark.id.rawValue)
            landmarkRecords.write(landmark.coordinate.latitude)
            landmarkRecords.write(landmark.coordinate.longitude)
            landmarkRecords.write(landmark.category.rawValue)
            landmarkRecords.write(landmark.name)
        }
        snapshot[.landmarks] = landmarkRecords.data

        var placeRecords = SnapshotRecordWriter()
        placeRecords.write(UInt32(places.count))
        for place in places {
            placeRecords.write(place.kind.rawValue)
            placeRecords.write(place.name)
            placeRecords.write(place.category)
            placeRecords.write(place.coordinate.latitude)
            placeRecords.write(place.coordinate.longitude)
            placeRecords.write(place.source?.rawValue ?? -1)
            placeRecords.write(place.street)
            placeRecords.write(place.houseNumber)
            placeRecords.write(place.postcode)
            placeRecords.write(place.city)
        }
        snapshot[.places] = placeRecords.data
        return snapshot
    }

    /// The network in `snapshot`, checked for consistency (every index in range) so that a damaged file
    /// fails here with a `GraphSnapshotError` rather than later in a search. `file` names it in errors.
    public init(snapshot: GraphSnapshot, file: String) throws {
        func fail(_ detail: String) -> GraphSnapshotError { GraphSnapshotError(file: file, .corrupt(detail)) }
        func section(_ tag: GraphSnapshot.Tag) throws -> Data {
            guard let data = snapshot[tag] else {
                throw GraphSnapshotError(file: file, .missingSection(tag.description))
            }
            return data
        }
        func array<T: SnapshotScalar>(_ tag: GraphSnapshot.Tag, _ type: T.Type) throws -> [T] {
            guard let values = try section(tag).snapshotArray(of: type) else {
                throw fail("section \(tag) is not a whole number of values")
            }
            return values
        }
        func records<T>(_ tag: GraphSnapshot.Tag, _ body: (inout SnapshotRecordReader) throws -> T) throws -> [T] {
            var reader = SnapshotRecordReader(try section(tag))
            do {
                let count = try reader.read(UInt32.self)
                return try (0..<count).map { _ in try body(&reader) }
            } catch is SnapshotRecordReader.Overrun {
                throw fail("section \(tag) ends inside a record")
            }
        }

        let metadata: ImportMetadata
        do {
            metadata = try JSONDecoder().decode(ImportMetadata.self, from: try section(.metadata))
        } catch let error as GraphSnapshotError {
            throw error
        } catch {
            throw fail("section META is not valid metadata")
        }
        let highwayBytes = try array(.edgeHighway, UInt8.self)
        let highways = highwayBytes.compactMap(HighwayClass.init(rawValue:))
        guard highways.count == highwayBytes.count else { throw fail("section EHWY holds an unknown highway class") }
        let graph = StreetGraph(
            latitudes: try array(.nodeLatitudes, Double.self), longitudes: try array(.nodeLongitudes, Double.self),
            adjacencyStart: try array(.adjacencyStart, Int32.self),
            adjacencyEdge: try array(.adjacencyEdge, Int32.self),
            adjacencyNode: try array(.adjacencyNode, Int32.self), edgeSource: try array(.edgeSource, Int32.self),
            edgeTarget: try array(.edgeTarget, Int32.self), edgeLengthMeters: try array(.edgeLength, Float.self),
            edgeHighway: highways, edgeFlags: try array(.edgeFlags, UInt8.self).map(StreetGraph.EdgeFlags.init),
            edgeNameIndex: try array(.edgeName, Int32.self), edgeWayID: try array(.edgeWay, Int64.self),
            names: try records(.names) { try $0.readString() },
            shapeStart: try array(.shapeStart, Int32.self), shapeLatitudes: try array(.shapeLatitudes, Double.self),
            shapeLongitudes: try array(.shapeLongitudes, Double.self))
        if let problem = graph.inconsistency { throw fail(problem) }

        let landmarks = try records(.landmarks) { reader -> Landmark in
            let id = OSMElementID(rawValue: try reader.read(Int64.self))
            let latitude = try reader.readDouble(), longitude = try reader.readDouble()
            let category = LandmarkCategory(rawValue: try reader.readString())
            let name = try reader.readString()
            guard let id, let category else { throw fail("section LMRK holds an unknown id or category") }
            return Landmark(
                id: id, name: name, category: category, coordinate: .init(latitude: latitude, longitude: longitude))
        }
        let places = try records(.places) { reader -> Place in
            guard let kind = Place.Kind(rawValue: try reader.readString()) else {
                throw fail("section PLCE holds an unknown kind of place")
            }
            let name = try reader.readString(), category = try reader.readOptionalString()
            let latitude = try reader.readDouble(), longitude = try reader.readDouble()
            let source = OSMElementID(rawValue: try reader.read(Int64.self))
            return Place(
                name: name, kind: kind, category: category,
                coordinate: Coordinate(latitude: latitude, longitude: longitude), source: source,
                street: try reader.readOptionalString(), houseNumber: try reader.readOptionalString(),
                postcode: try reader.readOptionalString(), city: try reader.readOptionalString())
        }
        self.init(graph: graph, landmarks: landmarks, places: places, metadata: metadata)
    }
}

extension StreetGraph {
    /// The first way the arrays contradict each other (lengths that differ, indices out of range), or nil
    /// when the graph is well formed.
    var inconsistency: String? {
        let nodes = nodeCount, edges = edgeCount
        if longitudes.count != nodes { return "node arrays differ in length" }
        if adjacencyStart.count != nodes + 1 || adjacencyStart.first != 0 {
            return "the adjacency index does not match the nodes"
        }
        if adjacencyEdge.count != adjacencyNode.count || Int(adjacencyStart.last!) != adjacencyEdge.count {
            return "adjacency arrays differ in length"
        }
        if zip(adjacencyStart, adjacencyStart.dropFirst()).contains(where: { $0 > $1 }) {
            return "the adjacency index goes backwards"
        }
        if adjacencyEdge.contains(where: { $0 < 0 || Int($0) >= edges }) { return "an arc names a missing edge" }
        if adjacencyNode.contains(where: { $0 < 0 || Int($0) >= nodes }) { return "an arc names a missing node" }
        for array in [
            edgeTarget.count, edgeLengthMeters.count, edgeHighway.count, edgeFlags.count, edgeNameIndex.count,
            edgeWayID.count,
        ]
        where array != edges {
            return "edge arrays differ in length"
        }
        if edgeSource.contains(where: { $0 < 0 || Int($0) >= nodes })
            || edgeTarget.contains(where: { $0 < 0 || Int($0) >= nodes })
        {
            return "an edge names a missing node"
        }
        if edgeNameIndex.contains(where: { $0 < -1 || Int($0) >= names.count }) {
            return "an edge names a missing street name"
        }
        if shapeStart.count != edges + 1 || shapeStart.first != 0 || Int(shapeStart.last!) != shapeLatitudes.count
            || shapeLongitudes.count != shapeLatitudes.count
        {
            return "shape arrays do not match the edges"
        }
        if zip(shapeStart, shapeStart.dropFirst()).contains(where: { $0 > $1 }) {
            return "the shape index goes backwards"
        }
        return nil
    }
}
