import Testing

@testable import Ski

/// Folding and matching ski-area names.
@Suite struct SkiNameSearchTests {
    @Test(
        arguments: [
            ("Val d’Isère", "val d isere"), ("val d'isere", "val d isere"), ("VAL D`ISÈRE", "val d isere"),
            ("Val dʼIsère", "val d isere"), ("Sölden", "solden"), ("Garmisch-Partenkirchen", "garmisch partenkirchen"),
            ("Mt. Snow", "mount snow"), ("Willard Mtn", "willard mountain"),
            ("Ste-Foy-Tarentaise", "sainte foy tarentaise"),
            ("  Whiteface   Mountain ", "whiteface mountain"), ("Åre", "are"), ("Straße", "strasse"), ("...", ""),
        ])
    func foldingDropsCaseAccentsAndPunctuation(text: String, folded: String) {
        #expect(SkiNameSearch.fold(text) == folded)
    }

    @Test func apostropheVariantsFoldAlike() {
        let variants = ["Val d'Isère", "Val d’Isère", "Val d‘Isère", "Val dʼIsère", "Val d´Isère", "Val d`Isère"]

        #expect(Set(variants.map(SkiNameSearch.fold)).count == 1)
    }

    @Test(
        arguments: [
            ("Willard", true), ("lard", true), ("WILLARD", true), ("willard mtn", true), ("mt", true),
            ("Mountain Willard", false), ("Willardz", false), ("", false), ("  ", false), ("Whiteface", false),
        ])
    func theMatcherFindsFullAndPartialNames(query: String, matches: Bool) {
        #expect(SkiNameSearch.Matcher(query).matches("Willard Mountain") == matches)
    }

    @Test func wordsInOrderMatchAcrossOtherWords() {
        let matcher = SkiNameSearch.Matcher("whiteface placid")

        #expect(matcher.matches("Whiteface Mountain Lake Placid"))
        #expect(!matcher.matches("Lake Placid Whiteface"))
    }

    @Test func accentsInTheQueryOrTheNameDoNotMatter() {
        #expect(SkiNameSearch.Matcher("val d'isere").matches("Val d’Isère"))
        #expect(SkiNameSearch.Matcher("Isère").matches("Val d'Isere"))
        #expect(SkiNameSearch.Matcher("solden").matches("Sölden"))
    }

    @Test func rankingPutsWholeNamesAndPrefixesFirst() {
        let names = ["Big Willard Bowl", "Willard", "Willard Mountain", "Dillard's Hill", "Bullard Run"]

        let ranked = SkiNameSearch.Matcher("willard").rank(names).map { names[$0] }

        #expect(ranked == ["Willard", "Willard Mountain", "Big Willard Bowl"])
        #expect(SkiNameSearch.Matcher("lard").rank(names).count == 5)
        #expect(SkiNameSearch.Matcher("zermatt").rank(names).isEmpty)
    }
}
