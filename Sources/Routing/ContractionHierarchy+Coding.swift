import Foundation

/// The stored form of a contraction hierarchy, meant as one section of a graph snapshot:
///
/// ```
/// magic "CCH1" (4 bytes) · graph node count (UInt64) · graph edge count (UInt64)
/// nodeAtRank [Int32] · arcStart [Int32] · arcHead [Int32] · arcVia [Int32] · arcWeight [Float64]
/// ```
///
/// Each array is a UInt64 element count followed by its elements, all little-endian (`CompactArrayWriter`).
/// Loading checks every index, so a corrupt section is an error, never a crash or a wrong route.
extension ContractionHierarchy {
    private static let magic: [UInt8] = Array("CCH1".utf8)

    /// Appends the stored form to `data`.
    public func encode(into data: inout Data) {
        var writer = CompactArrayWriter(appendingTo: &data)
        for byte in Self.magic { writer.append(byte) }
        writer.append(UInt64(nodeCount))
        writer.append(UInt64(graphEdgeCount))
        writer.append(nodeAtRank)
        writer.append(arcStart)
        writer.append(arcs.map(\.head))
        writer.append(arcs.map(\.via))
        writer.append(arcs.map(\.weight))
        data = writer.data
    }

    /// Reads a hierarchy stored by `encode(into:)` for `graph`.
    public init(decoding data: Data, for graph: StreetGraph) throws {
        var reader = CompactArrayReader(data)
        for byte in Self.magic where try reader.read(UInt8.self) != byte {
            throw CompactArrayError.wrongFormat("a contraction hierarchy")
        }
        let nodeCount = try reader.read(UInt64.self), edgeCount = try reader.read(UInt64.self)
        guard nodeCount == graph.nodeCount, edgeCount == graph.edgeCount else {
            throw CompactArrayError.inconsistent(
                "the hierarchy is for \(nodeCount) nodes and \(edgeCount) edges, the graph has "
                    + "\(graph.nodeCount) and \(graph.edgeCount)")
        }
        let nodeAtRank = try reader.readArray(Int32.self)
        let arcStart = try reader.readArray(Int32.self)
        let heads = try reader.readArray(Int32.self)
        let vias = try reader.readArray(Int32.self)
        let weights = try reader.readDoubles()
        guard reader.isAtEnd else { throw CompactArrayError.inconsistent("bytes follow the hierarchy") }

        let n = graph.nodeCount
        guard nodeAtRank.count == n, arcStart.count == n + 1, arcStart.first == 0, arcStart.last == Int32(heads.count),
            vias.count == heads.count, weights.count == heads.count
        else { throw CompactArrayError.inconsistent("array lengths do not match") }
        var rankOfNode = [Int32](repeating: -1, count: n)
        for (rank, node) in nodeAtRank.enumerated() {
            guard node >= 0, node < n, rankOfNode[Int(node)] < 0 else {
                throw CompactArrayError.inconsistent("the node order is not a permutation")
            }
            rankOfNode[Int(node)] = Int32(rank)
        }
        let arcs = (0..<heads.count).map { Arc(head: heads[$0], via: vias[$0], weight: weights[$0]) }
        self.init(
            rankOfNode: rankOfNode, nodeAtRank: nodeAtRank, arcStart: arcStart, arcs: arcs,
            graphEdgeCount: graph.edgeCount)
        try validateArcs(of: graph)
    }

    /// Checks that every arc climbs, stands for an edge between its ends or a shortcut whose middle node
    /// has arcs to both ends, and has a usable weight.
    private func validateArcs(of graph: StreetGraph) throws {
        for rank in 0..<nodeCount {
            guard arcStart[rank] <= arcStart[rank + 1] else {
                throw CompactArrayError.inconsistent("arc ranges overlap")
            }
            for index in upwardArcs(ofRank: rank) {
                let arc = arcs[index]
                guard arc.head > rank, arc.head < nodeCount, arc.weight >= 0, arc.weight.isFinite else {
                    throw CompactArrayError.inconsistent("arc \(index) does not lead upwards")
                }
                if let edge = arc.edge {
                    let lower = nodeAtRank[rank], higher = nodeAtRank[Int(arc.head)]
                    guard edge < graph.edgeCount,
                        graph.edgeSource[edge] == lower && graph.edgeTarget[edge] == higher
                            || graph.edgeSource[edge] == higher && graph.edgeTarget[edge] == lower
                    else { throw CompactArrayError.inconsistent("arc \(index) names an edge elsewhere") }
                } else {
                    let middle = Int(arc.via)
                    guard middle < rank, upwardArcs(ofRank: middle).contains(where: { arcs[$0].head == rank }),
                        upwardArcs(ofRank: middle).contains(where: { arcs[$0].head == arc.head })
                    else { throw CompactArrayError.inconsistent("shortcut \(index) has no middle node") }
                }
            }
        }
    }
}
