/// The ground a walk covers: per edge, the merged fraction intervals it runs along. Measures how much of a
/// loop repeats itself (re-use) and how much two loops share (overlap), exactly, including partial edges at
/// a start in the middle of an edge.
///
/// Re-use is the length walked beyond the first traversal of each piece of ground: an out-and-back of
/// 2 km re-uses 1 km; a loop that starts mid-edge, leaves towards one end and comes back the same way
/// re-uses that stub once.
public struct LoopCoverage: Sendable, Hashable {
    /// Merged covered intervals, sorted by edge then by start.
    private var pieces: [Piece]
    /// Metres of ground covered at least once.
    public private(set) var coveredMeters: Double
    /// Metres walked in total (each traversal counted).
    public private(set) var walkedMeters: Double

    private struct Piece: Sendable, Hashable {
        var edge: Int32
        var low: Double
        var high: Double
    }

    public init(steps: [LoopStep], in graph: StreetGraph) {
        let raw = Self.sortedPieces(steps)
        var merged: [Piece] = []
        merged.reserveCapacity(raw.count)
        for piece in raw {
            if let last = merged.last, last.edge == piece.edge, piece.low <= last.high {
                merged[merged.count - 1].high = max(last.high, piece.high)
            } else {
                merged.append(piece)
            }
        }
        pieces = merged
        walkedMeters = steps.reduce(0) { $0 + $1.lengthMeters(in: graph) }
        coveredMeters = merged.reduce(0) { $0 + ($1.high - $1.low) * graph.lengthMeters(of: Int($1.edge)) }
    }

    /// The steps as pieces, sorted by edge, then start, then end. Sorting plain integer keys (edge, then
    /// position in the walk) and then the few pieces of each edge among themselves is several times faster
    /// than sorting the pieces by a tuple comparison, and gives the same order; the planner builds a coverage
    /// for every candidate it measures (`LoopPlanner.evaluate`), so this is one of its inner loops.
    private static func sortedPieces(_ steps: [LoopStep]) -> [Piece] {
        var keys = [UInt64](repeating: 0, count: steps.count)
        var largestEdge: UInt32 = 0
        for index in steps.indices {
            let edge = UInt32(steps[index].edge)
            largestEdge = max(largestEdge, edge)
            keys[index] = UInt64(edge) << 32 | UInt64(index)
        }
        sortByEdge(&keys, largestEdge: largestEdge)
        var pieces: [Piece] = []
        pieces.reserveCapacity(steps.count)
        for key in keys {
            let step = steps[Int(key & 0xFFFF_FFFF)]
            let piece = Piece(edge: Int32(step.edge), low: step.interval.lowerBound, high: step.interval.upperBound)
            // Insertion among the pieces of the same edge (rarely more than two) by start, then end.
            var index = pieces.count
            pieces.append(piece)
            while index > 0, pieces[index - 1].edge == piece.edge,
                (pieces[index - 1].low, pieces[index - 1].high) > (piece.low, piece.high)
            {
                pieces[index] = pieces[index - 1]
                index -= 1
            }
            pieces[index] = piece
        }
        return pieces
    }

    /// Sorts keys `edge << 32 | position`, given in order of position, into increasing order: a least
    /// significant digit radix sort on the edge, 8 bits a pass, which is stable and so keeps the positions
    /// of an edge in order. Two passes on a city extract, three on a graph of a million edges: several times
    /// faster than a comparison sort on a loop's steps (docs/benchmarks.md, issue 23).
    private static func sortByEdge(_ keys: inout [UInt64], largestEdge: UInt32) {
        var scratch = [UInt64](repeating: 0, count: keys.count)
        var shift: UInt64 = 32
        var remaining = largestEdge
        while remaining > 0 {
            keys.withUnsafeBufferPointer { source in
                scratch.withUnsafeMutableBufferPointer { target in
                    var starts = [Int](repeating: 0, count: 257)
                    starts.withUnsafeMutableBufferPointer { starts in
                        for key in source { starts[(Int(truncatingIfNeeded: key >> shift) & 0xFF) + 1] += 1 }
                        for digit in 1...256 { starts[digit] += starts[digit - 1] }
                        for key in source {
                            let digit = Int(truncatingIfNeeded: key >> shift) & 0xFF
                            target[starts[digit]] = key
                            starts[digit] += 1
                        }
                    }
                }
            }
            swap(&keys, &scratch)
            shift += 8
            remaining >>= 8
        }
    }

    /// Metres walked over ground already covered earlier in the same walk.
    public var reuseMeters: Double { max(0, walkedMeters - coveredMeters) }

    /// Metres of ground covered by both walks.
    public func sharedMeters(with other: LoopCoverage, in graph: StreetGraph) -> Double {
        var shared = 0.0
        var i = 0, j = 0
        while i < pieces.count && j < other.pieces.count {
            let a = pieces[i], b = other.pieces[j]
            if a.edge != b.edge {
                if a.edge < b.edge { i += 1 } else { j += 1 }
                continue
            }
            let overlap = min(a.high, b.high) - max(a.low, b.low)
            if overlap > 0 { shared += overlap * graph.lengthMeters(of: Int(a.edge)) }
            if a.high < b.high { i += 1 } else { j += 1 }
        }
        return shared
    }

    /// Metres both cover, as a share of the smaller ground of the two, 0…1.
    public func overlapShare(with other: LoopCoverage, in graph: StreetGraph) -> Double {
        let smaller = min(coveredMeters, other.coveredMeters)
        return smaller > 0 ? sharedMeters(with: other, in: graph) / smaller : 0
    }

    /// Every edge touched, each once, in increasing order.
    var edges: [Int] {
        var result: [Int] = []
        for piece in pieces where result.last != Int(piece.edge) { result.append(Int(piece.edge)) }
        return result
    }
}
