/// The words of an instruction: at most six (run-route-planner 7.2.1), the direction first and how sharp
/// (7.2.2, 7.2.2.1), then the street when it fits: "Sharp left onto Mannerheimintie", "Turn right onto the
/// footpath", "Left, then right onto Kaivokatu", "Head north on Bulevardi", "Make a U-turn".
public enum InstructionText {
    /// The most words an instruction may have.
    public static let maxWords = 6

    /// The instruction for `maneuver` (followed closely by `then`), taking the runner onto `street`. The
    /// street is left out when the words would exceed `maxWords`. `afterPrevious`: the maneuver comes so soon
    /// after the one before that it is announced before the runner gets there, as "Then right onto Kaivokatu".
    public static func text(
        for maneuver: Maneuver, then: Maneuver? = nil, street: RouteStreet, routeIsLoop: Bool = false,
        afterPrevious: Bool = false
    ) -> String {
        switch (maneuver, then) {
        case (.depart(let compass), _):
            return sentence("Head \(compass.rawValue)", "on", street)
        case (.arrive, _):
            return routeIsLoop ? "Finish back at the start" : "Arrive at the finish"
        case (.uTurn, nil):
            return afterPrevious ? "Then make a U-turn" : "Make a U-turn"
        case (let first, let second?):
            let action = pair(first, second)
            return sentence(afterPrevious ? thenSaid(action) : action, "onto", street, endsAt: second)
        case (let single, nil):
            return sentence(afterPrevious ? thenSaid(short(single)) : full(single), "onto", street)
        }
    }

    /// `action`, then `preposition` and the street when it fits in `maxWords` (not after a U-turn).
    private static func sentence(
        _ action: String, _ preposition: String, _ street: RouteStreet, endsAt last: Maneuver? = nil
    ) -> String {
        guard last != .uTurn, let target = target(street) else { return action }
        let sentence = "\(action) \(preposition) \(target)"
        return wordCount(sentence) <= maxWords ? sentence : action
    }

    /// `action` after "Then": "Then right", "Then U-turn, then left".
    private static func thenSaid(_ action: String) -> String {
        action.hasPrefix("U-turn") ? "Then \(action)" : "Then \(action.prefix(1).lowercased())\(action.dropFirst())"
    }

    /// Two maneuvers said together: "Left, then right".
    private static func pair(_ first: Maneuver, _ second: Maneuver) -> String {
        let next = short(second)
        return "\(short(first)), then \(next == "U-turn" ? next : next.lowercased())"
    }

    /// Words separated by white space ("U-turn" is one).
    public static func wordCount(_ text: String) -> Int {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).count
    }

    private static func full(_ maneuver: Maneuver) -> String {
        switch maneuver {
        case .turn(let side, .slight): "Slight \(side.rawValue)"
        case .turn(let side, .plain): "Turn \(side.rawValue)"
        case .turn(let side, .sharp): "Sharp \(side.rawValue)"
        case .keep(let side): "Keep \(side.rawValue)"
        case .continueStraight: "Continue straight"
        case .uTurn: "Make a U-turn"
        case .depart(let compass): "Head \(compass.rawValue)"
        case .arrive: "Arrive"
        }
    }

    /// The maneuver in one or two words, for the first half of a pair.
    private static func short(_ maneuver: Maneuver) -> String {
        switch maneuver {
        case .turn(let side, .plain): side == .left ? "Left" : "Right"
        case .continueStraight: "Straight"
        case .uTurn: "U-turn"
        default: full(maneuver)
        }
    }

    /// "Mannerheimintie", or for a way without a name what kind of way it is ("the footpath").
    private static func target(_ street: RouteStreet) -> String? {
        if let name = street.name, !name.isEmpty { return name }
        switch street.highway {
        case .footway, .bridleway: return "the footpath"
        case .path: return "the path"
        case .steps: return "the steps"
        case .cycleway: return "the cycle path"
        case .track: return "the track"
        case .corridor: return "the passage"
        case .platform: return "the platform"
        case .pedestrian, .livingStreet, .residential, .unclassified, .road, .tertiary, .secondary, .primary, .trunk:
            return "the street"
        case .service: return "the lane"
        case .other, nil: return nil
        }
    }
}
