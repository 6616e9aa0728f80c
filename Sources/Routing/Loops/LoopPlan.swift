/// The planner's answer: the loops it found, best first, and why there are fewer than asked for, if so.
public struct LoopPlan: Sendable, Hashable {
    public var loops: [Loop]
    /// Set exactly when fewer loops than requested came back.
    public var shortfall: LoopShortfall?

    public init(loops: [Loop], shortfall: LoopShortfall?) {
        self.loops = loops
        self.shortfall = shortfall
    }
}

/// Why a plan holds fewer loops than asked for: a machine-readable reason and a sentence for people.
public struct LoopShortfall: Sendable, Hashable, Error {
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// The streets reachable from the start cannot hold a loop of this length without running laps.
        case networkTooSmall = "network_too_small"
        /// Some loops were found but not as many distinct ones as asked for.
        case fewerDistinctLoops = "fewer_distinct_loops"
        /// The landmark cannot be reached from the start on foot.
        case landmarkUnreachable = "landmark_unreachable"
        /// The shortest round trip start → landmark → start is longer than the distance (4.3.1.1.1).
        case landmarkTooFar = "landmark_too_far"
    }

    public var reason: Reason
    public var message: String

    public init(reason: Reason, message: String) {
        self.reason = reason
        self.message = message
    }
}
