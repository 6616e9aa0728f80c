import Foundation
import Geo
import Navigation
import Routing
import Testing

@Suite struct InstructionTests {
    typealias Support = NavigationTestSupport
    typealias Way = Support.Way

    /// Main Street runs north through a crossing with West Road and East Road, and on past it.
    static let crossroads = Support.graph([
        Way(name: "Main Street", points: [(0, -200), (0, 0), (0, 200)]),
        Way(name: "West Road", points: [(-200, 0), (0, 0)]),
        Way(name: "East Road", points: [(0, 0), (200, 0)]),
        Way(name: "Slight Lane", points: [(0, 0), (150, 200)]),
        Way(name: "Back Lane", points: [(0, 0), (150, -150)]),
    ])

    /// The turns of the route through `points`, without the start and the finish.
    func turns(_ points: [(Double, Double)], in graph: StreetGraph) -> [TurnInstruction] {
        Array(Support.route(through: points, in: graph).instructions().dropFirst().dropLast())
    }

    @Test func turnsSaySideAndSharpness() {
        let cases: [((Double, Double), Maneuver, String)] = [
            ((200, 0), .turn(.right, .plain), "Turn right onto East Road"),
            ((-200, 0), .turn(.left, .plain), "Turn left onto West Road"),
            ((150, 200), .turn(.right, .slight), "Slight right onto Slight Lane"),
            ((150, -150), .turn(.right, .sharp), "Sharp right onto Back Lane"),
        ]
        for (end, maneuver, text) in cases {
            let turns = turns([(0, -200), (0, 0), end], in: Self.crossroads)

            #expect(turns.count == 1, "\(end)")
            #expect(turns.first?.maneuver == maneuver)
            #expect(turns.first?.text == text)
            #expect(abs((turns.first?.distanceMeters ?? 0) - 200) < 0.5)
        }
    }

    @Test func straightOnThroughACrossingIsNoInstruction() {
        #expect(turns([(0, -200), (0, 0), (0, 200)], in: Self.crossroads).isEmpty)
    }

    @Test func aForkSaysWhichBranchToKeepTo() {
        let fork = Support.graph([
            Way(name: "Stem", points: [(0, -200), (0, 0)]),
            Way(name: "Left Fork", points: [(0, 0), (-60, 200)]),
            Way(name: "Right Fork", points: [(0, 0), (60, 200)]),
        ])

        #expect(turns([(0, -200), (0, 0), (-60, 200)], in: fork).map(\.text) == ["Keep left onto Left Fork"])
        #expect(turns([(0, -200), (0, 0), (60, 200)], in: fork).map(\.maneuver) == [.keep(.right)])
    }

    @Test func aStreetThatBendsAwayGetsContinueStraight() {
        let bend = Support.graph([
            Way(name: "Main Street", points: [(0, -200), (0, 0), (173, 100)]),
            Way(highway: .footway, points: [(0, 0), (0, 200)]),
        ])

        #expect(turns([(0, -200), (0, 0), (0, 200)], in: bend).map(\.text) == ["Continue straight onto the footpath"])
        #expect(
            turns([(0, -200), (0, 0), (173, 100)], in: bend).map(\.text) == ["Turn right onto Main Street"],
            "the street turns while a way goes straight on")
    }

    @Test func aDeadEndIsAUTurn() {
        let turns = turns([(0, -200), (0, 0), (0, 200), (0, 0), (200, 0)], in: Self.crossroads)

        #expect(turns.map(\.maneuver) == [.uTurn, .turn(.left, .plain)])
        #expect(turns.map(\.text) == ["Make a U-turn", "Turn left onto East Road"])
    }

    @Test func turnsCloseTogetherAreAnnouncedTogetherEarlyEnoughForBoth() {
        let jog = Support.graph([
            Way(name: "Main Street", points: [(0, -200), (0, 0), (0, 100)]),
            Way(name: "Cross Street", points: [(-100, 0), (0, 0), (16, 0), (200, 0)]),
            Way(name: "Kaivokatu", points: [(16, 0), (16, 200)]),
        ])

        let turns = turns([(0, -200), (0, 0), (16, 0), (16, 200)], in: jog)

        #expect(turns.map(\.text) == ["Right, then left onto Kaivokatu", "Turn left onto Kaivokatu"])
        #expect(turns[0].then?.maneuver == .turn(.left, .plain))
        #expect(abs((turns[0].then?.distanceMeters ?? 0) - 216) < 0.5)
        #expect(abs(turns[0].announcementMeters - 42) < 0.5, "50 m - gap / 2: the second turn is announced 58 m ahead")
        #expect(turns[1].announcementMeters == 50)
        #expect(!turns[1].followsClosely(after: turns[0]), "said again only once the first is passed")
    }

    /// Cross Street leaves Main Street east; Kaivokatu leaves Cross Street north `gap` metres further on.
    static func jog(gap: Double) -> StreetGraph {
        Support.graph([
            Way(name: "Main Street", points: [(0, -200), (0, 0), (0, 100)]),
            Way(name: "Cross Street", points: [(-100, 0), (0, 0), (gap, 0), (200, 0)]),
            Way(name: "Kaivokatu", points: [(gap, 0), (gap, 200)]),
        ])
    }

    @Test func aTurnWithinFiftyMetresOfTheLastIsSaidAsThenFiftyMetresAhead() {
        let turns = turns([(0, -200), (0, 0), (40, 0), (40, 200)], in: Self.jog(gap: 40))

        #expect(turns.map(\.text) == ["Turn right onto Cross Street", "Then left onto Kaivokatu"])
        #expect(turns[0].then == nil)
        #expect(turns.map(\.announcementMeters) == [50, 50], "each 50 m ahead: 30–70 m, however far apart")
        #expect(turns[1].followsClosely(after: turns[0]), "said before the runner reaches the first turn")
    }

    /// Main Street runs north; a spur leaves it west at 200 m and ends 8 m on.
    static let spur = Support.graph([
        Way(name: "Main Street", points: [(0, -200), (0, 0), (0, 200)]),
        Way(name: "Spur", points: [(0, 0), (-8, 0)]),
    ])

    @Test func aChainOfThreeWithAUTurnSaysTheMiddleOneBeforeTheFirstIsPassed() {
        // Into the spur, back at its end, and on north along Main Street: three maneuvers 8 m apart.
        let turns = turns([(0, -200), (0, 0), (-8, 0), (0, 0), (0, 200)], in: Self.spur)

        #expect(turns.map(\.text) == ["Left, then U-turn", "Then U-turn, then left", "Turn left onto Main Street"])
        #expect(turns[1].followsClosely(after: turns[0]), "names the third maneuver before the first is passed")
        #expect(!turns[2].followsClosely(after: turns[1]), "said again once the U-turn is passed")
    }

    @Test func aTurnFiftyMetresOrMoreAfterTheLastIsSaidOnItsOwn() {
        let turns = turns([(0, -200), (0, 0), (60, 0), (60, 200)], in: Self.jog(gap: 60))

        #expect(turns.map(\.text) == ["Turn right onto Cross Street", "Turn left onto Kaivokatu"])
        #expect(!turns[1].followsClosely(after: turns[0]))
    }

    @Test func anUnnamedPathBendingOnAsTheSameKindOfWayIsNoInstruction() {
        // A footpath bends 30° right where a cycle path leaves 45° left.
        let park = Support.graph([
            Way(highway: .footway, points: [(0, -200), (0, 0), (100, 173)]),
            Way(highway: .cycleway, points: [(0, 0), (-100, 100)]),
        ])

        #expect(turns([(0, -200), (0, 0), (100, 173)], in: park).isEmpty, "the path just bends")
        #expect(
            turns([(0, -200), (0, 0), (-100, 100)], in: park).map(\.text) == ["Slight left onto the cycle path"],
            "onto another kind of way it is said")
    }

    @Test func aChainOfTurnsOnShortEdgesBecomesOneInstructionAndItsRest() {
        // Down a footway onto a station's platform and along its short edges: right, right, left and left
        // again, each 18 m after the last (stairs and platform ends), then on along the platform.
        let station = Support.graph([
            Way(highway: .footway, points: [(0, -200), (0, 0), (0, 60)]),
            Way(highway: .platform, points: [(0, 0), (18, 0), (18, -18), (36, -18), (36, 200)]),
            Way(highway: .steps, points: [(18, 0), (18, 40)]),
            Way(highway: .steps, points: [(18, -18), (18, -60)]),
            Way(highway: .steps, points: [(36, -18), (60, -18)]),
        ])

        let route = Support.route(through: [(0, -200), (0, 0), (18, 0), (18, -18), (36, -18), (36, 200)], in: station)
        let turns = Array(route.instructions().dropFirst().dropLast())

        #expect(turns.count == 2, "\(turns.map(\.text))")
        #expect(turns.first?.text == "Right, then U-turn" || turns.first?.text.hasPrefix("Right, then ") == true)
        #expect(turns.allSatisfy { InstructionText.wordCount($0.text) <= 6 })
        #expect(abs((turns.first?.distanceMeters ?? 0) - 200) < 0.5)
    }

    @Test func aJogOfAFewMetresIsJudgedByWhereItLeads() {
        let crossing = Support.graph([
            Way(name: "Main Street", points: [(0, -200), (0, 0)]),
            Way(name: "Cross Street", points: [(-100, 0), (0, 0), (8, 0), (200, 0)]),
            Way(name: "Kaivokatu", points: [(8, 0), (8, 200)]),
            Way(name: "Back Street", points: [(8, 0), (8, -100)]),
        ])

        let across = turns([(0, -200), (0, 0), (8, 0), (8, 200)], in: crossing)
        let back = turns([(0, -200), (0, 0), (8, 0), (8, -100)], in: crossing)

        #expect(across.map(\.text) == ["Continue straight onto Kaivokatu"], "right and left 8 m apart: straight on")
        #expect(back.map(\.maneuver) == [.uTurn], "right and right 8 m apart: back the other way")
    }

    @Test func theRouteStartsWithAHeadingAndEndsAtTheFinish() {
        let route = Support.route(through: [(0, -200), (0, 0), (200, 0)], in: Self.crossroads)
        let loop = Support.route(
            through: [(0, -200), (0, 0), (200, 0), (0, 0), (0, -200)], in: Self.crossroads)

        let instructions = route.instructions()

        #expect(instructions.first?.text == "Head north on Main Street")
        #expect(instructions.first?.announcementMeters == 0)
        #expect(instructions.last?.text == "Arrive at the finish")
        #expect(abs((instructions.last?.distanceMeters ?? 0) - 400) < 0.5)
        #expect(loop.instructions().last?.text == "Finish back at the start")
    }

    @Test func aRouteWithoutStreetsTurnsAtItsClearBendsOnly() {
        let line = [(0.0, 0.0), (0, 100), (2, 110), (3, 120), (100, 121), (100, 300)].map { Support.point($0.0, $0.1) }

        let turns = Array(NavigationRoute(geometry: line).instructions().dropFirst().dropLast())

        #expect(turns.map(\.maneuver) == [.turn(.right, .plain), .turn(.left, .plain)])
        #expect(turns.map(\.text) == ["Turn right", "Turn left"])
    }

    @Test func aKeptLineMatchedOntoTheStreetsGetsTheSameInstructions() {
        let steps = Support.steps(through: [(0, -200), (0, 0), (200, 0), (0, 0), (-200, 0)], in: Self.crossroads)
        let planned = NavigationRoute(steps: steps, in: Self.crossroads)
        let segments = SegmentIndex(graph: Self.crossroads)

        let matched = NavigationRoute(matching: planned.points, in: Self.crossroads, segments: segments)

        #expect(matched.instructions().map(\.text) == planned.instructions().map(\.text))
        #expect(
            planned.instructions().map(\.text) == [
                "Head north on Main Street", "Turn right onto East Road", "Make a U-turn", "Arrive at the finish",
            ])
    }
}

@Suite struct InstructionTextTests {
    @Test func neverMoreThanSixWords() {
        let maneuvers: [Maneuver] =
            [.uTurn, .continueStraight, .arrive]
            + TurnDirection.allCases.flatMap { side in
                [.keep(side)] + TurnSharpness.allCases.map { Maneuver.turn(side, $0) }
            } + CompassDirection.allCases.map { .depart($0) }
        let streets = [
            RouteStreet(name: "Mannerheimintie"), RouteStreet(name: "Martin Luther King Jr Memorial Boulevard"),
            RouteStreet(highway: .pedestrian), RouteStreet(highway: .footway), RouteStreet(),
        ]
        for first in maneuvers {
            for then in [nil] + maneuvers.filter({ if case .turn = $0 { true } else { $0 == .uTurn } }) {
                for street in streets {
                    for afterPrevious in [false, true] {
                        let text = InstructionText.text(
                            for: first, then: then, street: street, afterPrevious: afterPrevious)
                        #expect(InstructionText.wordCount(text) <= 6, "\(text)")
                        #expect(!text.isEmpty)
                    }
                }
            }
        }
    }

    @Test func longNamesAreLeftOutRatherThanCut() {
        let boulevard = RouteStreet(name: "Martin Luther King Jr Memorial Boulevard")

        #expect(InstructionText.text(for: .turn(.left, .sharp), street: boulevard) == "Sharp left")
        #expect(
            InstructionText.text(for: .turn(.left, .sharp), street: RouteStreet(name: "Mannerheimintie"))
                == "Sharp left onto Mannerheimintie")
        #expect(
            InstructionText.text(for: .turn(.left, .slight), then: .turn(.right, .sharp), street: boulevard)
                == "Slight left, then sharp right")
        #expect(
            InstructionText.text(for: .depart(.northeast), street: RouteStreet(name: "Bulevardi"))
                == "Head northeast on Bulevardi")
        #expect(
            InstructionText.text(for: .turn(.right, .plain), street: RouteStreet(highway: .steps))
                == "Turn right onto the steps")
    }

    @Test func aManeuverSoonAfterTheLastStartsWithThen() {
        let kaivokatu = RouteStreet(name: "Kaivokatu")

        #expect(
            InstructionText.text(for: .turn(.right, .plain), street: kaivokatu, afterPrevious: true)
                == "Then right onto Kaivokatu")
        #expect(
            InstructionText.text(for: .turn(.left, .sharp), street: RouteStreet(highway: .steps), afterPrevious: true)
                == "Then sharp left onto the steps")
        #expect(InstructionText.text(for: .uTurn, street: kaivokatu, afterPrevious: true) == "Then make a U-turn")
        #expect(
            InstructionText.text(for: .uTurn, then: .turn(.left, .plain), street: kaivokatu, afterPrevious: true)
                == "Then U-turn, then left onto Kaivokatu")
        #expect(
            InstructionText.text(
                for: .keep(.left), then: .turn(.right, .slight), street: kaivokatu, afterPrevious: true)
                == "Then keep left, then slight right", "the name left out beyond six words")
    }

    @Test func compassPointsRoundToTheNearest() {
        #expect(CompassDirection(bearingDegrees: 0) == .north)
        #expect(CompassDirection(bearingDegrees: 359) == .north)
        #expect(CompassDirection(bearingDegrees: 23) == .northeast)
        #expect(CompassDirection(bearingDegrees: 200) == .south)
        #expect(CompassDirection(bearingDegrees: -90) == .west)
    }
}
