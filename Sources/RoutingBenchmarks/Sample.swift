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

    /// The `p`-th percentile as a table cell, "12.3 ms" for milliseconds (`format`), "–" when empty.
    public func cell(_ p: Double, _ format: String = "%.1f ms") -> String {
        percentile(p).map { String(format: format, $0) } ?? "–"
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

    /// Runs `body` and returns its result with the CPU time this thread spent in it, milliseconds. On a
    /// shared machine this is one core's work, without the time spent waiting for a core; on an idle one it
    /// equals the wall-clock time. Reading the clock costs about 0.6 µs, included in the figure.
    public static func measureThreadCPU<T>(_ body: () throws -> T) rethrows -> (result: T, milliseconds: Double) {
        let start = threadCPUMilliseconds()
        let result = try body()
        return (result, threadCPUMilliseconds() - start)
    }

    /// This process's peak resident memory so far (Linux `VmHWM`), in MiB; nil where /proc is unavailable.
    public static func peakResidentMiB() -> Double? { procStatusMiB("VmHWM:") }

    /// Starts a new peak-memory reading (Linux: writing 5 to `/proc/self/clear_refs` resets `VmHWM`), so
    /// that `peakResidentMiB()` afterwards is the peak of what follows. Does nothing where unsupported.
    public static func resetPeakResident() {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
    }

    /// This process's resident memory now (Linux `VmRSS`), in MiB; nil where /proc is unavailable.
    public static func residentMiB() -> Double? { procStatusMiB("VmRSS:") }

    /// Another process's peak resident memory since it started or since `resetPeakResident(pid:)` (a server
    /// the benchmark runs), in MiB; nil where /proc is unavailable.
    public static func peakResidentMiB(pid: Int32) -> Double? { procStatusMiB("VmHWM:", process: "\(pid)") }

    /// Starts a new peak-memory reading of another process (as `resetPeakResident()`; needs to be its owner).
    public static func resetPeakResident(pid: Int32) {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/\(pid)/clear_refs"))
    }

    /// CPU time this process has used so far (all threads), in milliseconds. On a machine shared with other
    /// work it shows how much of a wall-clock time was spent waiting for a core.
    public static func processCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    private static func threadCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    private static func procStatusMiB(_ field: String, process: String = "self") -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            let kib = line.split(separator: " ").compactMap { Double($0) }.first
            return kib.map { $0 / 1024 }
        }
        return nil
    }
}
