import CairnAPI
import CairnTestSupport
import ExternalProgram
import Flora
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnFlora

/// Distribution maps and the Darwin Core export, with sensitive species generalised.
@Suite struct MapAndExportAPITests {
    struct SpeciesMap: Decodable {
        struct Feature: Decodable {
            var geometry: Geometry
            var properties: [String: JSONValue]
        }

        var type: String
        var features: [Feature]
        var photoRangeM: Int

        enum CodingKeys: String, CodingKey {
            case type, features
            case photoRangeM = "photo_range_m"
        }
    }

    @Test func aSpeciesMapHasBlueVerifiedAndRedUnverifiedPinsAndNoRejectedOnes() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()
            let ada = try await cairn.register("ada")
            let researcher = try await cairn.researcher("botanist")
            let verified = UUID(), pending = UUID(), rejected = UUID()
            _ = try await cairn.upload(verified, FloraSamples.observation(), token: researcher.token)
            _ = try await cairn.upload(pending, FloraSamples.observation(latitude: 40.06), token: ada.token)
            _ = try await cairn.upload(rejected, FloraSamples.observation(latitude: 40.07), token: ada.token)
            _ = try await cairn.send(
                .POST, "/api/flora/observations/\(rejected.uuidString)/verification",
                json: ["status": "rejected", "reason": "Blurred"], token: researcher.token)

            let response = try await cairn.send(.GET, "/api/flora/species/silene-acaulis/observations")
            let boxed = try await cairn.send(
                .GET, "/api/flora/species/silene-acaulis/observations?bbox=-105.6,40.05,-105.58,40.058")
            let badBox = try await cairn.send(.GET, "/api/flora/species/silene-acaulis/observations?bbox=1,2,3")

            #expect(response.status == .ok)
            #expect(response.headers.contentType?.description.hasPrefix("application/geo+json") == true)
            let map = try response.decoded(SpeciesMap.self)
            #expect(map.type == "FeatureCollection")
            #expect(map.photoRangeM == 250)
            let byID = Dictionary(
                uniqueKeysWithValues: map.features.map { ($0.properties["id"], $0.properties["verified"]) })
            #expect(byID[.string(verified.uuidString.lowercased())] == .bool(true))
            #expect(byID[.string(pending.uuidString.lowercased())] == .bool(false))
            #expect(byID[.string(rejected.uuidString.lowercased())] == nil)
            #expect(try boxed.decoded(SpeciesMap.self).features.count == 1)
            #expect(badBox.status == .unprocessableEntity)
            #expect(badBox.invalidFields == ["bbox"])
        }
    }

    @Test func aSensitiveSpeciesTruePointAppearsInNoPublicAnswerOrExport() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()
            let ada = try await cairn.register("ada")
            let bob = try await cairn.register("bob")
            let researcher = try await cairn.researcher("botanist")
            let id = UUID()
            let truth = (latitude: 40.054321, longitude: -105.598765)
            let upload = try await cairn.upload(
                id,
                FloraSamples.observation(
                    species: "campanula-uniflora", latitude: truth.latitude, longitude: truth.longitude),
                token: ada.token)
            #expect(upload.status == .created)
            let path = "/api/flora/observations/\(id.uuidString)"
            let latitude = String(format: "%.4f", truth.latitude), longitude = String(format: "%.4f", truth.longitude)

            let publicAnswers = [
                try await cairn.send(.GET, path).body.string,
                try await cairn.send(.GET, path, token: bob.token).body.string,
                try await cairn.send(.GET, "/api/flora/species/campanula-uniflora/observations").body.string,
                try await cairn.send(.GET, "/api/flora/species/campanula-uniflora/observations", token: bob.token)
                    .body.string,
            ]
            let export = try await cairn.send(.GET, "/api/flora/export/dwca.zip")
            let occurrences = try DwCA.occurrenceText(Array(buffer: export.body))
            let own = try await cairn.send(.GET, path, token: ada.token).decoded(FloraObservation.self)
            let researchers = try await cairn.send(.GET, path, token: researcher.token).decoded(FloraObservation.self)
            let shown = try await cairn.send(.GET, path).decoded(FloraObservation.self)
            let again = try await cairn.send(.GET, path).decoded(FloraObservation.self)

            for answer in publicAnswers + [occurrences] {
                #expect(!answer.contains(latitude))
                #expect(!answer.contains(longitude))
            }
            #expect(occurrences.contains(Generalization.note))
            #expect(own.latitude == truth.latitude && !own.generalised)
            #expect(researchers.latitude == truth.latitude)
            #expect(shown.generalised)
            #expect(shown.latitude == again.latitude && shown.longitude == again.longitude)
            #expect(abs(shown.latitude - truth.latitude) < 0.2)
        }
    }

    @Test func theExportIsADarwinCoreArchiveOfTheNonRejectedObservations() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora(observations: true)

            let response = try await cairn.send(.GET, "/api/flora/export/dwca.zip")

            #expect(response.status == .ok)
            #expect(response.headers.contentType?.description == "application/zip")
            let text = try DwCA.occurrenceText(Array(buffer: response.body))
            let lines = text.split(separator: "\n")
            #expect(lines.first?.hasPrefix("occurrenceID\tbasisOfRecord\tscientificName") == true)
            #expect(lines.count == 1 + 369)
            #expect(lines.dropFirst().allSatisfy { $0.contains("\tHumanObservation\t") })
        }
    }
}

/// Reads an archive with Info-ZIP's `unzip`.
enum DwCA {
    static func occurrenceText(_ bytes: [UInt8]) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("dwca-\(UUID().uuidString).zip")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let unzip = try ExternalProgram.run("/usr/bin/unzip", ["-p", file.path, "occurrence.txt"])
        return String(decoding: unzip.output, as: UTF8.self)
    }
}
