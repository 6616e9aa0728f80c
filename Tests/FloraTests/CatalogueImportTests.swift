import CSVTables
import Foundation
import Testing

@testable import Flora

@Suite struct CatalogueImportTests {
    static let tags = """
        id,name,kind,parent_id
        order-caryophyllales,Caryophyllales,order,
        family-caryophyllaceae,Caryophyllaceae,family,order-caryophyllales
        family-rosaceae,Rosaceae,family,
        form-cushion,Cushion plant,form,

        """
    static let header =
        "id,scientific_name,common_name,family,group,flower_colors,flowering_months,habitats,elevation_min_m,elevation_max_m,sensitive,tags,image,description\n"

    static func table(_ name: String, _ text: String) throws -> CSVTable {
        try CSVTable(name: name, bytes: Array(text.utf8))
    }

    static func parse(species: String? = nil, observations: String? = nil) throws(ImportReport) -> CatalogueImport {
        let speciesTable = try? species.map { try table("species.csv", $0) }
        let observationTable = try? observations.map { try table("observations.csv", $0) }
        return try CatalogueImport.parse(
            species: speciesTable, tags: try? table("tags.csv", tags), filters: nil, observations: observationTable)
    }

    @Test func aGoodSpeciesFileParses() throws {
        let result = try Self.parse(
            species: Self.header
                + "silene-acaulis,Silene acaulis,Moss campion,Caryophyllaceae,wildflower,pink,6;7,fellfield,3200,4300,,form-cushion,,\"A cushion, pink.\"\n"
        )

        #expect(result.species.count == 1)
        #expect(result.species[0].floweringMonths == [6, 7])
        #expect(result.species[0].flowerColors == [.pink])
        #expect(result.species[0].description == "A cushion, pink.")
        #expect(result.tags.count == 4)
    }

    @Test func aMissingColumnIsReportedOnLineOne() throws {
        do {
            _ = try Self.parse(species: "id,scientific_name,family,group\nx,X y,Rosaceae,wildflower\n")
            Issue.record("imported")
        } catch {
            #expect(error.issues.map(\.line) == [1])
            #expect(error.issues[0].column == "common_name")
            #expect(error.issues[0].description.contains("species.csv line 1, column common_name"))
        }
    }

    @Test func anUnknownFamilyADuplicateIDAndABadMonthAreEachReportedByLineAndColumn() throws {
        let species =
            Self.header
            + "a-b,A b,Ab,Rosaceae,wildflower,,6,,,,,,,\n"
            + "c-d,C d,Cd,Fabaceae,wildflower,,6,,,,,,,\n"
            + "a-b,E f,Ef,Rosaceae,wildflower,,13,,,,,,,\n"

        do {
            _ = try Self.parse(species: species)
            Issue.record("imported")
        } catch {
            let places = error.issues.map { "\($0.line ?? 0):\($0.column ?? "")" }
            #expect(places.contains("3:family"))
            #expect(places.contains("4:flowering_months"))
            #expect(places.contains("4:id"))
            #expect(
                error.issues.first { $0.column == "family" }?.message.contains("Fabaceae is not a known family") == true
            )
            #expect(error.issues.first { $0.column == "id" }?.message.contains("first on line 2") == true)
        }
    }

    @Test func badCoordinatesAndUnknownSpeciesInObservationsAreReported() throws {
        let species = Self.header + "a-b,A b,Ab,Rosaceae,wildflower,,6,,,,,,,\n"
        let observations = """
            id,species_id,latitude,longitude,accuracy_m,observed_at,recorded_by,status,comment
            0f8fad5b-d9cb-469f-a165-70867728950e,a-b,40.05,-105.59,5,2024-07-14T10:30:00Z,R. Ranger,verified,
            7c9e6679-7425-40de-944b-e07fc1f90ae7,a-b,95.2,-105.59,5,2024-07-14,R. Ranger,,
            7c9e6679-7425-40de-944b-e07fc1f90ae8,x-y,40.05,-205,5,2024-07-14,R. Ranger,,

            """

        do {
            _ = try Self.parse(species: species, observations: observations)
            Issue.record("imported")
        } catch {
            let places = Set(error.issues.map { "\($0.line ?? 0):\($0.column ?? "")" })
            #expect(places == ["3:latitude", "4:longitude", "4:species_id"])
        }
    }

    @Test func theDemoFilesAreValidAndReal() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/CairnFlora/Resources/demo")
        func table(_ name: String) throws -> CSVTable {
            try CSVTable(name: name, bytes: Array(try Data(contentsOf: folder.appendingPathComponent(name))))
        }

        let result = try CatalogueImport.parse(
            species: try table("species.csv"), tags: try table("tags.csv"), filters: try table("filters.csv"),
            observations: try table("observations.csv"))

        #expect(result.species.count >= 60)
        #expect(result.observations.count >= 300)
        #expect(result.species.contains { $0.scientificName == "Silene acaulis" && $0.family == "Caryophyllaceae" })
        #expect(result.filters.filter(\.exclusive).count == 4)
    }
}
