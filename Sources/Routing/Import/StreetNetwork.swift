import Geo

/// Everything imported from one OSM extract that the apps route and search over: the walkable graph,
/// landmarks, places for address search, and what the import did. Saved and loaded as a snapshot
/// (`GraphSnapshot`).
public struct StreetNetwork: Sendable {
    public var graph: StreetGraph
    public var landmarks: [Landmark]
    public var places: [Place]
    public var metadata: ImportMetadata

    public init(graph: StreetGraph, landmarks: [Landmark], places: [Place], metadata: ImportMetadata) {
        self.graph = graph
        self.landmarks = landmarks
        self.places = places
        self.metadata = metadata
    }

    /// Headline figures, as `cairn graph import` prints them.
    public var summary: Summary {
        var shelteredEdges = 0
        var shelteredMeters = 0.0
        for edge in 0..<graph.edgeCount where graph.isSheltered(edge) {
            shelteredEdges += 1
            shelteredMeters += graph.lengthMeters(of: edge)
        }
        return Summary(
            source: metadata.sourceFile, nodes: graph.nodeCount, edges: graph.edgeCount,
            walkableKm: graph.totalLengthMeters / 1000, shelteredEdges: shelteredEdges,
            shelteredKm: shelteredMeters / 1000, landmarks: landmarks.count, places: places.count,
            droppedEdges: metadata.droppedEdges, droppedKm: metadata.droppedLengthMeters / 1000)
    }

    public struct Summary: Sendable, Hashable, Codable {
        public var source: String
        public var nodes: Int
        public var edges: Int
        public var walkableKm: Double
        public var shelteredEdges: Int
        public var shelteredKm: Double
        public var landmarks: Int
        public var places: Int
        /// Edges outside the largest connected component, left out of the graph.
        public var droppedEdges: Int
        public var droppedKm: Double
    }
}

/// What an import read and decided, kept in the snapshot for operators and tests.
public struct ImportMetadata: Sendable, Hashable, Codable {
    /// The extract's file name (without its folder).
    public var sourceFile: String
    /// `pbf` or `xml`.
    public var sourceFormat: String
    /// The box around the kept graph.
    public var boundingBox: BoundingBox?
    public var osmNodesRead: Int
    public var osmWaysRead: Int
    /// Ways the walkable rule accepted (before splitting into edges).
    public var walkableWays: Int
    /// Connected components of the walkable network before all but the largest were dropped.
    public var components: Int
    public var droppedNodes: Int
    public var droppedEdges: Int
    public var droppedLengthMeters: Double

    public init(
        sourceFile: String, sourceFormat: String, boundingBox: BoundingBox?, osmNodesRead: Int, osmWaysRead: Int,
        walkableWays: Int, components: Int, droppedNodes: Int, droppedEdges: Int, droppedLengthMeters: Double
    ) {
        self.sourceFile = sourceFile
        self.sourceFormat = sourceFormat
        self.boundingBox = boundingBox
        self.osmNodesRead = osmNodesRead
        self.osmWaysRead = osmWaysRead
        self.walkableWays = walkableWays
        self.components = components
        self.droppedNodes = droppedNodes
        self.droppedEdges = droppedEdges
        self.droppedLengthMeters = droppedLengthMeters
    }
}
