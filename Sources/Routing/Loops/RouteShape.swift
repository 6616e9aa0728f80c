import Geo

/// What kind of round trip a route is, by how it repeats itself: a runner wants to know before leaving
/// whether they will run some streets twice.
public enum RouteKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Out one way, back another; nothing worth mentioning is run twice.
    case loop
    /// Out along a stretch (the stick), round a loop, and back along the same stretch.
    case lollipop
    /// Out along a way and back along the same way: every metre run twice, in opposite directions.
    case outAndBack = "out_and_back"
}

/// A stretch of ground a route runs twice, in walking order of its first passage.
public struct RepeatedStretch: Sendable, Hashable {
    /// The name of the street that carries most of the stretch; nil when that is an unnamed way.
    public var streetName: String?
    /// The ground run twice, metres (the route runs it twice, so it adds twice this to the length).
    public var lengthMeters: Double
    /// Where the stretch begins, as metres along the route from the start.
    public var startsAtMeters: Double
    /// The stretch as a polyline, in walking order of its first passage.
    public var geometry: [Coordinate]

    public init(streetName: String?, lengthMeters: Double, startsAtMeters: Double, geometry: [Coordinate]) {
        self.streetName = streetName
        self.lengthMeters = lengthMeters
        self.startsAtMeters = startsAtMeters
        self.geometry = geometry
    }
}

extension RepeatedStretch {
    /// "along Tervaskatu for 300 m", "along an unnamed way for 1.2 km".
    public var phrase: String {
        let street = streetName.map { "along \($0)" } ?? "along an unnamed way"
        let meters =
            lengthMeters < 1_000
            ? "\(Int((lengthMeters / 10).rounded()) * 10) m" : String(format: "%.1f km", lengthMeters / 1_000)
        return "\(street) for \(meters)"
    }
}

extension Loop {
    /// What the runner will repeat, as a sentence for the screen: "Out and back along Tervaskatu for 2.5 km.";
    /// nil for a loop that repeats nothing worth telling.
    public var repeatSummary: String? {
        guard let first = repeatedStretches.first else { return nil }
        let more = repeatedStretches.count - 1
        let others = more == 0 ? "" : more == 1 ? ", and one more stretch" : ", and \(more) more stretches"
        switch kind {
        case .outAndBack: return "Out and back \(first.phrase)\(others)."
        case .lollipop: return "Out and back \(first.phrase) at the start and the end\(others)."
        case .loop:
            return "Runs twice \(first.phrase)\(others)."
        }
    }
}

/// The shape of a walk: its kind and the stretches it repeats. A stretch shorter than
/// `minimumStretchMeters` is not worth telling a runner (leaving and coming back by the same few metres of
/// a mid-edge start, say) and does not make a loop a lollipop.
struct RouteShape {
    static let minimumStretchMeters = 50.0

    var kind: RouteKind
    var repeated: [RepeatedStretch]

    /// `reuseShare` is the walk's re-used share (`LoopCoverage`): a half means every metre is run twice.
    init(steps: [LoopStep], reuseShare: Double, in graph: StreetGraph) {
        let mirrored = Self.mirroredPrefixCount(steps)
        let stickMeters = steps.prefix(mirrored).reduce(0) { $0 + $1.lengthMeters(in: graph) }
        if mirrored * 2 >= steps.count || reuseShare >= 0.5 - 1e-9 {
            kind = .outAndBack
        } else if stickMeters >= Self.minimumStretchMeters {
            kind = .lollipop
        } else {
            kind = .loop
        }
        repeated = Self.repeatedStretches(steps, in: graph)
    }

    /// How many steps from each end mirror each other: `steps[i]` walked back is `steps[n - 1 - i]`.
    static func mirroredPrefixCount(_ steps: [LoopStep]) -> Int {
        var count = 0
        while count < steps.count - 1 - count, steps[count] == steps[steps.count - 1 - count].reversed {
            count += 1
        }
        // An odd middle step is its own mirror only if it is empty; an out-and-back turns between two steps.
        return count
    }

    /// The ground walked more than once, as stretches in walking order of the first passage, each at least
    /// `minimumStretchMeters` long.
    static func repeatedStretches(_ steps: [LoopStep], in graph: StreetGraph) -> [RepeatedStretch] {
        var byEdge: [Int: [Int]] = [:]
        for (index, step) in steps.enumerated() { byEdge[step.edge, default: []].append(index) }

        // The part of each step that a later step walks again, as a fraction interval of its edge.
        struct Piece {
            var step: Int
            var interval: ClosedRange<Double>
        }
        var pieces: [Piece] = []
        var reported: [Int: [ClosedRange<Double>]] = [:]
        for (index, step) in steps.enumerated() {
            let own = step.interval
            for other in byEdge[step.edge] ?? [] where other > index {
                let theirs = steps[other].interval
                let low = max(own.lowerBound, theirs.lowerBound), high = min(own.upperBound, theirs.upperBound)
                guard high > low else { continue }
                // Ground already reported by an earlier step is its first passage, not this one's.
                if reported[step.edge, default: []].contains(where: { $0.lowerBound <= low && $0.upperBound >= high }) {
                    continue
                }
                reported[step.edge, default: []].append(low...high)
                pieces.append(Piece(step: index, interval: low...high))
            }
        }
        pieces.sort { $0.step < $1.step }

        var startsAt = [Double](repeating: 0, count: steps.count + 1)
        for (index, step) in steps.enumerated() { startsAt[index + 1] = startsAt[index] + step.lengthMeters(in: graph) }

        var stretches: [RepeatedStretch] = []
        var current:
            (first: Int, last: Int, meters: [String?: Double], total: Double, start: Double, line: [Coordinate])?
        func close() {
            guard let run = current, run.total >= minimumStretchMeters else { return }
            let name = run.meters.max {
                $0.value < $1.value || ($0.value == $1.value && ($0.key ?? "") > ($1.key ?? ""))
            }?
            .key
            stretches.append(
                RepeatedStretch(
                    streetName: name ?? nil, lengthMeters: run.total, startsAtMeters: run.start, geometry: run.line))
        }
        for piece in pieces {
            let step = steps[piece.step]
            let forward = step.toFraction >= step.fromFraction
            let from = forward ? piece.interval.lowerBound : piece.interval.upperBound
            let to = forward ? piece.interval.upperBound : piece.interval.lowerBound
            let meters = abs(to - from) * graph.lengthMeters(of: step.edge)
            let line = graph.polyline(of: step.edge, fromFraction: from, toFraction: to)
            let offset = startsAt[piece.step] + abs(from - step.fromFraction) * graph.lengthMeters(of: step.edge)
            if var run = current, run.last + 1 >= piece.step, abs(offset - (run.start + run.total)) < 0.5 {
                run.last = piece.step
                run.meters[graph.name(of: step.edge), default: 0] += meters
                run.total += meters
                run.line += line.dropFirst()
                current = run
            } else {
                close()
                current = (piece.step, piece.step, [graph.name(of: step.edge): meters], meters, offset, line)
            }
        }
        close()
        return stretches
    }
}
