import Geo
import Testing

@testable import Routing

@Suite struct SuggestionIndexTests {
    static let station = Coordinate(latitude: 60.1710, longitude: 24.9414)
    static let kallio = Coordinate(latitude: 60.1840, longitude: 24.9510)
    static let arabia = Coordinate(latitude: 60.2090, longitude: 24.9770)

    static let entries: [SuggestionEntry] = [
        street("Hämeentie", 60.1790, 24.9500), street("Hämeentie", 60.1880, 24.9600),
        street("Hämeentie", 60.2070, 24.9740),
        street("Aleksanterinkatu", 60.1695, 24.9440), street("Aleksanterinkatu", 60.1690, 24.9500),
        street("Mannerheimintie", 60.1700, 24.9380), street("Mannerheimintie", 60.1900, 24.9200),
        street("Annankatu", 60.1650, 24.9370), street("Albertinkatu", 60.1620, 24.9340),
        street("Östra Allén", 60.1850, 24.9420),
        address("Aleksanterinkatu 5", 60.1693, 24.9460), address("Aleksanterinkatu 52", 60.1689, 24.9410),
        address("Aleksanterinkatu 15", 60.1692, 24.9480), address("Mannerheimintie 1", 60.1681, 24.9425),
        address("Mannerheimintie 10", 60.1695, 24.9390), address("Mannerheimintie 12 A", 60.1699, 24.9386),
        address("Hämeentie 1", 60.1790, 24.9500),
        SuggestionEntry(text: "Ateneum", kind: .poi, detail: "museum", coordinate: station),
        SuggestionEntry(text: "Alepa", kind: .poi, detail: "shop", coordinate: kallio),
        SuggestionEntry(text: "Alepa", kind: .poi, detail: "shop", coordinate: arabia),
        SuggestionEntry(text: "Ørsted", kind: .poi, coordinate: kallio),
        SuggestionEntry(text: "Helsingin tuomiokirkko", kind: .landmark, detail: "church", coordinate: station),
    ]

    private static func street(_ name: String, _ latitude: Double, _ longitude: Double) -> SuggestionEntry {
        SuggestionEntry(text: name, kind: .street, coordinate: Coordinate(latitude: latitude, longitude: longitude))
    }

    private static func address(_ text: String, _ latitude: Double, _ longitude: Double) -> SuggestionEntry {
        SuggestionEntry(text: text, kind: .address, coordinate: Coordinate(latitude: latitude, longitude: longitude))
    }

    let index = SuggestionIndex(entries: entries)

    @Test func aPrefixOfAnyWordMatches() {
        let results = index.suggest("tuomio")

        #expect(results.map(\.text) == ["Helsingin tuomiokirkko"])
        #expect(results.first?.kind == .landmark && results.first?.detail == "church")
    }

    @Test(arguments: [
        ("hameen", "Hämeentie"), ("HÄMEENTIE", "Hämeentie"), ("ostra alle", "Östra Allén"), ("orsted", "Ørsted"),
        ("ha\u{308}meentie", "Hämeentie"),
    ])
    func caseAndDiacriticsAreFolded(query: String, expected: String) {
        #expect(index.suggest(query).first?.text == expected)
    }

    @Test(arguments: [
        ("aleksantrinkatu", "Aleksanterinkatu", 1), ("mannerhiemintie", "Mannerheimintie", 1),
        ("alexanterinkat", "Aleksanterinkatu", 2), ("aleksamterinktu", "Aleksanterinkatu", 2),
        ("atenuem", "Ateneum", 1),
    ])
    func typingErrorsAreForgiven(query: String, expected: String, typos: Int) {
        let first = index.suggest(query).first

        #expect(first?.text == expected)
        #expect(first?.typos == typos)
    }

    @Test func shortWordsAndHouseNumbersMustBeExact() {
        #expect(index.suggest("anm").isEmpty)
        #expect(index.suggest("aleksanterinkatu 6").isEmpty)
        #expect(index.suggest("xyzzy qwerty").isEmpty)
        #expect(index.suggest("  ,, ").isEmpty)
    }

    @Test func aHouseNumberQueryRanksTheExactNumberFirst() {
        let aleksanterinkatu = index.suggest("Aleksanterinkatu 5").map(\.text)
        let mannerheimintie = index.suggest("mannerheimintie 1", near: Self.kallio).map(\.text)

        #expect(aleksanterinkatu == ["Aleksanterinkatu 5", "Aleksanterinkatu 52"])
        #expect(mannerheimintie == ["Mannerheimintie 1", "Mannerheimintie 10", "Mannerheimintie 12 A"])
    }

    @Test func aStreetIsOneSuggestionAtItsPointNearestToTheUser() throws {
        let fromStation = index.suggest("hämeentie", near: Self.station).filter { $0.kind == .street }
        let fromArabia = index.suggest("hämeentie", near: Self.arabia).filter { $0.kind == .street }

        let nearStation = try #require(fromStation.first), nearArabia = try #require(fromArabia.first)
        #expect(fromStation.count == 1 && fromArabia.count == 1)
        #expect(
            nearStation.coordinate == Coordinate(latitude: 60.1790, longitude: 24.9500) && nearStation.entryIndex == 0)
        #expect(
            nearArabia.coordinate == Coordinate(latitude: 60.2070, longitude: 24.9740) && nearArabia.entryIndex == 2)
        #expect(abs(nearArabia.distanceMeters! - Self.arabia.haversineDistance(to: nearArabia.coordinate)) < 1e-9)
    }

    @Test func aPlaceMappedTwiceIsOneSuggestionButNamesakesFarApartAreTwo() {
        let platformA = Coordinate(latitude: 60.16920, longitude: 24.94000)
        let platformB = Coordinate(latitude: 60.16935, longitude: 24.94080)  // 48 m away
        let index = SuggestionIndex(entries: [
            SuggestionEntry(text: "Ylioppilastalo", kind: .poi, detail: "Tram stop", coordinate: platformA),
            SuggestionEntry(text: "Ylioppilastalo", kind: .poi, detail: "Tram stop", coordinate: platformB),
            SuggestionEntry(text: "Ylioppilastalo", kind: .landmark, detail: "Building", coordinate: platformA),
            SuggestionEntry(text: "Alepa", kind: .poi, detail: "Shop", coordinate: Self.kallio),
            SuggestionEntry(text: "Alepa", kind: .poi, detail: "Shop", coordinate: Self.arabia),
        ])

        let stops = index.suggest("ylioppilastalo", near: platformB)
        let shops = index.suggest("alepa", near: Self.kallio)

        #expect(stops.map(\.kind) == [.poi, .landmark])
        #expect(stops.first?.coordinate == platformB && stops.first?.entryIndex == 1)
        #expect(shops.map(\.coordinate) == [Self.kallio, Self.arabia])
    }

    @Test func theStreetComesBeforeItsAddressesAndEqualMatchesByDistance() {
        let mannerheimintie = index.suggest("mannerheimintie", near: Self.station).map(\.text)
        let alepaFromKallio = index.suggest("alepa", near: Self.kallio).map(\.coordinate)
        let alepaFromArabia = index.suggest("alepa", near: Self.arabia).map(\.coordinate)

        #expect(mannerheimintie.first == "Mannerheimintie")
        #expect(mannerheimintie.count == 4)
        #expect(alepaFromKallio == [Self.kallio, Self.arabia])
        #expect(alepaFromArabia == [Self.arabia, Self.kallio])
    }

    @Test func exactMatchesOutrankTyposAndTheLimitHolds() {
        let results = index.suggest("al", near: Self.station, limit: 3)
        let typed = index.suggest("annankat")

        #expect(results.count == 3)
        #expect(results.allSatisfy { $0.typos == 0 && $0.text.lowercased().hasPrefix("al") })
        #expect(typed.first?.text == "Annankatu" && typed.first?.typos == 0)
        #expect(typed.dropFirst().allSatisfy { $0.typos > 0 })
    }
}

@Suite struct SuggestionEntryFromPlaceTests {
    let point = Coordinate(latitude: 60.17, longitude: 24.94)

    @Test func aPlaceIsFoundByItsNameWithItsCategoryInWords() {
        let stop = SuggestionEntry(
            place: Place(name: "Aleksanterinkatu", kind: .poi, category: "railway=tram_stop", coordinate: point))
        let church = SuggestionEntry(
            place: Place(name: "Tuomiokirkko", kind: .landmark, category: "place_of_worship", coordinate: point))
        let address = SuggestionEntry(
            place: Place(
                name: "Mannerheimintie 5", kind: .address, coordinate: point, postcode: "00100", city: "Helsinki"))
        let street = SuggestionEntry(
            place: Place(name: "Mannerheimintie", kind: .street, category: "primary", coordinate: point))

        #expect(stop.kind == .poi && stop.detail == "Tram stop")
        #expect(church.kind == .landmark && church.detail == "Place of worship")
        #expect(address.kind == .address && address.detail == "00100 Helsinki")
        #expect(street.kind == .street && street.detail == nil)
    }
}
