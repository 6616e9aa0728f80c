import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import NIOConcurrencyHelpers
import Testing
import Vapor
import VaporTesting

@testable import CairnFlora

/// `PUT /api/flora/observations/{id}` and reading them back: uploads by device-made id, applied once.
@Suite struct ObservationsAPITests {
    @Test func anObservationNeedsAnAccount() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()

            let response = try await cairn.upload(UUID(), FloraSamples.observation(), token: nil)

            #expect(response.status == .unauthorized)
            #expect(try await cairn.observationCount() == 0)
        }
    }

    @Test func anUploadIsStoredOnceAndTheSameUploadAgainGetsTheSameAnswer() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()
            let ada = try await cairn.register("ada")
            let id = UUID()

            let first = try await cairn.upload(id, FloraSamples.observation(), token: ada.token)
            // The answer was lost on the way back: the device sends the same upload again.
            let retry = try await cairn.upload(id, FloraSamples.observation(), token: ada.token)

            #expect(first.status == .created, "\(first.body.string)")
            #expect(retry.status == .ok)
            let stored = try first.decoded(FloraObservation.self)
            #expect(try retry.decoded(FloraObservation.self) == stored)
            #expect(stored.status == "unverified")
            #expect(stored.mine)
            #expect(stored.speciesCommonName == "Moss campion")
            #expect(try await cairn.observationCount(id) == 1)
            let mine = try await cairn.send(.GET, "/api/flora/observations", token: ada.token)
                .decoded(FloraObservationList.self)
            #expect(mine.observations.map(\.id) == [id])
        }
    }

    @Test func fiftyConcurrentUploadsOfOneIDMakeOneRow() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()
            let ada = try await cairn.register("ada")
            let id = UUID()
            let statuses = NIOLockedValueBox<[UInt]>([])

            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        let response = try await cairn.upload(id, FloraSamples.observation(), token: ada.token)
                        statuses.withLockedValue { $0.append(response.status.code) }
                    }
                }
                try await group.waitForAll()
            }

            let codes = statuses.withLockedValue { $0 }
            #expect(codes.filter { $0 == 201 }.count == 1)
            #expect(codes.filter { $0 == 200 }.count == 49)
            #expect(try await cairn.observationCount() == 1)
        }
    }

    @Test func anotherUploadUnderTheSameIDIsAConflict() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()
            let ada = try await cairn.register("ada")
            let bob = try await cairn.register("bob")
            let id = UUID()
            _ = try await cairn.upload(id, FloraSamples.observation(), token: ada.token)

            let changed = try await cairn.upload(id, FloraSamples.observation(comment: "other"), token: ada.token)
            let stolen = try await cairn.upload(id, FloraSamples.observation(), token: bob.token)

            #expect(changed.status == .conflict)
            #expect(stolen.status == .conflict)
            #expect(stolen.problem?.detail.contains("someone else's") == true)
            let kept = try await cairn.send(.GET, "/api/flora/observations/\(id.uuidString)", token: ada.token)
                .decoded(FloraObservation.self)
            #expect(kept.comment == "Cushion in full bloom")
        }
    }

    @Test func everyBadMemberIsNamed() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()
            let ada = try await cairn.register("ada")
            var body = FloraSamples.observation(species: "no-such-plant", latitude: 91)
            body["observed_at"] = "2999-01-01T00:00:00Z"
            body["photo"] = "!!!"
            body["thumbnail"] = .string(Data(count: ObservationForm.maxThumbnailBytes + 1).base64EncodedString())
            body["user_id"] = "someone"

            let unknown = try await cairn.upload(UUID(), body, token: ada.token)
            body["user_id"] = nil
            let response = try await cairn.upload(UUID(), body, token: ada.token)

            #expect(unknown.status == .unprocessableEntity)
            #expect(unknown.invalidFields == ["user_id"])
            #expect(response.status == .unprocessableEntity)
            #expect(Set(response.invalidFields) == ["species_id", "latitude", "observed_at", "photo", "thumbnail"])
            #expect(response.fieldError("photo") == "The photo must be a JPEG or PNG picture in base64.")
            #expect(response.fieldError("thumbnail") == "The thumbnail is larger than 512 KiB; choose a smaller one.")
            #expect(try await cairn.observationCount() == 0)
        }
    }

    @Test func noServedPhotoCarriesGPSOrEXIF() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()
            let ada = try await cairn.register("ada")
            let jpeg = TestImages.jpegWithMetadata()
            let png = try TestImages.png(
                width: 600, height: 400, extraChunks: [TestImages.textChunk("GPSLatitude", "40.0552 N")])
            let jpegID = UUID(), pngID = UUID()

            let jpegUpload = try await cairn.upload(jpegID, FloraSamples.observation(photo: jpeg), token: ada.token)
            let pngUpload = try await cairn.upload(pngID, FloraSamples.observation(photo: png), token: ada.token)

            #expect(jpegUpload.status == .created, "\(jpegUpload.body.string)")
            #expect(pngUpload.status == .created, "\(pngUpload.body.string)")
            for id in [jpegID, pngID] {
                for kind in ["photo", "thumbnail"] {
                    let served = try await cairn.send(.GET, "/api/flora/observations/\(id.uuidString)/\(kind)")
                    #expect(served.status == .ok)
                    let text = String(decoding: Data(buffer: served.body), as: UTF8.self)
                    #expect(!text.contains("GPS"))
                    #expect(!text.contains("Exif"))
                    #expect(!text.contains("secret"))
                }
            }
            let thumbnail = try await cairn.send(.GET, "/api/flora/observations/\(pngID.uuidString)/thumbnail")
            let photo = try await cairn.send(.GET, "/api/flora/observations/\(pngID.uuidString)/photo")
            #expect(thumbnail.body.readableBytes < photo.body.readableBytes)
        }
    }

    @Test func deletingAnObservationRemovesItAndItsPhoto() async throws {
        try await withAccounts { cairn in
            try await cairn.seedFlora()
            let ada = try await cairn.register("ada")
            let bob = try await cairn.register("bob")
            let id = UUID()
            _ = try await cairn.upload(
                id, FloraSamples.observation(photo: TestImages.jpegWithMetadata()), token: ada.token)

            let notBobs = try await cairn.send(.DELETE, "/api/flora/observations/\(id.uuidString)", token: bob.token)
            let deleted = try await cairn.send(.DELETE, "/api/flora/observations/\(id.uuidString)", token: ada.token)

            #expect(notBobs.status == .notFound)
            #expect(deleted.status == .noContent)
            #expect(try await cairn.observationCount() == 0)
            #expect(try await cairn.send(.GET, "/api/flora/observations/\(id.uuidString)/photo").status == .notFound)
        }
    }
}
