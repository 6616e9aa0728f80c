import Foundation
import Geo

extension GraphSnapshot.Tag {
    /// The contraction hierarchy of the graph (`ContractionHierarchy.encode(into:)`).
    public static let contractionHierarchy: Self = "CCHS"
}

/// A street network ready to answer questions: the imported network, its router (snapping, shortest
/// paths, street layer), the suggestion index over its places, and its landmarks prepared as targets.
/// Built once per snapshot and shared; every part is safe to use from many threads.
public final class StreetMap: Sendable {
    public let network: StreetNetwork
    public let router: StreetRouter
    public let suggestions: SuggestionIndex
    /// `network.landmarks` snapped to the network, in the same order; a landmark farther than
    /// `StreetRouter.defaultSnapDistanceMeters` from any walkable way is nil.
    public let landmarkPositions: [EdgePosition?]
    /// The snapped landmarks prepared for one-to-many distances; `landmarkTargetIndex` maps back.
    private let landmarkTargets: TargetBuckets
    private let landmarkTargetIndex: [Int]

    public var graph: StreetGraph { network.graph }

    /// Builds the map; the contraction hierarchy is built here when none is given.
    public init(network: StreetNetwork, hierarchy: ContractionHierarchy? = nil) {
        self.network = network
        let router = StreetRouter(graph: network.graph, hierarchy: hierarchy)
        self.router = router
        suggestions = SuggestionIndex(entries: network.places.map(SuggestionEntry.init(place:)))
        let positions = network.landmarks.map { try? router.snap($0.coordinate) }
        let snapped = positions.indices.filter { positions[$0] != nil }
        landmarkPositions = positions
        landmarkTargetIndex = snapped
        landmarkTargets = router.prepareTargets(snapped.map { positions[$0]! })
    }

    /// Loads a snapshot written by `StreetMap.write(_:to:)` (or a plain network snapshot, whose hierarchy
    /// is then built at load).
    /// - Throws: `GraphSnapshotError` naming the file and what is wrong with it.
    public convenience init(contentsOf path: String) throws {
        try self.init(snapshot: try GraphSnapshot(contentsOf: path), file: path)
    }

    /// Loads a snapshot already read (which may carry other sections, such as the basemap's); `file` names it
    /// in errors.
    /// - Throws: `GraphSnapshotError` naming the file and what is wrong with it.
    public convenience init(snapshot: GraphSnapshot, file path: String) throws {
        let network = try StreetNetwork(snapshot: snapshot, file: path)
        var hierarchy: ContractionHierarchy?
        if let section = snapshot[.contractionHierarchy] {
            do {
                hierarchy = try ContractionHierarchy(decoding: section, for: network.graph)
            } catch {
                throw GraphSnapshotError(
                    file: path, .corrupt("section \(GraphSnapshot.Tag.contractionHierarchy): \(error)"))
            }
        }
        self.init(network: network, hierarchy: hierarchy)
    }

    /// Saves `network` with its contraction hierarchy (built here) at `path`, atomically, with `sections` of
    /// other libraries beside them (the basemap's).
    public static func write(
        _ network: StreetNetwork, adding sections: [(GraphSnapshot.Tag, Data)] = [], to path: String
    ) throws {
        var snapshot = network.snapshot()
        var section = Data()
        ContractionHierarchy(graph: network.graph).encode(into: &section)
        snapshot[.contractionHierarchy] = section
        for (tag, payload) in sections { snapshot[tag] = payload }
        try snapshot.write(to: path)
    }

    /// Landmarks within `radiusMeters` (great-circle) of `point`, nearest first.
    public func landmarks(near point: Coordinate, radiusMeters: Double) -> [(
        landmark: Landmark, distanceMeters: Double
    )] {
        network.landmarks.compactMap { landmark in
            let distance = point.haversineDistance(to: landmark.coordinate)
            return distance <= radiusMeters ? (landmark, distance) : nil
        }
        .sorted { $0.distanceMeters < $1.distanceMeters }
    }

    /// Landmarks whose shortest round trip from `start` (there and back) is at most `roundTripMeters`,
    /// nearest first, as indices into `network.landmarks` with the round trip's length.
    public func landmarks(
        withinRoundTrip roundTripMeters: Double, from start: EdgePosition
    ) -> [(index: Int, roundTripMeters: Double)] {
        router.targetsWithinRoundTrip(from: start, of: landmarkTargets, roundTripMeters: roundTripMeters)
            .map { (index: landmarkTargetIndex[$0.index], roundTripMeters: 2 * $0.distanceMeters) }
    }
}

extension SuggestionEntry {
    /// The entry a place of the import is found by; the detail is its category in words, or postcode and city.
    public init(place: Place) {
        let kind: Kind =
            switch place.kind {
            case .street: .street
            case .address: .address
            case .poi: .poi
            case .landmark: .landmark
            }
        let detail: String? =
            switch place.kind {
            case .street: nil
            case .address: [place.postcode, place.city].compactMap { $0 }.joined(separator: " ").nilIfEmpty
            case .poi, .landmark: place.category.map(Self.words(ofCategory:))
            }
        self.init(text: place.name, kind: kind, detail: detail, coordinate: place.coordinate)
    }

    /// `railway=tram_stop` → "Tram stop", `place_of_worship` → "Place of worship".
    static func words(ofCategory category: String) -> String {
        let value = category.split(separator: "=").last.map(String.init) ?? category
        let words = value.replacingOccurrences(of: "_", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
