import Routing

/// A 64-bit hash (FNV-1a over words) of every route the loop benchmark planned, step by step (the edge, by the
/// coordinates of its ends and its length, and both fractions, bit for bit), with each plan's loop count: a change
/// meant to save time only can be shown to plan the same loops, even one that numbers the graph's edges anew.
public struct RouteDigest: Sendable, Hashable, CustomStringConvertible {
    public private(set) var value: UInt64 = 14_695_981_039_346_656_037

    public init() {}

    /// Adds a plan's loops (none when it failed) on `graph`.
    public mutating func add(_ plan: LoopPlan?, on graph: StreetGraph) {
        for loop in plan?.loops ?? [] {
            for step in loop.steps {
                let source = Int(graph.edgeSource[step.edge]), target = Int(graph.edgeTarget[step.edge])
                for word in [
                    graph.latitudes[source], graph.longitudes[source], graph.latitudes[target],
                    graph.longitudes[target], graph.lengthMeters(of: step.edge), step.fromFraction, step.toFraction,
                ] {
                    mix(word.bitPattern)
                }
            }
            mix(.max)
        }
        mix(UInt64(plan?.loops.count ?? 0))
    }

    private mutating func mix(_ word: UInt64) {
        value = (value ^ word) &* 1_099_511_628_211
    }

    public var description: String {
        "Routes digest: \(String(value, radix: 16)) (every plan's routes, bit for bit; the same digest means the same loops)"
    }
}
