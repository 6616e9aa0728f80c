import Foundation

/// How full a lot is (seed 3.1–3.2): spots taken (occupied, or held for a driver) over spots whose status is
/// known. Unknown and closed spots are left out of both counts and reported on their own.
public struct Occupancy: Codable, Sendable, Equatable {
    public var taken: Int
    public var total: Int
    public var unknown: Int
    public var closed: Int

    public init(taken: Int, total: Int, unknown: Int = 0, closed: Int = 0) {
        self.taken = taken
        self.total = total
        self.unknown = unknown
        self.closed = closed
    }

    /// Counts the spots: `held` says whether a free spot is held by a driver (it counts as taken).
    public init(statuses: some Sequence<(status: SpotStatus, held: Bool)>) {
        var taken = 0
        var total = 0
        var unknown = 0
        var closed = 0
        for (status, held) in statuses {
            switch status {
            case .unknown: unknown += 1
            case .closed: closed += 1
            case .occupied:
                taken += 1
                total += 1
            case .free:
                if held { taken += 1 }
                total += 1
            }
        }
        self.init(taken: taken, total: total, unknown: unknown, closed: closed)
    }

    /// taken ÷ total, nil when no spot's status is known.
    public var fraction: Double? { total > 0 ? Double(taken) / Double(total) : nil }

    /// The congestion colour; `.unknown` when no spot's status is known.
    public var level: CongestionLevel { CongestionLevel(fraction: fraction) }
}

/// The congestion colour of a lot pin (seed 3.2.1): green below 65 %, yellow from 65 % to below 85 %, red from
/// 85 %.
public enum CongestionLevel: String, Codable, Sendable, CaseIterable {
    case green
    case yellow
    case red
    case unknown

    public static let yellowFrom = 0.65
    public static let redFrom = 0.85

    public init(fraction: Double?) {
        guard let fraction else {
            self = .unknown
            return
        }
        self = fraction >= Self.redFrom ? .red : fraction >= Self.yellowFrom ? .yellow : .green
    }
}
