import Foundation
import Testing

@testable import Flora

@Suite struct CatalogueTests {
    static let tags = [
        Tag(id: "order-asterales", name: "Asterales", kind: "order", parentID: nil),
        Tag(id: "family-asteraceae", name: "Asteraceae", kind: "family", parentID: "order-asterales"),
        Tag(id: "family-campanulaceae", name: "Campanulaceae", kind: "family", parentID: "order-asterales"),
        Tag(id: "family-poaceae", name: "Poaceae", kind: "family", parentID: nil),
    ]

    static func species(
        _ id: String, _ family: String, _ group: PlantGroup, _ colors: [FlowerColor], _ months: [Int]
    ) -> Species {
        Species(
            id: id, scientificName: id, commonName: id, family: family, group: group, flowerColors: colors,
            floweringMonths: months, habitats: [], elevationMinMeters: nil, elevationMaxMeters: nil, sensitive: false,
            tagIDs: [], image: nil, description: "")
    }

    static let catalogue = Catalogue(
        species: [
            species("daisy", "Asteraceae", .wildflower, [.white], [7]),
            species("sunflower", "Asteraceae", .wildflower, [.yellow], [7, 8]),
            species("harebell", "Campanulaceae", .wildflower, [.blue], [8]),
            species("hairgrass", "Poaceae", .graminoid, [], [7]),
        ],
        tags: tags,
        filters: [
            FilterDefinition(
                id: "wildflowers", group: "Plant group", label: "Wildflowers", exclusive: true, field: .group,
                value: "wildflower", appliesTo: [], position: 0),
            FilterDefinition(
                id: "grasses", group: "Plant group", label: "Grasses", exclusive: true, field: .group,
                value: "graminoid", appliesTo: [], position: 1),
            FilterDefinition(
                id: "white", group: "Colour", label: "White", exclusive: false, field: .color, value: "white",
                appliesTo: ["wildflowers"], position: 2),
            FilterDefinition(
                id: "yellow", group: "Colour", label: "Yellow", exclusive: false, field: .color, value: "yellow",
                appliesTo: ["wildflowers"], position: 3),
            FilterDefinition(
                id: "july", group: "In bloom", label: "July", exclusive: false, field: .month, value: "7",
                appliesTo: [], position: 4),
            FilterDefinition(
                id: "august", group: "In bloom", label: "August", exclusive: false, field: .month, value: "8",
                appliesTo: [], position: 5),
            FilterDefinition(
                id: "asterales", group: "Family", label: "Asterales", exclusive: false, field: .tag,
                value: "order-asterales", appliesTo: ["wildflowers"], position: 6),
        ])

    @Test func filtersOfOneGroupAreAlternativesAndGroupsCombine() throws {
        let result = try Self.catalogue.search(FilterSelection(filters: ["white", "yellow", "july"]))

        #expect(result.species.map(\.id) == ["daisy", "sunflower"])
        // Adding "asterales" keeps both; July alone (colour ignored for its own group's count) would leave 3.
        #expect(result.facets["asterales"] == 2)
        #expect(result.facets["july"] == 2)
        #expect(result.facets["white"] == 2)
    }

    @Test func aParentTagMatchesItsChildren() throws {
        let result = try Self.catalogue.search(FilterSelection(filters: ["asterales"]))

        #expect(Set(result.species.map(\.id)) == ["daisy", "sunflower", "harebell"])
    }

    @Test func anExclusiveFilterNarrowsTheMenu() throws {
        let result = try Self.catalogue.search(FilterSelection(exclusive: "grasses"))

        #expect(result.species.map(\.id) == ["hairgrass"])
        #expect(result.offeredFilters.map(\.id) == ["july", "august"])
        #expect(result.facets["july"] == 1)
        #expect(result.facets["wildflowers"] == 3)
    }

    @Test func noMatchIsAnEmptyListWithCounts() throws {
        let result = try Self.catalogue.search(FilterSelection(filters: ["white", "august"]))

        #expect(result.species.isEmpty)
        #expect(result.facets["july"] == 1)
        #expect(result.facets["yellow"] == 1)
    }

    @Test func unknownAndInapplicableFiltersAreRefused() throws {
        #expect(throws: FilterSelectionError.self) {
            try Self.catalogue.search(FilterSelection(filters: ["nope"]))
        }
        do {
            _ = try Self.catalogue.search(FilterSelection(exclusive: "grasses", filters: ["white"]))
            Issue.record("accepted")
        } catch {
            #expect(error.problems == [.notApplicable("white", exclusive: "grasses")])
        }
    }
}
