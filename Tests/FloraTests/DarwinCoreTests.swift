import ExternalProgram
import Foundation
import Geo
import Testing

@testable import Flora

@Suite struct DarwinCoreTests {
    static let occurrence = DarwinCoreArchive.Occurrence(
        occurrenceID: "urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e", scientificName: "Silene acaulis",
        vernacularName: "Moss campion", family: "Caryophyllaceae", decimalLatitude: 40.0552,
        decimalLongitude: -105.5905, coordinateUncertaintyInMeters: 5,
        eventDate: Date(timeIntervalSince1970: 1_720_953_000), recordedBy: "ada", verified: true,
        dataGeneralizations: nil, occurrenceRemarks: "two\tlines\nhere")

    @Test func occurrenceTextHasOneHeaderAndCleanFields() {
        let text = DarwinCoreArchive.occurrenceText([Self.occurrence])
        let lines = text.split(separator: "\n")

        #expect(lines.count == 2)
        #expect(lines[0].split(separator: "\t").count == DarwinCoreArchive.terms.count)
        let fields = lines[1].split(separator: "\t", omittingEmptySubsequences: false)
        #expect(fields.count == DarwinCoreArchive.terms.count)
        #expect(fields[1] == "HumanObservation")
        #expect(fields[12] == "verified")
        #expect(fields.last == "two lines here")
    }

    @Test func theArchiveIsAZipWhoseEntriesInflateToTheirContents() throws {
        let bytes = try DarwinCoreArchive.archive([Self.occurrence], title: "Test", created: Date())

        let entries = try Self.unzip(bytes)

        #expect(Set(entries.keys) == ["meta.xml", "eml.xml", "occurrence.txt"])
        #expect(entries["occurrence.txt"] == DarwinCoreArchive.occurrenceText([Self.occurrence]))
        #expect(entries["meta.xml"]?.contains("http://rs.tdwg.org/dwc/terms/identificationVerificationStatus") == true)
    }

    @Test func aGeneralisedPointStaysInItsCellAndItsUncertaintyCoversIt() {
        let truth = Coordinate(latitude: 40.0552, longitude: -105.5905)

        let shown = Generalization.generalize(truth, unit: (0.99, 0.01))

        #expect(shown.coordinate.latitude >= 40.0 && shown.coordinate.latitude < 40.2)
        #expect(shown.coordinate.longitude >= -105.6 && shown.coordinate.longitude < -105.4)
        #expect(shown.coordinate != truth)
        #expect(shown.uncertaintyMeters >= shown.coordinate.haversineDistance(to: truth))
    }

    /// The archive's entries as Info-ZIP's `unzip` reads them (it checks every entry's CRC-32).
    static func unzip(_ bytes: [UInt8]) throws -> [String: String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("dwca-\(UUID().uuidString).zip")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        func run(_ arguments: [String]) throws -> String {
            let unzip = try ExternalProgram.run("/usr/bin/unzip", arguments)
            #expect(unzip.status == 0, "unzip \(arguments) failed: \(unzip.errorText)")
            return String(decoding: unzip.output, as: UTF8.self)
        }
        _ = try run(["-tq", file.path])
        let names = try run(["-Z1", file.path]).split(separator: "\n").map(String.init)
        var entries: [String: String] = [:]
        for name in names { entries[name] = try run(["-p", file.path, name]) }
        return entries
    }
}
