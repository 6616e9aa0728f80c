import Foundation
import Testing

@testable import Ski

/// OSM's `piste:difficulty` values and how each convention signs them.
@Suite struct PisteDifficultyTests {
    @Test(
        arguments: [
            ("novice", PisteDifficulty.novice), ("easy", .easy), ("intermediate", .intermediate),
            ("advanced", .advanced), ("expert", .expert), ("freeride", .freeride), ("extreme", .extreme),
            (" Easy ", .easy), ("hard", .unknown), ("", .unknown), ("blue", .unknown), ("unknown", .unknown),
        ])
    func osmValuesAreReadAndOthersStayUnknown(value: String, difficulty: PisteDifficulty) {
        #expect(PisteDifficulty(osmValue: value) == difficulty)
    }

    @Test func anUntaggedPisteIsUnknown() {
        #expect(PisteDifficulty(osmValue: nil) == .unknown)
    }

    @Test func ranksGoFromEasiestToHardestWithUnknownLast() {
        let ranks = PisteDifficulty.allCases.map(\.rank)

        #expect(ranks == Array(0..<8))
        #expect(PisteDifficulty.unknown.rank == PisteDifficulty.allCases.count - 1)
    }

    @Test(
        arguments: [
            (PisteDifficulty.novice, "Green circle", "circle", "#15803d"),
            (.easy, "Green circle", "circle", "#15803d"),
            (.intermediate, "Blue square", "square", "#1d4ed8"),
            (.advanced, "Black diamond", "diamond", "#111827"),
            (.expert, "Double black diamond", "double_diamond", "#111827"),
            (.freeride, "Double black diamond", "double_diamond", "#111827"),
            (.extreme, "Double black diamond", "double_diamond", "#111827"),
            (.unknown, "Difficulty unknown", "question", "#6b7280"),
        ])
    func northAmericaSignsTrailsWithShapes(difficulty: PisteDifficulty, label: String, symbol: String, colour: String) {
        let sign = PisteConvention.northAmerica.sign(for: difficulty)

        #expect(sign == .init(label: label, symbol: symbol, colour: colour))
    }

    @Test(
        arguments: [
            (PisteDifficulty.novice, "Green", "circle", "#15803d"),
            (.easy, "Blue", "circle", "#1d4ed8"),
            (.intermediate, "Red", "circle", "#dc2626"),
            (.advanced, "Black", "circle", "#111827"),
            (.expert, "Black", "circle", "#111827"),
            (.freeride, "Ski route (off-piste)", "diamond", "#ea580c"),
            (.extreme, "Ski route (off-piste)", "diamond", "#ea580c"),
            (.unknown, "Difficulty unknown", "question", "#6b7280"),
        ])
    func europeSignsPistesWithColours(difficulty: PisteDifficulty, label: String, symbol: String, colour: String) {
        let sign = PisteConvention.europe.sign(for: difficulty)

        #expect(sign == .init(label: label, symbol: symbol, colour: colour))
    }

    @Test(
        arguments: [
            ("US", PisteConvention.northAmerica), ("us", .northAmerica), ("CA", .northAmerica),
            ("en_US", .northAmerica), ("fr-CA", .northAmerica), ("en-Latn-US", .northAmerica),
            ("FR", .europe), ("de_AT", .europe), ("CH", .europe), ("JP", .europe), ("en", .europe), ("", .europe),
            ("zz-99", .europe),
        ])
    func theDefaultFollowsTheRegion(region: String, convention: PisteConvention) {
        #expect(PisteConvention.default(for: region) == convention)
    }

    @Test func theDefaultForALocaleUsesItsRegion() {
        #expect(PisteConvention.default(for: Locale(identifier: "en_US")) == .northAmerica)
        #expect(PisteConvention.default(for: Locale(identifier: "fr_CA")) == .northAmerica)
        #expect(PisteConvention.default(for: Locale(identifier: "de_CH")) == .europe)
        #expect(PisteConvention.default(for: nil as String?) == .europe)
    }
}
