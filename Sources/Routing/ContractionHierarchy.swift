/// A contraction hierarchy over a `StreetGraph`: the preprocessing that makes shortest-path queries a few
/// hundred times faster than Dijkstra (Geisberger, Sanders, Schultes & Delling, "Contraction Hierarchies:
/// Faster and Simpler Hierarchical Routing in Road Networks", WEA 2008).
///
/// Nodes are contracted one by one, least important first; contracting a node adds a shortcut between two
/// of its neighbours whenever it lay on their only shortest path. Each node gets a rank (its contraction
/// order) and keeps its *upward* arcs: original edges and shortcuts to neighbours of higher rank. Because
/// the street graph is undirected, one upward graph serves both directions of a query (`HierarchySearch`).
///
/// Nodes are stored by rank, so the important nodes every long query touches sit together in memory. An
/// arc stores the middle node of its shortcut (for unpacking into edges) or the original edge it stands
/// for. The structure is plain arrays and can be stored in a graph snapshot (`encode(into:)`).
public struct ContractionHierarchy: Sendable, Equatable {
    /// An upward arc: from a node to `head`, a node of higher rank.
    public struct Arc: Sendable, Hashable {
        /// The rank of the node the arc leads to.
        public var head: Int32
        /// A shortcut's middle node (a rank, ≥ 0), or the bitwise complement of the original edge (< 0).
        public var via: Int32
        public var weight: Double

        public init(head: Int32, via: Int32, weight: Double) {
            self.head = head
            self.via = via
            self.weight = weight
        }

        /// The graph edge this arc stands for, or nil for a shortcut.
        public var edge: Int? { via < 0 ? Int(~via) : nil }
    }

    /// Tuning of the preprocessing. The defaults suit street networks from a few thousand to a few
    /// million nodes.
    public struct BuildOptions: Sendable, Hashable {
        /// How many nodes a witness search may settle while the contraction order is being chosen.
        public var simulationSettleLimit: Int
        /// How many nodes a witness search may settle when a node is actually contracted. A search that
        /// gives up only costs a superfluous shortcut, never a wrong distance.
        public var contractionSettleLimit: Int

        public init(simulationSettleLimit: Int = 100, contractionSettleLimit: Int = 400) {
            self.simulationSettleLimit = simulationSettleLimit
            self.contractionSettleLimit = contractionSettleLimit
        }
    }

    /// The rank (contraction order) of each graph node.
    public let rankOfNode: [Int32]
    /// The graph node at each rank.
    public let nodeAtRank: [Int32]
    /// The upward arcs of the node of rank `r` are `arcs[arcStart[r] ..< arcStart[r + 1]]`.
    public let arcStart: [Int32]
    public let arcs: [Arc]
    /// How many edges the graph had, to reject a hierarchy loaded for another graph.
    public let graphEdgeCount: Int

    public var nodeCount: Int { nodeAtRank.count }

    /// How many arcs are shortcuts rather than original edges.
    public var shortcutCount: Int { arcs.reduce(0) { $0 + ($1.via >= 0 ? 1 : 0) } }

    /// Contracts every node of `graph`. Takes about a second per hundred thousand nodes on one core.
    public init(graph: StreetGraph, options: BuildOptions = BuildOptions()) {
        let contractor = HierarchyContractor(graph: graph, options: options)
        self = contractor.contractAll(graphEdgeCount: graph.edgeCount)
    }

    init(rankOfNode: [Int32], nodeAtRank: [Int32], arcStart: [Int32], arcs: [Arc], graphEdgeCount: Int) {
        self.rankOfNode = rankOfNode
        self.nodeAtRank = nodeAtRank
        self.arcStart = arcStart
        self.arcs = arcs
        self.graphEdgeCount = graphEdgeCount
    }

    /// The upward arcs of the node of rank `rank`, as indices into `arcs`.
    @inlinable
    public func upwardArcs(ofRank rank: Int) -> Range<Int> {
        Int(arcStart[rank])..<Int(arcStart[rank + 1])
    }

    /// The index of the arc from `lower` up to `higher` (both ranks).
    func arcIndex(from lower: Int, to higher: Int32) -> Int {
        for index in upwardArcs(ofRank: lower) where arcs[index].head == higher { return index }
        preconditionFailure("a shortcut's middle node has an arc to each of its ends")
    }

    /// Appends the edges that arc `index` (leaving the node of rank `lower`) stands for to `steps`, each
    /// with the graph node it is entered from, walked upwards (from `lower`) or downwards (towards it).
    func unpack(arc index: Int, from lower: Int, upwards: Bool, graph: StreetGraph, into steps: inout [PathStep]) {
        let arc = arcs[index]
        if let edge = arc.edge {
            let from = upwards ? nodeAtRank[lower] : nodeAtRank[Int(arc.head)]
            steps.append(PathStep(edge: edge, from: Int(from)))
            return
        }
        let middle = Int(arc.via)
        let toLower = arcIndex(from: middle, to: Int32(lower))
        let toHigher = arcIndex(from: middle, to: arc.head)
        if upwards {
            unpack(arc: toLower, from: middle, upwards: false, graph: graph, into: &steps)
            unpack(arc: toHigher, from: middle, upwards: true, graph: graph, into: &steps)
        } else {
            unpack(arc: toHigher, from: middle, upwards: false, graph: graph, into: &steps)
            unpack(arc: toLower, from: middle, upwards: true, graph: graph, into: &steps)
        }
    }
}

/// One edge of a path, with the node it is entered from.
public struct PathStep: Sendable, Hashable {
    public var edge: Int
    public var from: Int

    public init(edge: Int, from: Int) {
        self.edge = edge
        self.from = from
    }
}
