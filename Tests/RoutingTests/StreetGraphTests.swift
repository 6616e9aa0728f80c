import Geo
import Testing

@testable import Routing

@Suite struct StreetGraphTests {
    @Test func builderLaysOutBothDirectionsOfEveryEdge() {
        var builder = StreetGraphBuilder()
        let a = builder.addNode(Coordinate(latitude: 60.0, longitude: 24.0))
        let b = builder.addNode(Coordinate(latitude: 60.001, longitude: 24.0))
        let c = builder.addNode(Coordinate(latitude: 60.001, longitude: 24.002))
        let ab = builder.addEdge(from: a, to: b, attributes: .init(highway: .footway, name: "Esplanadi"))
        let bc = builder.addEdge(
            from: b, to: c, shape: [Coordinate(latitude: 60.0015, longitude: 24.001)],
            attributes: .init(highway: .residential, name: "Esplanadi", flags: .sheltered))

        let graph = builder.build()

        #expect(graph.nodeCount == 3 && graph.edgeCount == 2)
        #expect(graph.arcs(of: b).map { Int(graph.adjacencyNode[$0]) }.sorted() == [a, c])
        #expect(graph.arcs(of: a).map { Int(graph.adjacencyEdge[$0]) } == [ab])
        #expect(graph.names == ["Esplanadi"])
        #expect(graph.name(of: ab) == "Esplanadi" && graph.isSheltered(bc) && !graph.isSheltered(ab))
        #expect(abs(graph.lengthMeters(of: ab) - 111.2) < 0.5)
        #expect(graph.geometry(of: bc, from: c).count == 3)
        #expect(graph.geometry(of: bc, from: c).first == graph.coordinate(of: c))
        #expect(graph.otherEnd(of: bc, from: c) == b)
    }

    @Test func hilbertLayoutKeepsEveryEdgeAndDistanceAndPutsNeighboursNearInMemory() {
        // A 32 × 32 grid added row by row: a node's neighbour in the next row is 32 ids away.
        let side = 32
        var builder = StreetGraphBuilder()
        for row in 0..<side {
            for column in 0..<side {
                builder.addNode(Coordinate(latitude: 60 + Double(row) * 0.001, longitude: 24 + Double(column) * 0.002))
            }
        }
        for row in 0..<side {
            for column in 0..<side {
                let node = row * side + column
                if column + 1 < side {
                    builder.addEdge(
                        from: node, to: node + 1,
                        attributes: .init(highway: .residential, name: "Katu \(row)", wayID: Int64(row + 1)))
                }
                if row + 1 < side {
                    let bend = Coordinate(
                        latitude: 60 + (Double(row) + 0.5) * 0.001, longitude: 24 + Double(column) * 0.002 + 0.0003)
                    builder.addEdge(
                        from: node, to: node + side, shape: [bend],
                        attributes: .init(highway: .footway, flags: column % 5 == 0 ? .sheltered : []))
                }
            }
        }

        let asAdded = builder.build()
        let laidOut = builder.build(layout: .hilbertCurve)

        func edges(_ graph: StreetGraph) -> [String] {
            (0..<graph.edgeCount).map { edge in
                "\(graph.geometry(of: edge, from: Int(graph.edgeSource[edge]))) \(graph.edgeLengthMeters[edge]) "
                    + "\(graph.name(of: edge) ?? "-") \(graph.edgeHighway[edge]) \(graph.edgeFlags[edge].rawValue) "
                    + "\(graph.edgeWayID[edge])"
            }.sorted()
        }
        #expect(edges(laidOut) == edges(asAdded))
        let arcsMatchTheirEdges = (0..<laidOut.nodeCount).allSatisfy { node in
            laidOut.arcs(of: node).allSatisfy {
                laidOut.otherEnd(of: Int(laidOut.adjacencyEdge[$0]), from: node) == Int(laidOut.adjacencyNode[$0])
            }
        }
        #expect(arcsMatchTheirEdges && laidOut.adjacencyNode.count == 2 * laidOut.edgeCount)
        func costsByPlace(_ graph: StreetGraph) -> [String: Double] {
            let corner = (0..<graph.nodeCount).first {
                graph.coordinate(of: $0) == Coordinate(latitude: 60, longitude: 24)
            }!
            var search = DijkstraSearch(graph: graph)
            search.run(from: [.init(node: corner)])
            return Dictionary(
                uniqueKeysWithValues: (0..<graph.nodeCount).map { ("\(graph.coordinate(of: $0))", search.cost(to: $0)) }
            )
        }
        #expect(costsByPlace(laidOut) == costsByPlace(asAdded))
        #expect(asAdded.arcGap(atShare: 0.75) == side)
        #expect(laidOut.arcGap(atShare: 0.75) < side / 4)
    }

    @Test func syntheticCityIsConnectedDeterministicAndNearItsTargetSize() {
        let graph = SyntheticCity(targetNodeCount: 10_000, seed: 7).generate()
        let again = SyntheticCity(targetNodeCount: 10_000, seed: 7).generate()

        #expect(abs(graph.nodeCount - 10_000) < 600)
        #expect(graph.edgeLengthMeters == again.edgeLengthMeters)
        var seen = [Bool](repeating: false, count: graph.nodeCount)
        var stack = [0]
        seen[0] = true
        while let node = stack.popLast() {
            for arc in graph.arcs(of: node) where !seen[Int(graph.adjacencyNode[arc])] {
                seen[Int(graph.adjacencyNode[arc])] = true
                stack.append(Int(graph.adjacencyNode[arc]))
            }
        }
        #expect(seen.allSatisfy { $0 })
        let shelteredShare = Double(graph.edgeFlags.filter { $0.contains(.sheltered) }.count) / Double(graph.edgeCount)
        #expect(shelteredShare > 0.02 && shelteredShare < 0.2)
        #expect(graph.degree(of: 0) >= 1)
    }
}

@Suite struct DijkstraSearchTests {
    @Test func findsTheShorterOfTwoWaysAndItsEdges() {
        // a —100— b —100— d, and a —150— c —150— d
        var builder = StreetGraphBuilder()
        let a = builder.addNode(Coordinate(latitude: 0, longitude: 0))
        let b = builder.addNode(Coordinate(latitude: 0, longitude: 0.001))
        let c = builder.addNode(Coordinate(latitude: 0.001, longitude: 0))
        let d = builder.addNode(Coordinate(latitude: 0.001, longitude: 0.001))
        let ab = builder.addEdge(from: a, to: b, lengthMeters: 100, attributes: .init(highway: .footway))
        let bd = builder.addEdge(from: b, to: d, lengthMeters: 100, attributes: .init(highway: .footway))
        builder.addEdge(from: a, to: c, lengthMeters: 150, attributes: .init(highway: .footway))
        builder.addEdge(from: c, to: d, lengthMeters: 150, attributes: .init(highway: .footway))
        var search = DijkstraSearch(graph: builder.build())

        search.run(from: [.init(node: a)])

        #expect(search.cost(to: d) == 200)
        #expect(search.path(to: d)?.map(\.edge) == [ab, bd])
        #expect(search.path(to: d)?.map(\.from) == [a, b])
    }

    @Test func boundedRunLeavesFarNodesUnreachedAndReusesBuffers() {
        let graph = SyntheticCity(targetNodeCount: 2_000, seed: 3).generate()
        var search = DijkstraSearch(graph: graph)

        search.run(from: [.init(node: 0)], maxCost: 300)
        let reachedNear = (0..<graph.nodeCount).filter { search.cost(to: $0) <= 300 }.count
        search.run(from: [.init(node: 0)])
        let reachedAll = (0..<graph.nodeCount).filter { search.cost(to: $0) < .infinity }.count

        #expect(reachedNear > 1 && reachedNear < graph.nodeCount / 4)
        #expect(reachedAll == graph.nodeCount)
    }

    @Test func penalisedRunsStillReportTrueLengthsAndSettleInCostOrder() {
        let graph = SyntheticCity(targetNodeCount: 2_000, seed: 4).generate()
        var search = DijkstraSearch(graph: graph)
        let costs = graph.edgeLengthMeters.indices.map { graph.edgeLengthMeters[$0] * Float(1 + $0 % 3) }

        search.run(from: [.init(node: 5, initialCost: 7, initialLengthMeters: 3)], maxCost: 2_000, edgeCost: costs)

        let settled = search.settledNodes.map(Int.init)
        #expect(settled.count > 10 && settled.allSatisfy { search.isSettled($0) })
        #expect(zip(settled, settled.dropFirst()).allSatisfy { search.cost(to: $0) <= search.cost(to: $1) })
        for node in settled.prefix(200) {
            let path = search.path(to: node)!
            let length = 3 + path.reduce(0) { $0 + graph.lengthMeters(of: $1.edge) }
            let cost = 7 + path.reduce(0) { $0 + Double(costs[$1.edge]) }
            #expect(abs(search.lengthMeters(to: node) - length) < 1e-6)
            #expect(abs(search.cost(to: node) - cost) < 1e-3)
        }
    }

    @Test func updateAfterRaisingCostsEqualsAFreshRun() {
        let graph = SyntheticCity(targetNodeCount: 4_000, seed: 6).generate()
        var costs = graph.edgeLengthMeters
        let sources: [DijkstraSearch.Source] = [.init(node: 40, initialCost: 5), .init(node: 41, initialCost: 9)]
        var updated = DijkstraSearch(graph: graph)
        var fresh = DijkstraSearch(graph: graph)
        updated.run(from: sources, maxCost: 1_500, edgeCost: costs)
        let raised =
            Array(updated.path(to: Int(updated.settledNodes[300]))!.map(\.edge).dropFirst(2))
            + (0..<graph.edgeCount).filter { $0 % 7 == 0 }
        for edge in raised { costs[edge] *= 2.5 }

        let settledAgain = updated.update(raisedEdges: raised, maxCost: 1_500, edgeCost: costs)
        fresh.run(from: sources, maxCost: 1_500, edgeCost: costs)

        let order = updated.settledNodes.map(Int.init)
        #expect(settledAgain > 0 && settledAgain < fresh.settledNodes.count)
        #expect(Set(order) == Set(fresh.settledNodes.map(Int.init)))
        #expect(order.allSatisfy { abs(updated.cost(to: $0) - fresh.cost(to: $0)) < 1e-6 })
        #expect(order.allSatisfy { abs(updated.lengthMeters(to: $0) - fresh.lengthMeters(to: $0)) < 1e-3 })
        #expect(zip(order, order.dropFirst()).allSatisfy { updated.cost(to: $0) <= updated.cost(to: $1) })
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        #expect(
            order.allSatisfy { node in
                updated.predecessor(of: node).map { position[$0.node]! < position[node]! } ?? true
            })
    }

    @Test func runWithinARegionSettlesOnlyItsNodesAlongPathsInsideIt() {
        let graph = SyntheticCity(targetNodeCount: 4_000, seed: 7).generate()
        var region = DijkstraSearch(graph: graph)
        var search = DijkstraSearch(graph: graph)
        region.run(from: [.init(node: 0)], maxCost: 800)
        let start = Int(region.settledNodes[region.settledNodes.count / 2])

        search.run(from: [.init(node: start)], maxCost: 2_000, within: region)

        let settled = search.settledNodes.map(Int.init)
        #expect(settled.count > 10 && settled.allSatisfy { region.isSettled($0) })
        #expect(settled.allSatisfy { node in search.path(to: node)!.allSatisfy { region.isSettled($0.from) } })
    }
}

extension StreetGraph {
    /// The gap in ids between the two ends of an arc that this share of arcs does not exceed: how far apart in
    /// memory a search finds the nodes it reaches from one node.
    func arcGap(atShare share: Double) -> Int {
        var gaps: [Int] = []
        for node in 0..<nodeCount {
            for arc in arcs(of: node) { gaps.append(abs(Int(adjacencyNode[arc]) - node)) }
        }
        gaps.sort()
        return gaps[min(gaps.count - 1, Int(Double(gaps.count) * share))]
    }
}
