import Foundation
import RoutingBenchmarks

extension NavigationBenchmark.Result {
    /// The tables docs/benchmarks.md quotes.
    public var markdown: String {
        var lines = [
            "| GPS noise (RMS) | Runs | Fixes | Distance error median / p95 / max | Runs within 2 % "
                + "| Without the route: median / p95 |",
            "| ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for row in rows {
            lines.append(
                "| \(f(row.noiseMeters, 0)) m | \(row.runs) | \(row.fixes) "
                    + "| \(percent(row.distanceError.median)) / \(percent(row.distanceError.p95)) / \(percent(row.distanceError.percentile(100))) "
                    + "| \(f(row.distanceError.fraction { $0 <= 0.02 } * 100, 1)) % "
                    + "| \(percent(row.freeDistanceError.median)) / \(percent(row.freeDistanceError.p95)) |")
        }
        lines += [
            "",
            "| GPS noise | Turns measured | Announced 30–70 m ahead | Ahead median / p1 / p99 m | Not announced "
                + "| Not measured (near the start or the wrong turn) |",
            "| ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for row in rows {
            let measured = row.announcementMeters.count + row.unannounced
            let inWindow = row.announcementMeters.values.filter { $0 >= 30 && $0 <= 70 }.count
            lines.append(
                "| \(f(row.noiseMeters, 0)) m | \(measured) | \(f(Double(inWindow) / Double(max(measured, 1)) * 100, 2)) % "
                    + "| \(f(row.announcementMeters.median ?? 0, 1)) / \(f(row.announcementMeters.percentile(1) ?? 0, 1)) "
                    + "/ \(f(row.announcementMeters.percentile(99) ?? 0, 1)) | \(row.unannounced) | \(row.unmeasured) |"
            )
        }
        lines += [
            "",
            "| Turns outside 30–70 m, by cause | "
                + rows.map { "\(f($0.noiseMeters, 0)) m: measured / late / early / never" }.joined(separator: " | ")
                + " |",
            "| --- |" + String(repeating: " ---: |", count: rows.count),
        ]
        for cause in NavigationBenchmark.TurnCause.allCases {
            let cells = rows.map { row in
                let count = row.turnsByCause[cause] ?? NavigationBenchmark.TurnCount()
                return "\(count.measured) / \(count.late) / \(count.early) / \(count.never)"
            }
            lines.append("| \(cause.label) | " + cells.joined(separator: " | ") + " |")
        }
        lines += [
            "",
            "| GPS noise | Wrong turns ≥ 50 m off | Prompt after median / max s | Missed | Raised on the route "
                + "| Cleared on return | Progress ahead of truth, max m | Arrived | Work per fix median / p99 / max µs |",
            "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for row in rows {
            lines.append(
                "| \(f(row.noiseMeters, 0)) m | \(row.detours) | \(f(row.offRouteDelaySeconds.median ?? 0, 0)) "
                    + "/ \(f(row.offRouteDelaySeconds.percentile(100) ?? 0, 0)) | \(row.offRouteMissed) | \(row.falseAlarms) "
                    + "| \(row.backOnRoute) | \(f(row.progressLeadMeters.percentile(100) ?? 0, 1)) | \(row.arrived) of \(row.runs) "
                    + "| \(f(row.fixMicroseconds.median ?? 0, 1)) / \(f(row.fixMicroseconds.percentile(99) ?? 0, 1)) "
                    + "/ \(f(row.fixMicroseconds.percentile(100) ?? 0, 0)) |")
        }
        lines += [
            "",
            "\(plannedLoops) loops planned (\(planFailures) starts without a loop), "
                + "\(f(loopKm.percentile(0) ?? 0, 1))–\(f(loopKm.percentile(100) ?? 0, 1)) km, median \(f(loopKm.median ?? 0, 1)) km; "
                + "\(instructions) instructions, the longest \(maxWords) words (“\(longestInstruction)”); "
                + "route and instructions made in median \(f(routeSetupMilliseconds.median ?? 0, 2)) ms "
                + "(p95 \(f(routeSetupMilliseconds.p95 ?? 0, 2)) ms).",
            "",
            "Work per fix: CPU time of the measuring thread for one `NavigationSession.update` (filter, match, "
                + "announcements, figures), about 0.6 µs of clock reading included.",
        ]
        lines += ["", "Worst runs (loop numbers for `--loops`):", ""]
        for row in rows { lines += row.worstRuns.map { "- \(f(row.noiseMeters, 0)) m: \($0)" } }
        return lines.joined(separator: "\n")
    }

    /// The issue's figures against this run.
    public var goals: [BenchmarkGoal] {
        let worstDistance = rows.map { $0.distanceError.percentile(100) ?? 0 }.max() ?? 0
        let measured = rows.reduce(0) { $0 + $1.announcementMeters.count + $1.unannounced }
        let inWindow = rows.reduce(0) { $0 + $1.announcementMeters.values.filter { $0 >= 30 && $0 <= 70 }.count }
        let worstDelay = rows.map { $0.offRouteDelaySeconds.percentile(100) ?? 0 }.max() ?? 0
        let missed = rows.reduce(0) { $0 + $1.offRouteMissed }
        let falseAlarms = rows.reduce(0) { $0 + $1.falseAlarms }
        let worstFix = rows.map { $0.fixMicroseconds.percentile(100) ?? 0 }.max() ?? 0
        let p99Fix = rows.map { $0.fixMicroseconds.percentile(99) ?? 0 }.max() ?? 0
        return [
            BenchmarkGoal(
                target: "recorded distance within 2 % of the true length",
                measured: "worst run \(percent(worstDistance)) ("
                    + rows.map { "\(f($0.noiseMeters, 0)) m: median \(percent($0.distanceError.median))" }.joined(
                        separator: ", ") + ")",
                met: worstDistance <= 0.02),
            BenchmarkGoal(
                target: "every turn announced 30–70 m before it",
                measured: "\(inWindow) of \(measured) (\(f(Double(inWindow) / Double(max(measured, 1)) * 100, 2)) %)",
                met: inWindow == measured),
            BenchmarkGoal(
                target: "off-route raised within 10 s of leaving the route by 50 m",
                measured: "at most \(f(worstDelay, 0)) s; \(missed) missed", met: worstDelay <= 10 && missed == 0),
            BenchmarkGoal(
                target: "off-route never raised on the route", measured: "\(falseAlarms) times", met: falseAlarms == 0),
            BenchmarkGoal(
                target: "work per fix ≤ 1 ms", measured: "max \(f(worstFix, 0)) µs (p99 \(f(p99Fix, 1)) µs)",
                met: worstFix <= 1000),
            BenchmarkGoal(
                target: "instruction words ≤ 6 in every case", measured: "at most \(maxWords) in \(instructions)",
                met: maxWords <= 6),
        ]
    }

    private func percent(_ value: Double?) -> String { "\(f((value ?? 0) * 100, 2)) %" }

    private func f(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}

extension NavigationBenchmark.Row {
    /// The runs that miss a goal, worst first: those over 2 % of distance, those whose off-route prompt came
    /// more than 10 s late, with a prompt on the route or that did not end by themselves, and the three with
    /// the most turns announced outside 30–70 m.
    var worstRuns: [String] {
        let failing = runFigures.filter {
            $0.distanceError > 0.02 || ($0.offRouteDelaySeconds ?? 0) > 10 || $0.falseAlarms > 0 || !$0.arrived
        }
        let turns = runFigures.sorted { $0.turnsOutsideWindow > $1.turnsOutsideWindow }.prefix(3)
        var seen = Set<Int>()
        return (failing.sorted { $0.distanceError > $1.distanceError } + turns).compactMap { run in
            guard seen.insert(run.loop).inserted else { return nil }
            return "loop \(run.loop): distance \(String(format: "%.2f", run.distanceError * 100)) %, "
                + "prompt after \(run.offRouteDelaySeconds.map { String(format: "%.0f s", $0) } ?? "–"), "
                + "\(run.falseAlarms) on the route, \(run.turnsOutsideWindow) turns outside 30–70 m"
                + (run.arrived ? "" : ", did not end")
        }
    }
}
