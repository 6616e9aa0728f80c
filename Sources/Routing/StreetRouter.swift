import Foundation
import Geo

/// What the server and the command line ask of a street network, in one place: snap a coordinate to the
/// nearest walkable point, route between points, distances to many targets, edges and the street layer
/// in a box. Built from a graph and, when a snapshot stores one, its contraction hierarchy (otherwise
/// the hierarchy is built here).
///
/// Safe to share between threads: queries borrow a `HierarchySearch` from a small pool.
public final class StreetRouter: Sendable {
    /// How far from the network a point may be and still be snapped, unless a caller says otherwise.
    public static let defaultSnapDistanceMeters = 250.0

    public let graph: StreetGraph
    public let segments: SegmentIndex
    public let hierarchy: ContractionHierarchy
    /// Idle `HierarchySearch` workspaces, lent out one per concurrent query (two entries per node each).
    private let searches: ObjectPool<HierarchySearch>

    public init(graph: StreetGraph, hierarchy: ContractionHierarchy? = nil) {
        self.graph = graph
        segments = SegmentIndex(graph: graph)
        self.hierarchy = hierarchy ?? ContractionHierarchy(graph: graph)
        let built = self.hierarchy
        searches = ObjectPool { HierarchySearch(graph: graph, hierarchy: built) }
    }

    /// The walkable point nearest to `coordinate`.
    /// - Throws: `RoutingError.noWalkablePathNear` when none lies within `maxDistanceMeters`.
    public func snap(
        _ coordinate: Coordinate, maxDistanceMeters: Double = StreetRouter.defaultSnapDistanceMeters
    ) throws(RoutingError) -> EdgePosition {
        guard let position = segments.nearest(to: coordinate, in: graph, maxDistanceMeters: maxDistanceMeters) else {
            throw .noWalkablePathNear(coordinate, maxDistanceMeters: maxDistanceMeters)
        }
        return position
    }

    /// The shortest walk between two points on the network; nil when they are not connected.
    public func route(from start: EdgePosition, to end: EdgePosition) -> Route? {
        searches.withObject { $0.route(from: start, to: end) }
    }

    /// Snaps both coordinates and returns the shortest walk between them.
    /// - Throws: `RoutingError` when a point is too far from the network or the points are not connected.
    public func route(
        from start: Coordinate, to end: Coordinate,
        maxSnapDistanceMeters: Double = StreetRouter.defaultSnapDistanceMeters
    ) throws(RoutingError) -> Route {
        let from = try snap(start, maxDistanceMeters: maxSnapDistanceMeters)
        let to = try snap(end, maxDistanceMeters: maxSnapDistanceMeters)
        guard let route = route(from: from, to: to) else { throw .noRoute(from: start, to: end) }
        return route
    }

    /// The length of the shortest walk; infinity when the points are not connected.
    public func distance(from start: EdgePosition, to end: EdgePosition) -> Double {
        searches.withObject { $0.distance(from: start, to: end) }
    }

    /// Prepares a fixed set of targets (landmarks, say) for `distances(from:to:maxMeters:)`.
    public func prepareTargets(_ targets: [EdgePosition]) -> TargetBuckets {
        searches.withObject { $0.prepareTargets(targets) }
    }

    /// The length of the shortest walk from `start` to each target, in their order; infinity beyond
    /// `maxMeters` or when not connected.
    public func distances(from start: EdgePosition, to targets: TargetBuckets, maxMeters: Double = .infinity)
        -> [Double]
    {
        searches.withObject { $0.distances(from: start, to: targets, maxMeters: maxMeters) }
    }

    /// The targets one can walk to from `start` and back within `roundTripMeters` (there and back the
    /// same shortest way: the network is undirected), nearest first, as indices into `targets.targets`.
    public func targetsWithinRoundTrip(
        from start: EdgePosition, of targets: TargetBuckets, roundTripMeters: Double
    ) -> [(index: Int, distanceMeters: Double)] {
        let distances = self.distances(from: start, to: targets, maxMeters: roundTripMeters / 2)
        return distances.indices.filter { distances[$0] < .infinity }
            .map { (index: $0, distanceMeters: distances[$0]) }
            .sorted { ($0.distanceMeters, $0.index) < ($1.distanceMeters, $1.index) }
    }

    /// The edges with a segment inside or crossing `box`, in increasing order.
    public func edges(in box: BoundingBox) -> [Int] {
        segments.edges(in: box, of: graph)
    }

    /// The walkable ways in `box` as GeoJSON, thinned to at most `maxFeatures` (see `StreetLayer`).
    public func streetLayer(in box: BoundingBox, maxFeatures: Int = StreetLayer.defaultMaxFeatures) -> StreetLayer {
        StreetLayer(graph: graph, edges: edges(in: box), box: box, maxFeatures: maxFeatures)
    }
}
