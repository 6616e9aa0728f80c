import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnFlora

/// `POST /api/flora/import`: researchers' CSV imports, all or nothing, with line-numbered reports.
@Suite struct ImportAPITests {
    static let header =
        "id,scientific_name,common_name,family,group,flower_colors,flowering_months,habitats,elevation_min_m,elevation_max_m,sensitive,tags,image,description\r\n"
    static let goodRow =
        "primula-egaliksensis,Primula egaliksensis,Greenland primrose,Primulaceae,wildflower,white,6;7,wet-meadow,3000,3600,yes,,,\"A small, white primrose; rare.\"\r\n"

    static func bytes(_ text: String, bom: Bool = false) -> [UInt8] {
        (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
    }

    @Test func onlyResearchersImport() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()
            let user = try await cairn.register("walker")
            let files = ["species": (name: "species.csv", bytes: Self.bytes(Self.header + Self.goodRow))]

            let guest = try await cairn.importCSV(files, token: nil)
            let walker = try await cairn.importCSV(files, token: user.token)

            #expect(guest.status == .unauthorized)
            #expect(walker.status == .forbidden)
            #expect(try await cairn.send(.GET, "/api/flora/species/primula-egaliksensis").status == .notFound)
        }
    }

    @Test func aGoodFileWithBOMAndCRLFImportsAndTheSameFileAgainChangesNothing() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()
            let researcher = try await cairn.researcher("botanist")
            let files = ["species": (name: "species.csv", bytes: Self.bytes(Self.header + Self.goodRow, bom: true))]

            let first = try await cairn.importCSV(files, token: researcher.token)
            let second = try await cairn.importCSV(files, token: researcher.token)

            #expect(first.status == .ok, "\(first.body.string)")
            let result = try first.decoded(FloraImportResult.self)
            #expect(result.species == FloraImportCounts(created: 1, updated: 0, unchanged: 0))
            let again = try second.decoded(FloraImportResult.self)
            #expect(again.species == FloraImportCounts(created: 0, updated: 0, unchanged: 1))
            #expect(again.catalogueVersion == result.catalogueVersion)
            let page = try await cairn.send(.GET, "/api/flora/species/primula-egaliksensis")
                .decoded(FloraSpeciesDetail.self)
            #expect(page.description == "A small, white primrose; rare.")
            #expect(page.species.sensitive)
        }
    }

    @Test func eachKindOfBadRowIsReportedByLineAndNothingIsImported() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()
            let researcher = try await cairn.researcher("botanist")
            let species =
                Self.header + Self.goodRow
                + "fake-one,Fakeus unus,Fake one,Nonexistaceae,wildflower,,7,,,,,,,\r\n"
                + "primula-egaliksensis,Primula duplicata,Twice,Primulaceae,wildflower,,7,,,,,,,\r\n"
            let observations = """
                id,species_id,latitude,longitude,accuracy_m,observed_at,recorded_by,status,comment
                0f8fad5b-d9cb-469f-a165-70867728950e,silene-acaulis,140.05,-105.59,5,2024-07-14T10:30:00Z,R. Ranger,verified,

                """

            let response = try await cairn.importCSV(
                [
                    "species": (name: "species.csv", bytes: Self.bytes(species)),
                    "observations": (name: "observations.csv", bytes: Self.bytes(observations)),
                ], token: researcher.token)

            #expect(response.status == .unprocessableEntity)
            let details = response.problem?.errors?.map(\.detail) ?? []
            #expect(
                details.contains {
                    $0.hasPrefix("species.csv line 3, column family: Nonexistaceae is not a known family")
                })
            #expect(
                details.contains {
                    $0.hasPrefix(
                        "species.csv line 4, column id: the id primula-egaliksensis is used twice (first on line 2)")
                })
            #expect(details.contains { $0.hasPrefix("observations.csv line 2, column latitude:") })
            #expect(response.problem?.detail.hasPrefix("Nothing was imported") == true)
            #expect(try await cairn.send(.GET, "/api/flora/species/primula-egaliksensis").status == .notFound)
            #expect(try await cairn.observationCount() == 0)
        }
    }

    @Test func aMissingColumnAndAWrongEncodingAreRefused() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()
            let researcher = try await cairn.researcher("botanist")
            let latin1 =
                Array("id,name,kind,parent_id\r\nform-creeping,Rampante ".utf8) + [0xE0] + Array(",form,\r\n".utf8)

            let missing = try await cairn.importCSV(
                ["species": (name: "species.csv", bytes: Self.bytes("id,scientific_name\r\nx,X y\r\n"))],
                token: researcher.token)
            let encoding = try await cairn.importCSV(
                ["tags": (name: "tags.csv", bytes: latin1)], token: researcher.token)

            #expect(missing.status == .unprocessableEntity)
            #expect(missing.fieldError("species")?.contains("species.csv line 1, column common_name") == true)
            #expect(encoding.status == .unprocessableEntity)
            #expect(encoding.fieldError("tags")?.contains("not UTF-8") == true)
            #expect(encoding.fieldError("tags")?.contains("line 2") == true)
        }
    }
}
