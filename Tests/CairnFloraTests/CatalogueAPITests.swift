import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnFlora

/// `/api/flora/species` and `/api/flora/catalogue`: the field guide, its filters and species pages.
@Suite struct CatalogueAPITests {
    @Test func theGuideListsEverySpeciesByCommonNameWithTheFilterMenu() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()

            let response = try await cairn.send(.GET, "/api/flora/species")

            #expect(response.status == .ok)
            let list = try response.decoded(FloraSpeciesList.self)
            #expect(list.count == 98)
            #expect(
                list.species.map(\.commonName)
                    == list.species.map(\.commonName).sorted { $0.lowercased() < $1.lowercased() })
            #expect(list.exclusiveFilters.map(\.id) == ["wildflowers", "grasses", "shrubs", "ferns"])
            #expect(list.availableFilters.contains { $0.id == "color-pink" && $0.count > 0 })
        }
    }

    @Test func filtersNarrowTheListAndFacetsCountWhatEachWouldLeave() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()

            let pink = try await cairn.send(.GET, "/api/flora/species?filter=color-pink&filter=habitat-fellfield")
                .decoded(FloraSpeciesList.self)
            let pinkOrBlue = try await cairn.send(
                .GET, "/api/flora/species?filter=color-pink,color-blue&filter=habitat-fellfield"
            ).decoded(FloraSpeciesList.self)

            #expect(pink.species.contains { $0.id == "silene-acaulis" })
            #expect(pink.species.allSatisfy { $0.flowerColors.contains("pink") && $0.habitats.contains("fellfield") })
            #expect(pinkOrBlue.count > pink.count)
            let blue = try #require(pink.availableFilters.first { $0.id == "color-blue" })
            #expect(blue.count == pinkOrBlue.count)
            #expect(pink.availableFilters.first { $0.id == "color-pink" }?.selected == true)
        }
    }

    @Test func anExclusiveFilterOffersOnlyItsFiltersAndRefusesOthers() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()

            let grasses = try await cairn.send(.GET, "/api/flora/species?exclusive=grasses")
                .decoded(FloraSpeciesList.self)
            let refused = try await cairn.send(.GET, "/api/flora/species?exclusive=grasses&filter=color-pink")
            let unknown = try await cairn.send(.GET, "/api/flora/species?filter=color-plaid")

            #expect(grasses.species.allSatisfy { $0.group == "graminoid" })
            #expect(grasses.count >= 10)
            #expect(!grasses.availableFilters.contains { $0.group == "Flower colour" })
            #expect(grasses.availableFilters.contains { $0.id == "family-cyperaceae" })
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.fieldError("filter")?.contains("does not apply to grasses") == true)
            #expect(unknown.status == .unprocessableEntity)
            #expect(unknown.fieldError("filter") == "There is no filter color-plaid.")
        }
    }

    @Test func theListComesInPagesWithTheTotalCount() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()

            let all = try await cairn.send(.GET, "/api/flora/species").decoded(FloraSpeciesList.self)
            let page = try await cairn.send(.GET, "/api/flora/species?limit=10&offset=20")
                .decoded(FloraSpeciesList.self)
            let bad = try await cairn.send(.GET, "/api/flora/species?limit=0&offset=-1")

            #expect(page.count == 98)
            #expect(page.species.map(\.id) == Array(all.species.map(\.id)[20..<30]))
            #expect(bad.status == .unprocessableEntity)
            #expect(Set(bad.invalidFields) == ["limit", "offset"])
        }
    }

    @Test func filtersThatMatchNothingGiveAnEmptyList() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()

            let response = try await cairn.send(
                .GET, "/api/flora/species?exclusive=ferns&filter=habitat-wet-meadow")

            #expect(response.status == .ok)
            let list = try response.decoded(FloraSpeciesList.self)
            #expect(list.count == 0)
            #expect(list.species.isEmpty)
        }
    }

    @Test func aSpeciesPageHasItsFamilyOrderAndDescription() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora(observations: true)

            let page = try await cairn.send(.GET, "/api/flora/species/silene-acaulis").decoded(FloraSpeciesDetail.self)
            let missing = try await cairn.send(.GET, "/api/flora/species/no-such-plant")

            #expect(page.species.scientificName == "Silene acaulis")
            #expect(page.species.commonName == "Moss campion")
            #expect(page.tags.map(\.id).prefix(2) == ["family-caryophyllaceae", "order-caryophyllales"])
            #expect(page.description.contains("cushion"))
            #expect(page.observationCount > 0)
            #expect(missing.status == .notFound)
        }
    }

    @Test func theWholeCatalogueIsServedForTheDeviceWithAnETag() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()

            let first = try await cairn.send(.GET, "/api/flora/catalogue")
            let etag = try #require(first.headers.first(name: .eTag))
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: .ifNoneMatch, value: etag)
            let again = try await cairn.send(.GET, "/api/flora/catalogue", headers: headers)

            let catalogue = try first.decoded(FloraCatalogue.self)
            #expect(catalogue.species.count == 98)
            #expect(catalogue.filters.count > 30)
            #expect(catalogue.tags.contains { $0.id == "family-rosaceae" && $0.parentId == "order-rosales" })
            #expect(again.status == .notModified)
        }
    }
}
