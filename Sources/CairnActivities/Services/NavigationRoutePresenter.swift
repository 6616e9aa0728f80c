import CairnAPI
import Foundation
import Geo
import Navigation

/// A `NavigationRoute` and its instructions as `POST /api/activities/route` sends them to the device, which
/// follows the runner with the same logic (Web/js/apps/activities/navigation/).
enum NavigationRoutePresenter {
    static func data(route: NavigationRoute, instructions: [TurnInstruction], matched: Bool) -> NavigationRouteData {
        var runs: [NavigationStreetRun] = []
        for (index, street) in route.streets.enumerated() where index == 0 || street != route.streets[index - 1] {
            runs.append(NavigationStreetRun(from: index, name: street.name, highway: street.highway?.osmValue))
        }
        return NavigationRouteData(
            coordinates: route.points.map { [$0.longitude, $0.latitude] }, streets: runs,
            junctions: route.junctions.map { junction in
                NavigationJunctionData(
                    point: junction.pointIndex,
                    branches: junction.branches?.map {
                        NavigationBranchData(
                            bearing: $0.bearingDegrees, name: $0.street.name, highway: $0.street.highway?.osmValue)
                    })
            },
            instructions: instructions.map(instruction), lengthM: route.lengthMeters, matched: matched)
    }

    static func instruction(_ instruction: TurnInstruction) -> NavigationInstructionData {
        NavigationInstructionData(
            text: instruction.text, maneuver: token(instruction.maneuver),
            then: instruction.then.map { token($0.maneuver) },
            thenM: instruction.then?.distanceMeters, distanceM: instruction.distanceMeters,
            announcementM: instruction.announcementMeters, lat: instruction.coordinate.latitude,
            lon: instruction.coordinate.longitude, street: instruction.street.name)
    }

    /// `depart:north`, `turn:left:sharp`, `keep:right`, `straight`, `uturn`, `arrive`.
    static func token(_ maneuver: Maneuver) -> String {
        switch maneuver {
        case .depart(let compass): "depart:\(compass.rawValue)"
        case .turn(let side, let sharpness): "turn:\(side.rawValue):\(sharpness.rawValue)"
        case .keep(let side): "keep:\(side.rawValue)"
        case .continueStraight: "straight"
        case .uTurn: "uturn"
        case .arrive: "arrive"
        }
    }
}
