import Foundation

/// Measurements of one quantity (milliseconds, metres, ratios…) with the order statistics the benchmark
/// tables quote.
public struct Sample: Sendable {
    public private(set) var values: [Double]

    public init(_ values: [Double] = []) { self.values = values }

    public mutating func append(_ value: Double) { values.append(value) }

    public var count: Int { values.count }

    /// The `p`-th percentile (0…100), linearly interpolated between closest ranks; nil when empty.
    public func percentile(_ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = min(max(p, 0), 100) / 100 * Double(sorted.count - 1)
        let lower = Int(rank.rounded(.down)), upper = Int(rank.rounded(.up))
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (rank - Double(lower))
    }

    public var median: Double? { percentile(50) }
    public var p95: Double? { percentile(95) }
    public var mean: Double? { values.isEmpty ? nil : values.reduce(0, +) / Double(values.count) }

    /// The share of values for which `predicate` holds, 0…1.
    public func fraction(where predicate: (Double) -> Bool) -> Double {
        values.isEmpty ? 0 : Double(values.filter(predicate).count) / Double(values.count)
    }
}

/// Wall-clock timing and memory readings for benchmarks.
public enum Stopwatch {
    /// Runs `body` and returns its result with the elapsed milliseconds.
    public static func measure<T>(_ body: () throws -> T) rethrows -> (result: T, milliseconds: Double) {
        let start = ContinuousClock.now
        let result = try body()
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        return (result, milliseconds)
    }

    /// This process's peak resident memory so far (Linux `VmHWM`), in MiB; nil where /proc is unavailable.
    public static func peakResidentMiB() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kib = line.split(separator: " ").compactMap { Double($0) }.first
            return kib.map { $0 / 1024 }
        }
        return nil
    }
}
