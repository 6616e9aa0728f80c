import Foundation

/// A target that issue 4 (street network) or 5 (loop planner) sets, beside what a run measured, so that a
/// re-run on another machine says by itself whether the goals still hold.
public struct BenchmarkGoal: Sendable {
    public var target: String
    public var measured: String
    public var met: Bool

    public init(target: String, measured: String, met: Bool) {
        self.target = target
        self.measured = measured
        self.met = met
    }

    /// Issue 4 on a real extract: point-to-point median ≤ 0.5 ms (a route with its geometry, the answer a
    /// client gets) with ≤ 10 s of preprocessing. The synthetic cities show how the figures scale; the
    /// issue sets no target on them.
    public static func routing(_ result: RoutingBenchmark.Result) -> [BenchmarkGoal] {
        let route = result.hierarchyRoute.median ?? .infinity
        let build = result.hierarchyBuildMilliseconds / 1000
        return [
            BenchmarkGoal(
                target: "\(result.name): CH route median ≤ 0.5 ms",
                measured: String(
                    format: "%.3f ms (distance only %.3f ms; Dijkstra %.2f ms)", route,
                    result.hierarchyDistance.median ?? 0, result.dijkstra.median ?? 0),
                met: route <= 0.5),
            BenchmarkGoal(
                target: "\(result.name): CH preprocessing ≤ 10 s",
                measured: String(format: "%.2f s (%.2f s CPU)", build, result.hierarchyBuildCPUMilliseconds / 1000),
                met: build <= 10),
        ]
    }

    /// Issue 4: a suggestion per keystroke at p95 ≤ 10 ms.
    public static func suggestions(_ result: SuggestionBenchmark.Result) -> BenchmarkGoal {
        let p95 = result.keystroke.p95 ?? .infinity
        return BenchmarkGoal(
            target: "\(result.name): keystroke p95 ≤ 10 ms", measured: String(format: "%.3f ms", p95), met: p95 <= 10)
    }

    /// Issue 5: quality on every graph; time (three loops of one request, one core, every kind of request)
    /// p95 ≤ 20 ms on the real extract, and on a large generated city ≤ 100 ms up to 10 km and ≤ 500 ms at
    /// 30 km.
    public static func loops(_ result: LoopBenchmarks.Result, on graph: BenchmarkGraph) -> [BenchmarkGoal] {
        let name = graph.name
        var goals: [BenchmarkGoal] = []
        func time(_ row: LoopBenchmarks.Row, limit: Double, _ scope: String) {
            let p95 = row.allRequestMilliseconds.p95 ?? .infinity
            goals.append(
                BenchmarkGoal(
                    target: "\(name): three loops p95 ≤ \(Int(limit)) ms (\(scope))",
                    measured: String(format: "%.1f ms (p50 %.1f ms)", p95, row.allRequestMilliseconds.median ?? 0),
                    met: p95 <= limit))
        }
        if graph.isExtract {
            time(result.overall, limit: 20, "all distances")
        } else if case .synthetic(_, _, let blockMeters) = graph, blockMeters <= 30 {
            // Issue 23: the city at Helsinki's density.
            if let row = result.rows.first(where: { $0.distanceKm == 10 }) { time(row, limit: 50, "10 km") }
            if let row = result.rows.first(where: { $0.distanceKm == 30 }) { time(row, limit: 300, "30 km") }
        } else {
            time(result.combined("≤ 10 km") { $0 <= 10 }, limit: 100, "D ≤ 10 km")
            if let row = result.rows.first(where: { $0.distanceKm == 30 }) { time(row, limit: 500, "30 km") }
        }
        let all = result.overall
        goals.append(
            BenchmarkGoal(
                target: "\(name): every request gets a route (standard and shelter mode, every start and distance)",
                measured: "\(all.noRoute) of \(all.requests) without one", met: all.noRoute == 0))
        let errors = all.lengthError
        let within2 = errors.fraction { $0 <= 0.02 }
        let medianError = errors.median ?? .infinity
        let reuse = all.reuse.median ?? .infinity
        let pairs = all.overlap.fraction { $0 <= 0.3 }
        let maxOverlap = all.overlap.percentile(100) ?? 0
        goals += [
            BenchmarkGoal(
                target: "\(name): ≥ 95 % of loops within ±2 %", measured: String(format: "%.1f %%", within2 * 100),
                met: within2 >= 0.95),
            BenchmarkGoal(
                target: "\(name): median length error ≤ 1 %", measured: String(format: "%.2f %%", medianError * 100),
                met: medianError <= 0.01),
            BenchmarkGoal(
                target: "\(name): self re-use median ≤ 2 %", measured: String(format: "%.1f %%", reuse * 100),
                met: reuse <= 0.02),
            BenchmarkGoal(
                target: "\(name): any two loops of a plan share ≤ 30 %",
                measured: String(format: "%.1f %% of pairs; the largest %.0f %%", pairs * 100, maxOverlap * 100),
                met: maxOverlap <= 0.3),
        ]
        if all.landmarkRequests > 0 {
            goals.append(
                BenchmarkGoal(
                    target: "\(name): every loop passes its landmark", measured: "\(all.landmarkMissed) missed",
                    met: all.landmarkMissed == 0))
        }
        return goals
    }
}
