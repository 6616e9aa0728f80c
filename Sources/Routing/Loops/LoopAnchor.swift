import Geo

/// The start point as the planner sees it: the ways out of it. A start at a node has one exit, the node
/// itself; a start in the middle of an edge has two, one towards each end, each with its stub of edge.
struct LoopAnchor: Sendable {
    struct Exit: Sendable {
        var node: Int
        /// The piece of edge from the start point to `node`; nil for a start at a node.
        var stub: LoopStep?
        var lengthMeters: Double
    }

    var exits: [Exit]
    /// The edge the start lies inside, when it does.
    var edge: Int?
    var coordinate: Coordinate

    init(_ point: NetworkPoint, in graph: StreetGraph) {
        coordinate = point.coordinate(in: graph)
        switch point {
        case .node(let node):
            exits = [Exit(node: node, stub: nil, lengthMeters: 0)]
            edge = nil
        case .position(let position) where position.fraction <= 0 || position.fraction >= 1:
            let node = Int(position.fraction <= 0 ? graph.edgeSource[position.edge] : graph.edgeTarget[position.edge])
            exits = [Exit(node: node, stub: nil, lengthMeters: 0)]
            edge = nil
            coordinate = graph.coordinate(of: node)
        case .position(let position):
            let length = graph.lengthMeters(of: position.edge)
            let f = position.fraction
            exits = [
                Exit(
                    node: Int(graph.edgeSource[position.edge]),
                    stub: LoopStep(edge: position.edge, fromFraction: f, toFraction: 0), lengthMeters: f * length),
                Exit(
                    node: Int(graph.edgeTarget[position.edge]),
                    stub: LoopStep(edge: position.edge, fromFraction: f, toFraction: 1),
                    lengthMeters: (1 - f) * length),
            ]
            edge = position.edge
        }
    }

    /// The exit a search tree rooted at `node` left by: of the exits at that node, the one with the
    /// cheaper stub (both ends of a start edge that is itself a loop are the same node).
    func exit(at node: Int, stubCost: (Int) -> Double) -> Int {
        let candidates = exits.indices.filter { exits[$0].node == node }
        return candidates.min { stubCost($0) < stubCost($1) } ?? 0
    }
}

/// A loop under construction: the exit it leaves the start by, the nodes it passes, the edges between
/// them, and the exit it comes back by once closed.
struct LoopDraft: Sendable {
    var firstExit: Int
    /// nil while the draft is an open path from the start.
    var lastExit: Int?
    /// `nodes[0]` is the first exit's node; `edges[k]` joins `nodes[k]` and `nodes[k + 1]`.
    var nodes: [Int32]
    var edges: [Int32]

    var isClosed: Bool { lastExit != nil }

    /// The walk as pieces of edge, from the start point (and back to it when closed).
    func steps(anchor: LoopAnchor, in graph: StreetGraph) -> [LoopStep] {
        var steps: [LoopStep] = []
        steps.reserveCapacity(edges.count + 2)
        if let stub = anchor.exits[firstExit].stub { steps.append(stub) }
        for k in edges.indices {
            steps.append(LoopStep(edge: Int(edges[k]), from: Int(nodes[k]), in: graph))
        }
        if let lastExit, let stub = anchor.exits[lastExit].stub { steps.append(stub.reversed) }
        return steps
    }

    /// Metres of the part before node position `index` (the first stub and `edges[0..<index]`).
    func headLengthMeters(through index: Int, anchor: LoopAnchor, in graph: StreetGraph) -> Double {
        guard index >= 0 else { return 0 }
        var total = anchor.exits[firstExit].lengthMeters
        for k in 0..<index { total += graph.lengthMeters(of: Int(edges[k])) }
        return total
    }

    /// Metres of the part after node position `index` (`edges[index...]` and the last stub).
    func tailLengthMeters(from index: Int, anchor: LoopAnchor, in graph: StreetGraph) -> Double {
        guard index < nodes.count, let lastExit else { return 0 }
        var total = anchor.exits[lastExit].lengthMeters
        for k in index..<edges.count { total += graph.lengthMeters(of: Int(edges[k])) }
        return total
    }
}
