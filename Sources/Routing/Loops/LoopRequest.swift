/// What a runner asks the loop planner for.
public struct LoopRequest: Sendable, Hashable {
    /// Where the loops start and end: the snapped start (usually mid-edge) or a node.
    public var start: NetworkPoint
    /// The wanted length of each loop, metres.
    public var distanceMeters: Double
    /// A landmark every loop must pass through.
    public var via: NetworkPoint?
    /// Shelter-optimised: prefer covered ways (arcades, passages, tunnels) to maximise the sheltered share.
    public var sheltered: Bool
    /// Same seed, same graph, same request: same loops.
    public var seed: UInt64
    /// How many distinct loops to plan.
    public var count: Int

    /// Distances the run planner offers (run-route-planner 4.2.1: 1–30 km).
    public static let supportedDistanceMeters: ClosedRange<Double> = 1_000...30_000
    /// Every returned loop is within this many metres of the asked distance (run-route-planner 5.3).
    public static let toleranceMeters: Double = 500
    /// How many loops one request may ask for.
    public static let supportedCount: ClosedRange<Int> = 1...10

    public init(
        start: NetworkPoint, distanceMeters: Double, via: NetworkPoint? = nil, sheltered: Bool = false,
        seed: UInt64 = 0, count: Int = 3
    ) {
        self.start = start
        self.distanceMeters = distanceMeters
        self.via = via
        self.sheltered = sheltered
        self.seed = seed
        self.count = count
    }
}

/// A request the planner cannot work on at all; each case names the field at fault.
public enum LoopRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    case distanceOutOfRange(Double)
    case countOutOfRange(Int)
    case startNotOnGraph
    case viaNotOnGraph

    /// The request field this error is about, as the API names it.
    public var field: String {
        switch self {
        case .distanceOutOfRange: "distance_km"
        case .countOutOfRange: "count"
        case .startNotOnGraph: "start"
        case .viaNotOnGraph: "landmark"
        }
    }

    public var description: String {
        switch self {
        case .distanceOutOfRange: "Enter a number between 1 and 30"
        case .countOutOfRange(let count): "cannot plan \(count) loops; ask for 1 to 10"
        case .startNotOnGraph: "the start is not a point of the street network"
        case .viaNotOnGraph: "the landmark is not a point of the street network"
        }
    }
}
