import Foundation

/// One stored congestion snapshot of a lot: the start of its half-hour block and the fraction taken then.
public struct OccupancySample: Sendable, Equatable {
    public var at: Date
    public var fraction: Double

    public init(at: Date, fraction: Double) {
        self.at = at
        self.fraction = fraction
    }
}

/// Typical occupancy (seed 3.4.2): for a weekday and each of its 48 half-hour blocks, the mean of the snapshots
/// of that block on the last four same weekdays (today counts only for blocks already past).
public enum TypicalOccupancy {
    /// How many past same weekdays are averaged.
    public static let weeks = 4

    /// One block's figure: the mean and how many snapshots it is made of (0: no data, `mean` nil).
    public struct Block: Sendable, Equatable {
        public var startMinute: Int
        public var mean: Double?
        public var samples: Int
    }

    /// The 48 blocks of ISO weekday `weekday` as of `now`, from `samples` (any order; others are ignored).
    public static func blocks(
        weekday: Int, samples: [OccupancySample], now: Date, clock: CampusClock
    ) -> [Block] {
        // The last `weeks` days with this weekday whose block has started by now.
        var days: [Date] = []
        var day = clock.startOfDay(now)
        while clock.weekday(of: day) != weekday { day = clock.adding(days: -1, to: day) }
        for _ in 0..<(weeks + 1) {
            days.append(day)
            day = clock.adding(days: -7, to: day)
        }
        var sums = [Double](repeating: 0, count: 48)
        var counts = [Int](repeating: 0, count: 48)
        var perBlockDays = [[Date]](repeating: [], count: 48)
        let currentBlock = clock.blockStart(of: now)
        for block in 0..<48 {
            let starts = days.map { clock.moment(on: $0, minute: block * 30) }.filter { $0 <= currentBlock }
            perBlockDays[block] = Array(starts.prefix(weeks))
        }
        var wanted: [Date: Int] = [:]
        for (block, starts) in perBlockDays.enumerated() {
            for start in starts { wanted[start] = block }
        }
        for sample in samples {
            guard let block = wanted[sample.at] else { continue }
            sums[block] += sample.fraction
            counts[block] += 1
        }
        return (0..<48).map { block in
            Block(
                startMinute: block * 30, mean: counts[block] > 0 ? sums[block] / Double(counts[block]) : nil,
                samples: counts[block])
        }
    }

    /// The earliest snapshot moment `blocks` may read for `now`: older snapshots are never used again and may be
    /// pruned.
    public static func oldestNeeded(now: Date, clock: CampusClock) -> Date {
        clock.adding(days: -(7 * weeks + 1), to: clock.startOfDay(now))
    }
}
