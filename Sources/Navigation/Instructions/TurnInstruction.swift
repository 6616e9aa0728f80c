import Geo

/// One instruction of a route, shown in the banner and announced before the runner reaches it
/// (run-route-planner 7.2, NFR 6.3).
public struct TurnInstruction: Sendable, Hashable {
    public var maneuver: Maneuver
    /// The next maneuver, when it comes so close after this one that both are announced together ("Left,
    /// then right onto Kaivokatu"); it is also the next instruction's own maneuver, announced again once
    /// this one is passed.
    public var then: FollowingManeuver?
    /// Where the maneuver is, metres along the route.
    public var distanceMeters: Double
    public var coordinate: Coordinate
    /// The street the runner is on after the maneuver (after the second one when there are two).
    public var street: RouteStreet
    /// At most six words: "Sharp left onto Mannerheimintie".
    public var text: String
    /// How far before `distanceMeters` the instruction is announced (50 m unless a maneuver comes close
    /// after another; see `InstructionOptions`).
    public var announcementMeters: Double

    public init(
        maneuver: Maneuver, then: FollowingManeuver? = nil, distanceMeters: Double, coordinate: Coordinate,
        street: RouteStreet, text: String, announcementMeters: Double
    ) {
        self.maneuver = maneuver
        self.then = then
        self.distanceMeters = distanceMeters
        self.coordinate = coordinate
        self.street = street
        self.text = text
        self.announcementMeters = announcementMeters
    }

    /// Whether this instruction comes so soon after `previous` that it is announced before the runner reaches
    /// `previous`'s maneuver: within its announcement distance of it, and not named by it as `then`; or named
    /// by it and naming the next one itself (a chain of three close maneuvers: "Left, then U-turn", "Then
    /// U-turn, then right"). Its words start with "Then" ("Then right onto Kaivokatu"), so that a runner about
    /// to make one turn does not take the next for it.
    public func followsClosely(after previous: TurnInstruction) -> Bool {
        guard maneuver != .arrive else { return false }
        guard previous.then == nil else { return then != nil }
        return distanceMeters - previous.distanceMeters < announcementMeters
    }
}

/// The second of two maneuvers announced together, and where it is along the route.
public struct FollowingManeuver: Sendable, Hashable {
    public var maneuver: Maneuver
    public var distanceMeters: Double

    public init(maneuver: Maneuver, distanceMeters: Double) {
        self.maneuver = maneuver
        self.distanceMeters = distanceMeters
    }
}

/// What the runner does at an instruction.
public enum Maneuver: Sendable, Hashable {
    /// The start: which way to set off.
    case depart(CompassDirection)
    /// A turn at a junction: its side and how sharp.
    case turn(TurnDirection, TurnSharpness)
    /// At a fork, take the branch on this side.
    case keep(TurnDirection)
    /// Go straight on where the way itself bends away.
    case continueStraight
    /// Turn back the way you came (at a dead end, or where the route doubles back).
    case uTurn
    /// The end of the route.
    case arrive
}

public enum TurnDirection: String, Sendable, Hashable, CaseIterable {
    case left, right
}

/// How sharp a turn is, by the angle between the way in and the way out: slight below 50°, plain up to
/// 125°, sharp beyond (see `InstructionOptions`).
public enum TurnSharpness: String, Sendable, Hashable, CaseIterable {
    case slight, plain, sharp
}

/// One of the eight compass points, for the first instruction ("Head north on Mannerheimintie").
public enum CompassDirection: String, Sendable, Hashable, CaseIterable {
    case north, northeast, east, southeast, south, southwest, west, northwest

    /// The compass point nearest to `bearingDegrees` (clockwise from north).
    public init(bearingDegrees: Double) {
        let normalized = (bearingDegrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(
            dividingBy: 360)
        self = Self.allCases[Int((normalized / 45).rounded()) % 8]
    }
}
