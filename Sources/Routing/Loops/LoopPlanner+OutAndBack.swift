import Foundation

extension LoopPlanner {
    /// Up to `limit` out-and-backs of the distance, cheapest per metre first and spread over headings: the
    /// way out is a path of one search tree from the start (on the current costs, so edges of routes already
    /// planned cost more), cut where its length reaches half the distance — at a node when one lies within
    /// the aim, else in the middle of the edge that crosses it. Through a landmark, the way out runs through
    /// it (`prefixToVia`) and goes on from there.
    mutating func outAndBacks(limit: Int, context: inout PlanContext) -> [[LoopStep]] {
        let half = context.distanceMeters / 2
        var prefix: [LoopStep] = []
        var prefixLength = 0.0
        var excluded = Set<Int>()
        var sources = startSources(context, keptExits: [])
        if let via = context.request.via {
            guard let draft = prefixToVia(via, context) else { return [] }
            prefix = draft.steps(anchor: context.anchor, in: graph)
            prefixLength = prefix.reduce(0) { $0 + $1.lengthMeters(in: graph) }
            guard prefixLength <= half, let end = draft.nodes.last else { return [] }
            excluded = Set(prefix.map(\.edge))
            sources = [DijkstraSearch.Source(node: Int(end))]
        }
        let wanted = half - prefixLength
        let bound = wanted * max(1, tuning.earlierLoopPenalty)
        for edge in excluded { cost[edge] = penalisedCost(edge, inRest: true) }
        defer { for edge in excluded { cost[edge] = penalisedCost(edge, inRest: false) } }
        outward.run(from: sources, maxCost: bound, edgeCost: cost)
        settledCount += outward.settledNodes.count

        struct Turn {
            var node: Int
            /// The edge walked on from `node` before turning, and how far along it; nil to turn at `node`.
            var edge: Int?
            var alongMeters: Double
            var score: Double
            var heading: Double
        }
        let aim = tuning.aimShare * context.distanceMeters
        var turns: [Turn] = []
        for node32 in outward.settledNodes {
            let node = Int(node32)
            let length = outward.lengthMeters(to: node)
            guard length < wanted + aim / 2 else { continue }
            let parentEdge = outward.predecessor(of: node)?.edge
            let reachCost = outward.cost(to: node)
            if abs(length - wanted) <= aim / 2, length > 0 {
                turns.append(
                    Turn(
                        node: node, edge: nil, alongMeters: 0, score: reachCost / length,
                        heading: context.heading(to: graph.coordinate(of: node))))
                continue
            }
            guard length < wanted else { continue }
            for arc in graph.arcs(of: node) {
                let edge = Int(graph.adjacencyEdge[arc])
                let edgeLength = graph.lengthMeters(of: edge)
                guard edge != parentEdge, edge != context.anchor.edge, !excluded.contains(edge),
                    graph.edgeSource[edge] != graph.edgeTarget[edge], length + edgeLength > wanted
                else { continue }
                let along = wanted - length
                let total = reachCost + along * Double(cost[edge]) / max(edgeLength, 1e-9)
                // Turning in the middle of a street is fine but a junction or a street's end is nicer.
                turns.append(
                    Turn(
                        node: node, edge: edge, alongMeters: along, score: total / wanted + 0.05,
                        heading: context.heading(to: graph.coordinate(of: node))))
            }
        }
        turns.sort { $0.score < $1.score || ($0.score == $1.score && $0.node < $1.node) }
        var routes: [[LoopStep]] = []
        if prefix.isEmpty { routes += alongStartEdge(wanted: wanted, context) }
        if turns.isEmpty && routes.isEmpty {
            return branchedOutAndBack(wanted: wanted, prefix: prefix, &context).map { [$0] } ?? []
        }

        // Spread over headings: the best turn first, then the best at least 60° from every one taken, and so
        // on; what is left fills up in order of score.
        var chosen: [Turn] = []
        for turn in turns where chosen.count < limit {
            if chosen.allSatisfy({ angle($0.heading, turn.heading) >= 60 }) { chosen.append(turn) }
        }
        for turn in turns where chosen.count < 3 * limit {
            if !chosen.contains(where: { $0.node == turn.node && $0.edge == turn.edge }) { chosen.append(turn) }
        }

        return routes
            + chosen.compactMap { turn -> [LoopStep]? in
                guard let path = outward.path(to: turn.node) else { return nil }
                var out = prefix
                if prefix.isEmpty {
                    let root = path.first?.from ?? turn.node
                    let exit = context.anchor.exit(at: root) { stubCost($0, context, keptExits: []) }
                    if let stub = context.anchor.exits[exit].stub { out.append(stub) }
                }
                for step in path { out.append(LoopStep(edge: step.edge, from: step.from, in: graph)) }
                if let edge = turn.edge {
                    let fraction = turn.alongMeters / graph.lengthMeters(of: edge)
                    let forward = Int(graph.edgeSource[edge]) == turn.node
                    out.append(
                        LoopStep(
                            edge: edge, fromFraction: forward ? 0 : 1, toFraction: forward ? fraction : 1 - fraction))
                }
                return out + out.reversed().map(\.reversed)
            }
    }

    /// Where no way runs on for half the distance (the far corner of a small network), out and back along
    /// several branches of the search tree in `outward`: the tree's long-path decomposition (Dijkstra's tree
    /// split into its longest root-to-leaf path, then the longest paths hanging off it, and so on) taken
    /// longest first until the ground is half the distance, the last branch cut to fit, then walked depth
    /// first so that every metre is run twice, out and back. Nil when the whole tree holds less ground; its
    /// ground is then kept in `context.groundMeters` for the shortfall's message.
    private func branchedOutAndBack(wanted: Double, prefix: [LoopStep], _ context: inout PlanContext) -> [LoopStep]? {
        let order = outward.settledNodes
        var height = [Double](repeating: 0, count: order.count)
        var position: [Int32: Int] = [:]
        for (index, node) in order.enumerated() { position[node] = index }
        var longChild = [Int](repeating: -1, count: order.count)
        var parent = [Int](repeating: -1, count: order.count)
        var edgeTo = [Int](repeating: -1, count: order.count)
        for (index, node) in order.enumerated() {
            guard let step = outward.predecessor(of: Int(node)), let up = position[Int32(step.node)] else { continue }
            parent[index] = up
            edgeTo[index] = step.edge
        }
        for index in order.indices.reversed() where parent[index] >= 0 {
            let reach = height[index] + graph.lengthMeters(of: edgeTo[index])
            if reach > height[parent[index]] {
                height[parent[index]] = reach
                longChild[parent[index]] = index
            }
        }
        // Path heads: roots, and every node that is not its parent's long child; a path runs down long children.
        var heads = order.indices.filter { parent[$0] < 0 || longChild[parent[$0]] != $0 }
        func pathLength(_ head: Int) -> Double {
            height[head] + (parent[head] >= 0 ? graph.lengthMeters(of: edgeTo[head]) : 0)
        }
        heads.sort { pathLength($0) > pathLength($1) || (pathLength($0) == pathLength($1) && $0 < $1) }
        let total = heads.reduce(0) { $0 + pathLength($1) }
        guard total >= wanted, wanted > 0 else {
            if prefix.isEmpty { context.groundMeters = total }
            return nil
        }

        // The chosen ground: whole tree edges (by child index), and the one edge cut short at the end.
        // A root's own way from the start point (the stub of a mid-edge start) is run too, once it is used.
        var root = [Int](order.indices)
        for index in order.indices where parent[index] >= 0 { root[index] = root[parent[index]] }
        var usedRoots = Set<Int>()
        var chosen = Set<Int>()
        var cut: (child: Int, meters: Double)?
        var ground = 0.0
        for head in heads where ground < wanted {
            var index = head
            if parent[index] < 0 { index = longChild[index] }
            if index >= 0, usedRoots.insert(root[index]).inserted {
                ground += outward.lengthMeters(to: Int(order[root[index]]))
            }
            while index >= 0 && ground < wanted {
                let length = graph.lengthMeters(of: edgeTo[index])
                if ground + length <= wanted {
                    chosen.insert(index)
                    ground += length
                } else {
                    cut = (index, wanted - ground)
                    ground = wanted
                }
                index = longChild[index]
            }
        }

        // Depth first from each root, children in settling order.
        var children = [[Int]](repeating: [], count: order.count)
        for index in order.indices where parent[index] >= 0 && (chosen.contains(index) || cut?.child == index) {
            children[parent[index]].append(index)
        }
        var steps = prefix
        for root in order.indices where parent[root] < 0 && !children[root].isEmpty {
            var out: [LoopStep] = []
            if prefix.isEmpty, let exit = context.anchor.exits.firstIndex(where: { $0.node == Int(order[root]) }),
                let stub = context.anchor.exits[exit].stub
            {
                out.append(stub)
            }
            steps += out
            var stack: [(index: Int, next: Int)] = [(root, 0)]
            while let top = stack.last {
                if top.next < children[top.index].count {
                    stack[stack.count - 1].next += 1
                    let child = children[top.index][top.next]
                    let edge = edgeTo[child]
                    if let cut, cut.child == child {
                        let from = Int(order[top.index])
                        let forward = Int(graph.edgeSource[edge]) == from
                        let fraction = cut.meters / graph.lengthMeters(of: edge)
                        let step = LoopStep(
                            edge: edge, fromFraction: forward ? 0 : 1, toFraction: forward ? fraction : 1 - fraction)
                        steps += [step, step.reversed]
                    } else {
                        steps.append(LoopStep(edge: edge, from: Int(order[top.index]), in: graph))
                        stack.append((child, 0))
                    }
                } else {
                    stack.removeLast()
                    if let below = stack.last {
                        steps.append(
                            LoopStep(edge: edgeTo[top.index], from: Int(order[below.index]), in: graph).reversed)
                    }
                }
            }
            steps += out.reversed().map(\.reversed)
        }
        steps += prefix.reversed().map(\.reversed)
        return steps
    }

    /// Out-and-backs that never leave the start's own edge, where it runs on for half the distance either way
    /// (a start in the middle of a long path along a shore).
    private func alongStartEdge(wanted: Double, _ context: PlanContext) -> [[LoopStep]] {
        guard let edge = context.anchor.edge else { return [] }
        let length = graph.lengthMeters(of: edge)
        return context.anchor.exits.compactMap { exit -> [LoopStep]? in
            guard let stub = exit.stub, exit.lengthMeters >= wanted else { return nil }
            let direction = stub.toFraction > stub.fromFraction ? 1.0 : -1.0
            let turn = stub.fromFraction + direction * wanted / length
            let out = LoopStep(edge: edge, fromFraction: stub.fromFraction, toFraction: turn)
            return [out, out.reversed]
        }
    }

    private func angle(_ a: Double, _ b: Double) -> Double {
        let turn = abs(a - b).truncatingRemainder(dividingBy: 360)
        return turn > 180 ? 360 - turn : turn
    }
}
