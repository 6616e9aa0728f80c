import Foundation

/// How hard a downhill piste is, as OpenStreetMap's `piste:difficulty` states it
/// (https://wiki.openstreetmap.org/wiki/Key:piste:difficulty). A piste whose difficulty is not tagged, or tagged
/// with a value outside the documented ones, is `unknown`: never guessed from its name, colour or slope.
public enum PisteDifficulty: String, CaseIterable, Sendable, Codable, Hashable {
    case novice, easy, intermediate, advanced, expert, freeride, extreme, unknown

    /// The difficulty a `piste:difficulty` value states; `unknown` for nil, empty or undocumented values.
    /// Values are compared after trimming and lower-casing (`Easy` is tagged now and then).
    public init(osmValue: String?) {
        let value = osmValue?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        self = PisteDifficulty(rawValue: value) ?? .unknown
    }

    /// The rank from easiest (0) to hardest; `unknown` sorts last.
    public var rank: Int { Self.allCases.firstIndex(of: self)! }
}

/// How a piste's difficulty is shown to skiers: North American resorts mark trails with a green circle, a blue
/// square, a black diamond and a double black diamond; European resorts colour pistes green (where used), blue,
/// red and black. `label`, `symbol` and `colour` give the sign for each OSM difficulty.
public enum PisteConvention: String, CaseIterable, Sendable, Codable, Hashable {
    case northAmerica = "north_america"
    case europe

    /// One sign: the words a screen reader says, the shape's name (for an icon) and its colour.
    public struct Sign: Sendable, Hashable, Codable {
        public var label: String
        /// The shape: `circle`, `square`, `diamond`, `double_diamond`, or `question` for unknown.
        public var symbol: String
        /// A CSS colour as `#rrggbb`.
        public var colour: String
    }

    /// The sign for `difficulty` in this convention.
    ///
    /// North America (NSAA's trail-marking system): novice and easy are green circles, intermediate a blue
    /// square, advanced a black diamond, expert, freeride and extreme double black diamonds (freeride terrain is
    /// ungroomed expert terrain there). Europe (the Alpine countries' norm, e.g. DIN 32912 / ÖNORM S 4611):
    /// novice is green (beginner areas), easy blue, intermediate red, advanced and expert black; freeride and
    /// extreme are off-piste ski routes, shown in orange (as yellow-orange "Skiroute" markers are).
    public func sign(for difficulty: PisteDifficulty) -> Sign {
        switch (self, difficulty) {
        case (_, .unknown): Sign(label: "Difficulty unknown", symbol: "question", colour: "#6b7280")
        case (.northAmerica, .novice), (.northAmerica, .easy):
            Sign(label: "Green circle", symbol: "circle", colour: "#15803d")
        case (.northAmerica, .intermediate): Sign(label: "Blue square", symbol: "square", colour: "#1d4ed8")
        case (.northAmerica, .advanced): Sign(label: "Black diamond", symbol: "diamond", colour: "#111827")
        case (.northAmerica, .expert), (.northAmerica, .freeride), (.northAmerica, .extreme):
            Sign(label: "Double black diamond", symbol: "double_diamond", colour: "#111827")
        case (.europe, .novice): Sign(label: "Green", symbol: "circle", colour: "#15803d")
        case (.europe, .easy): Sign(label: "Blue", symbol: "circle", colour: "#1d4ed8")
        case (.europe, .intermediate): Sign(label: "Red", symbol: "circle", colour: "#dc2626")
        case (.europe, .advanced), (.europe, .expert): Sign(label: "Black", symbol: "circle", colour: "#111827")
        case (.europe, .freeride), (.europe, .extreme):
            Sign(label: "Ski route (off-piste)", symbol: "diamond", colour: "#ea580c")
        }
    }

    /// North America for the United States, Canada and their territories (and Mexico); Europe elsewhere, since
    /// the European colours are the ones used across the rest of the world's ski areas (Japan, Australia, New
    /// Zealand, South America mostly follow them). `region` is an ISO 3166-1 alpha-2 code (any case); a locale
    /// identifier such as `en_US` or `fr-CA` is read for its region.
    public static func `default`(for region: String?) -> PisteConvention {
        guard var code = region?.trimmingCharacters(in: .whitespaces), !code.isEmpty else { return .europe }
        if code.count > 2 {
            let parts = code.split(whereSeparator: { $0 == "_" || $0 == "-" })
            guard let last = parts.dropFirst().last(where: { $0.count == 2 && $0.allSatisfy(\.isLetter) }) else {
                return .europe
            }
            code = String(last)
        }
        return northAmericanRegions.contains(code.uppercased()) ? .northAmerica : .europe
    }

    /// The convention of `locale`'s region.
    public static func `default`(for locale: Locale) -> PisteConvention {
        `default`(for: locale.region?.identifier ?? locale.identifier)
    }

    static let northAmericanRegions: Set<String> = ["US", "CA", "MX", "PR", "VI", "GU", "AS", "MP", "UM"]
}
