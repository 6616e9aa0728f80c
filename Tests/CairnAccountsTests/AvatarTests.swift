import CairnAPI
import CairnTestSupport
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CairnAccounts
@testable import CairnPlatform

@Suite struct AvatarTests {
    private func upload(_ cairn: AccountsHarness, _ bytes: [UInt8], token: String?, type: String = "image/png")
        async throws
        -> TestingHTTPResponse
    {
        try await cairn.send(
            .PUT, "/api/account/avatar", token: token, headers: ["Content-Type": type], body: ByteBuffer(bytes: bytes))
    }

    @Test func anUploadedPictureIsSanitisedStoredAndServed() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()
            let png = try TestImages.png(
                width: 900, height: 900, extraChunks: [TestImages.textChunk("Comment", "home address")])

            let response = try await upload(cairn, png, token: user.token)

            #expect(response.status == .ok)
            let profile = try response.decoded(Account.self).profile
            #expect(profile.hasCustomAvatar)
            let picture = try await cairn.send(.GET, String(profile.avatarURL.prefix { $0 != "?" }))
            #expect(picture.status == .ok && picture.headers.contentType?.description == "image/png")
            let served = Array(buffer: picture.body)
            #expect(!String(decoding: served, as: UTF8.self).contains("home address"))
            let image = try PNGCodec.decode(served, maxPixels: 1_000_000)
            #expect(image.width == 512 && image.height == 512)
        }
    }

    @Test func aJPEGLosesItsMetadata() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()

            let response = try await upload(cairn, TestImages.jpegWithMetadata(), token: user.token, type: "image/jpeg")

            let url = try response.decoded(Account.self).profile.avatarURL
            let served = try await cairn.send(.GET, String(url.prefix { $0 != "?" }))
            #expect(served.headers.contentType?.description == "image/jpeg")
            #expect(!served.body.string.contains("GPS"))
        }
    }

    @Test func replacingAJPEGWithAPNGLeavesOneFile() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()
            _ = try await upload(cairn, TestImages.jpegWithMetadata(), token: user.token, type: "image/jpeg")

            _ = try await upload(cairn, try TestImages.png(width: 8, height: 8), token: user.token)

            let folder = cairn.cairn.platform.userFiles.folder(for: user.id).appendingPathComponent("accounts")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["avatar.png"])
        }
    }

    @Test func otherFormatsBrokenFilesAndEmptyBodiesAreRefused() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()
            var broken = try TestImages.png(width: 8, height: 8)
            broken[45] ^= 0x55

            let gif = try await upload(cairn, Array("GIF89a\u{1}\u{0}".utf8), token: user.token, type: "image/gif")
            let damaged = try await upload(cairn, broken, token: user.token)
            let empty = try await upload(cairn, [], token: user.token)

            #expect(gif.status == .unsupportedMediaType)
            #expect(damaged.status == .unprocessableEntity && damaged.invalidFields == ["avatar"])
            #expect(empty.status == .unprocessableEntity)
        }
    }

    @Test func picturesOverTheSizeLimitAre413() async throws {
        try await withAccounts(
            { $0.accounts.avatarMaxBytes = 20_000 },
            { cairn in
                let user = try await cairn.register()
                let big = try TestImages.png(
                    width: 300, height: 300,
                    extraChunks: [TestImages.textChunk("pad", String(repeating: "x", count: 30_000))])

                let response = try await cairn.app.testingOverLoopback().sendRequest(
                    .PUT, "/api/account/avatar",
                    headers: ["Authorization": "Bearer \(user.token)", "Content-Type": "image/png"],
                    body: ByteBuffer(bytes: big))

                #expect(response.status == .payloadTooLarge)
            })
    }

    @Test func removingThePictureBringsBackTheDefaultAvatar() async throws {
        try await withAccounts { cairn in
            let user = try await cairn.register()
            _ = try await upload(cairn, try TestImages.png(width: 8, height: 8), token: user.token)

            let response = try await cairn.send(.DELETE, "/api/account/avatar", token: user.token)

            #expect(try response.decoded(Account.self).profile.avatarURL == "/icons/avatar-default.svg")
            #expect(try await cairn.send(.GET, "/api/users/\(user.id)/avatar").status == .notFound)
        }
    }

    @Test func guestsCannotUpload() async throws {
        try await withAccounts { cairn in
            let response = try await upload(cairn, try TestImages.png(width: 8, height: 8), token: nil)

            #expect(response.status == .unauthorized)
            #expect(response.problem?.detail.contains("to add a profile picture") == true)
        }
    }
}
