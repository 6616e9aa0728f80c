import Geo

/// The rules that turn a route's junctions into instructions; the defaults are what Cairn uses.
public struct InstructionOptions: Sendable, Hashable {
    /// How far ahead a maneuver is announced (run-route-planner NFR 6.3: 50 m).
    public var announcementMeters = 50.0
    /// A maneuver followed by another closer than this is announced with it, early enough for both ("Left,
    /// then right onto Kaivokatu"): `announcementMeters - gap / 2` ahead, so that the second is announced
    /// `announcementMeters + gap / 2` ahead. The second gets its own instruction too (with the one after
    /// it, if that is close as well), announced once the first is passed. One a little farther on (within
    /// its announcement distance) is announced on its own, before the first is passed, as "Then right onto
    /// Kaivokatu": at least this far apart, the two announcements come some seconds apart.
    public var combineWithinMeters = 20.0
    /// Chains of maneuvers each closer than this to the last become at most two instructions (see
    /// `NavigationRoute.instructions`).
    public var chainWithinMeters = 34.0
    /// Below this change of direction the route goes straight on.
    public var straightBelowDegrees = 20.0
    /// Turns below this are slight; from it up to `sharpFromDegrees` plain.
    public var slightBelowDegrees = 50.0
    public var sharpFromDegrees = 125.0
    /// A change of direction this large is a U-turn: the route doubles back on itself.
    public var uTurnFromDegrees = 172.0
    /// Another way this close in direction to the one the route takes makes the junction a fork ("Keep
    /// left").
    public var forkWithinDegrees = 35.0
    /// Maneuvers closer than this to the one before become one (see `NavigationRoute.instructions`).
    public var joinWithinMeters = 15.0
    /// On a route without a street network, the smallest bend of its shape that is announced, and how close
    /// two bends may be before only the larger counts.
    public var shapeTurnFromDegrees = 45.0
    public var shapeTurnSpacingMeters = 20.0

    public init() {}
}

extension NavigationRoute {
    /// The instructions of this route in order: the start ("Head north on Bulevardi"), every turn at a
    /// junction where the runner has a choice, forks, places where the way bends off while the route goes
    /// straight, U-turns, and the finish.
    ///
    /// At a junction the direction in and out is read `bearingReachMeters` along the route (less when the
    /// next junction is nearer), and every other way's direction as far along that way. A change of
    /// direction below 20° is straight on (an instruction only at a fork or where the street bends away),
    /// below 50° slight (none where the route simply follows its street round a bend), below 125° plain,
    /// beyond that sharp, and from 172° a U-turn.
    ///
    /// Maneuvers closer together than `InstructionOptions.joinWithinMeters` (the jogs of a footpath across a
    /// road, a staggered crossing, a sidewalk and its crossing) become one, judged by the change of
    /// direction over all of them, as turn-by-turn engines collapse them (OSRM's staggered intersections);
    /// where they cancel out, nothing is said unless the street changes.
    public func instructions(options: InstructionOptions = InstructionOptions()) -> [TurnInstruction] {
        var found: [FoundManeuver] = []
        let knownJunctionDistances = junctions.filter { $0.branches != nil }.map { distances[$0.pointIndex] }
        var known = 0
        var shapeTurns: [(found: FoundManeuver, degrees: Double)] = []
        for junction in junctions {
            let d = distances[junction.pointIndex]
            guard let branches = junction.branches else {
                let angle = turn(
                    at: junction.pointIndex, reachIn: Self.bearingReachMeters, reachOut: Self.bearingReachMeters)
                if let maneuver = Self.netManeuver(
                    angle: angle, options: options, smallest: options.shapeTurnFromDegrees)
                {
                    shapeTurns.append((foundManeuver(maneuver, at: junction.pointIndex), abs(angle)))
                }
                continue
            }
            let previous = known > 0 ? knownJunctionDistances[known - 1] : 0
            let next = known + 1 < knownJunctionDistances.count ? knownJunctionDistances[known + 1] : lengthMeters
            known += 1
            let reachIn = min(Self.bearingReachMeters, max(d - previous, 1))
            let reachOut = min(Self.bearingReachMeters, max(next - d, 1))
            let inBearing = coordinate(atDistance: d - reachIn).bearing(to: points[junction.pointIndex])
            let angle = turn(at: junction.pointIndex, reachIn: reachIn, reachOut: reachOut)
            let relative = branches.map { Angle.difference(from: inBearing, to: $0.bearingDegrees) }
            if let maneuver = Self.maneuver(
                angle: angle, branches: zip(relative, branches.map(\.street)).map { ($0, $1) },
                streetIn: streets[junction.pointIndex - 1], streetOut: streets[junction.pointIndex], options: options)
            {
                found.append(foundManeuver(maneuver, at: junction.pointIndex))
            }
        }
        for shapeTurn in shapeTurns {
            let rivals = shapeTurns.filter {
                abs($0.found.distance - shapeTurn.found.distance) < options.shapeTurnSpacingMeters
            }
            if rivals.allSatisfy({
                $0.degrees < shapeTurn.degrees
                    || ($0.degrees == shapeTurn.degrees && $0.found.distance >= shapeTurn.found.distance)
            }) {
                found.append(shapeTurn.found)
            }
        }
        found.sort { $0.distance < $1.distance }
        return assemble(foldingChains(joiningClose(found, options: options), options: options), options: options)
    }

    /// A maneuver at point `index`, with the directions 15 m before and after it.
    private func foundManeuver(_ maneuver: Maneuver, at index: Int) -> FoundManeuver {
        let d = distances[index]
        return FoundManeuver(
            distance: d, lastDistance: d, pointIndex: index, lastPointIndex: index, maneuver: maneuver,
            inBearing: coordinate(atDistance: d - Self.bearingReachMeters).bearing(to: points[index]),
            outBearing: points[index].bearing(to: coordinate(atDistance: d + Self.bearingReachMeters)))
    }

    /// Joins maneuvers less than `joinWithinMeters` after the previous one into it, judged by the change of
    /// direction from before the first to after the last; drops joined ones that cancel out, unless the
    /// route goes on along another named street.
    private func joiningClose(_ found: [FoundManeuver], options: InstructionOptions) -> [FoundManeuver] {
        var joined: [FoundManeuver] = []
        for maneuver in found {
            guard var last = joined.last, maneuver.distance - last.lastDistance < options.joinWithinMeters,
                maneuver.maneuver != .uTurn, last.maneuver != .uTurn
            else {
                joined.append(maneuver)
                continue
            }
            last.lastDistance = maneuver.distance
            last.lastPointIndex = maneuver.pointIndex
            last.outBearing = maneuver.outBearing
            last.maneuver =
                Self.netManeuver(
                    angle: Angle.difference(from: last.inBearing, to: last.outBearing), options: options,
                    smallest: options.straightBelowDegrees) ?? .continueStraight
            joined[joined.count - 1] = last
        }
        return joined.filter { maneuver in
            guard maneuver.maneuver == .continueStraight, maneuver.lastPointIndex != maneuver.pointIndex else {
                return true
            }
            let before = streets[max(maneuver.pointIndex - 1, 0)], after = streets[maneuver.lastPointIndex]
            return after.name != nil && after.name != before.name
        }
    }

    /// Chains of maneuvers each less than `chainWithinMeters` after the last (the short edges of a station's
    /// platforms and stairs, a sidewalk's jogs round a corner) would be announced one on top of the other.
    /// Each chain becomes at most two: its first maneuver, then one for the rest of it, judged by the change
    /// of direction over all of the rest (nothing when the rest goes straight on along the same street).
    private func foldingChains(_ found: [FoundManeuver], options: InstructionOptions) -> [FoundManeuver] {
        var folded: [FoundManeuver] = []
        var index = 0
        while index < found.count {
            let first = found[index]
            var end = index
            while end + 1 < found.count,
                found[end + 1].distance - found[end].lastDistance < options.chainWithinMeters,
                found[end + 1].maneuver != .uTurn, found[end].maneuver != .uTurn
            {
                end += 1
            }
            folded.append(first)
            if end > index {
                var rest = found[index + 1]
                if end > index + 1 {
                    let last = found[end]
                    rest.lastDistance = last.lastDistance
                    rest.lastPointIndex = last.lastPointIndex
                    rest.outBearing = last.outBearing
                    rest.maneuver =
                        Self.netManeuver(
                            angle: Angle.difference(from: rest.inBearing, to: rest.outBearing), options: options,
                            smallest: options.straightBelowDegrees) ?? .continueStraight
                }
                let goesOnAlongItsStreet =
                    rest.maneuver == .continueStraight
                    && streets[max(rest.pointIndex - 1, 0)].name == streets[rest.lastPointIndex].name
                if !goesOnAlongItsStreet { folded.append(rest) }
            }
            index = end + 1
        }
        return folded
    }

    /// The change of direction at point `index`, measured from `reachIn` metres before it to `reachOut`
    /// metres after it along the route; degrees in (-180, 180], positive to the right.
    private func turn(at index: Int, reachIn: Double, reachOut: Double) -> Double {
        let d = distances[index]
        let before = coordinate(atDistance: d - reachIn), after = coordinate(atDistance: d + reachOut)
        return Angle.difference(from: before.bearing(to: points[index]), to: points[index].bearing(to: after))
    }

    /// The maneuver at a junction whose other ways leave at `branches` (degrees relative to the way in),
    /// or nil when the runner just carries on.
    private static func maneuver(
        angle: Double, branches: [(degrees: Double, street: RouteStreet)], streetIn: RouteStreet,
        streetOut: RouteStreet, options: InstructionOptions
    ) -> Maneuver? {
        let size = abs(angle)
        let side: TurnDirection = angle < 0 ? .left : .right
        let rival = branches.min { abs($0.degrees - angle) < abs($1.degrees - angle) }
        let isFork = rival.map { abs($0.degrees - angle) < options.forkWithinDegrees } ?? false
        /// Whether the route takes the other way at a fork, on which side of it.
        let forkSide: TurnDirection = angle < (rival?.degrees ?? 0) ? .left : .right
        if size >= options.uTurnFromDegrees { return .uTurn }
        if size < options.straightBelowDegrees {
            if isFork { return .keep(forkSide) }
            let streetBendsAway = branches.contains {
                streetIn.name != nil && $0.street.name == streetIn.name && abs($0.degrees) < 75
            }
            return streetBendsAway && streetOut.name != streetIn.name ? .continueStraight : nil
        }
        if size < options.slightBelowDegrees {
            if isFork { return .keep(forkSide) }
            // Following its street round a bend: the same name, or an unnamed way going on as the same kind of
            // way (a footpath's or a platform's bends).
            let followsItsStreet =
                streetIn.name != nil
                ? streetIn.name == streetOut.name
                : streetOut.name == nil && streetIn.highway != nil && streetIn.highway == streetOut.highway
            let straighterWay = branches.contains { abs($0.degrees) < size }
            return followsItsStreet && !straighterWay ? nil : .turn(side, .slight)
        }
        if branches.isEmpty && size < options.uTurnFromDegrees { return nil }
        return .turn(side, size < options.sharpFromDegrees ? .plain : .sharp)
    }

    /// The maneuver for a change of direction alone (a bend of a route without streets, or several
    /// maneuvers joined): nil below `smallest` degrees.
    private static func netManeuver(angle: Double, options: InstructionOptions, smallest: Double) -> Maneuver? {
        let size = abs(angle)
        guard size >= smallest else { return nil }
        if size >= options.uTurnFromDegrees { return .uTurn }
        let sharpness: TurnSharpness =
            size < options.slightBelowDegrees ? .slight : size < options.sharpFromDegrees ? .plain : .sharp
        return .turn(angle < 0 ? .left : .right, sharpness)
    }

    /// The start, the maneuvers (close pairs announced together) and the finish, with their words and
    /// announcement distances.
    private func assemble(_ maneuvers: [FoundManeuver], options: InstructionOptions) -> [TurnInstruction] {
        let departBearing = points[0].bearing(to: coordinate(atDistance: min(Self.bearingReachMeters, lengthMeters)))
        let depart = Maneuver.depart(CompassDirection(bearingDegrees: departBearing))
        var instructions = [
            TurnInstruction(
                maneuver: depart, distanceMeters: 0, coordinate: points[0], street: streets[0],
                text: InstructionText.text(for: depart, street: streets[0]), announcementMeters: 0)
        ]
        for (index, first) in maneuvers.enumerated() {
            let next = maneuvers.indices.contains(index + 1) ? maneuvers[index + 1] : nil
            let second = next.flatMap { $0.distance - first.distance < options.combineWithinMeters ? $0 : nil }
            let street = streets[min((second ?? first).lastPointIndex, streets.count - 1)]
            let gap = second.map { $0.distance - first.distance } ?? 0
            var instruction = TurnInstruction(
                maneuver: first.maneuver,
                then: second.map { FollowingManeuver(maneuver: $0.maneuver, distanceMeters: $0.distance) },
                distanceMeters: first.distance, coordinate: points[first.pointIndex], street: street, text: "",
                announcementMeters: options.announcementMeters - gap / 2)
            instruction.text = InstructionText.text(
                for: first.maneuver, then: second?.maneuver, street: street,
                afterPrevious: instruction.followsClosely(after: instructions[instructions.count - 1]))
            instructions.append(instruction)
        }
        let last = streets[streets.count - 1]
        instructions.append(
            TurnInstruction(
                maneuver: .arrive, distanceMeters: lengthMeters, coordinate: points[points.count - 1], street: last,
                text: InstructionText.text(for: .arrive, street: last, routeIsLoop: isLoop),
                announcementMeters: options.announcementMeters))
        return instructions
    }
}

/// A maneuver found along the route before it becomes an instruction; maneuvers joined into one keep
/// where the first starts and the last ends.
private struct FoundManeuver {
    var distance: Double
    var lastDistance: Double
    var pointIndex: Int
    var lastPointIndex: Int
    /// Joined maneuvers that cancel out go straight on.
    var maneuver: Maneuver
    /// The direction before the first and after the last, degrees.
    var inBearing: Double
    var outBearing: Double
}

/// Arithmetic on compass bearings.
enum Angle {
    /// The signed change from bearing `a` to bearing `b`, degrees in (-180, 180], positive clockwise.
    static func difference(from a: Double, to b: Double) -> Double {
        var d = (b - a).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 }
        if d <= -180 { d += 360 }
        return d
    }
}
