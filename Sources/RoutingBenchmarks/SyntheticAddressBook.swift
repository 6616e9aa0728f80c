import Foundation
import Geo
import Routing

/// Generates suggestion entries shaped like a Finnish city's: streets with compound names from common
/// syllables and suffixes (one street entry per 100 m, as edges of a street would give), house numbers
/// every 20 m (some with a staircase letter), shops and cafés with repeated chain names, and landmarks.
/// The same seed gives the same entries.
public struct SyntheticAddressBook: Sendable {
    public var streetCount: Int
    public var seed: UInt64
    public var center: Coordinate

    public init(streetCount: Int, seed: UInt64 = 1, center: Coordinate = Coordinate(latitude: 60.17, longitude: 24.94))
    {
        self.streetCount = streetCount
        self.seed = seed
        self.center = center
    }

    /// Half the side of the square the entries lie in, metres: about 0.4 km² per street.
    public var extentMeters: Double { Double(streetCount).squareRoot() * 320 }

    private static let syllables = [
        "ka", "la", "mi", "no", "pe", "ri", "su", "to", "va", "hel", "sin", "tam", "kos", "jär", "vi", "lah", "ti",
        "ran", "ta", "kal", "lio", "mä", "ki", "nie", "sa", "lo", "kö", "py", "hä", "me", "en", "kus", "aa", "ur",
        "ho", "ne", "il", "mar", "ja", "ait", "öl", "vuo", "ren", "sep", "pä", "ou", "lu", "tei",
    ]
    private static let suffixes = [
        "katu", "tie", "kuja", "polku", "väylä", "rinne", "ranta", "puistikko", "tori", "kaari", "kuja", "tie",
    ]
    private static let chains = [
        "Alepa", "K-Market", "S-Market", "R-kioski", "Kahvila", "Apteekki", "Lidl", "Ravintola",
    ]

    public func entries() -> [SuggestionEntry] {
        var random = SeededRandom(seed: seed)
        let projection = LocalProjection(origin: center)
        var names = Set<String>()
        var entries = [SuggestionEntry]()
        func word(_ count: Int) -> String {
            (0..<count).map { _ in Self.syllables[Int(random.next() % UInt64(Self.syllables.count))] }.joined()
        }
        while names.count < streetCount {
            let suffix = Self.suffixes[Int(random.next() % UInt64(Self.suffixes.count))]
            let name = (word(2 + Int(random.next() % 2)) + suffix).capitalized
            guard names.insert(name).inserted else { continue }
            let x = (random.nextUnit() * 2 - 1) * extentMeters, y = (random.nextUnit() * 2 - 1) * extentMeters
            let angle = random.nextUnit() * .pi, length = 200 + random.nextUnit() * 1_800
            func point(at distance: Double, side: Double) -> Coordinate {
                projection.unproject(
                    x: x + cos(angle) * distance - sin(angle) * side, y: y + sin(angle) * distance + cos(angle) * side)
            }
            for distance in stride(from: 0, through: length, by: 100) {
                entries.append(SuggestionEntry(text: name, kind: .street, coordinate: point(at: distance, side: 0)))
            }
            for (index, distance) in stride(from: 10, through: length, by: 20).enumerated() {
                let number = index + 1
                let staircase = random.nextUnit() < 0.1 ? (random.nextUnit() < 0.5 ? " A" : " B") : ""
                entries.append(
                    SuggestionEntry(
                        text: "\(name) \(number)\(staircase)", kind: .address,
                        coordinate: point(at: distance, side: number % 2 == 0 ? 12 : -12)))
            }
            if random.nextUnit() < 0.3 {
                let chain = Self.chains[Int(random.next() % UInt64(Self.chains.count))]
                let text = random.nextUnit() < 0.5 ? chain : "\(chain) \(word(2).capitalized)"
                entries.append(
                    SuggestionEntry(text: text, kind: .poi, detail: "shop", coordinate: point(at: length / 2, side: 15))
                )
            }
            if random.nextUnit() < 0.05 {
                entries.append(
                    SuggestionEntry(
                        text:
                            "\(word(3).capitalized)n \(["puisto", "kirkko", "museo", "lähde"].randomElement(using: &random)!)",
                        kind: .landmark, coordinate: point(at: length / 3, side: 40)))
            }
        }
        return entries
    }
}
