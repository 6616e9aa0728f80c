import CairnServer
import CairnTestSupport
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CairnPlatform

@Suite struct HTTPConventionTests {
    @Test func healthReportsTheDatabase() async throws {
        try await withCairn { app in
            let response = try await app.testing().sendRequest(.GET, "/healthz")

            #expect(response.status == .ok)
            let body = try response.decoded([String: String].self)
            #expect(body == ["status": "ok", "database": "ok", "disk": "ok"])
        }
    }

    @Test func healthIs503WhenTheDatabaseIsUnreachable() async throws {
        var config = testConfig(database: .postgres(URL(string: "postgres://cairn@127.0.0.1:1/cairn")!))
        config.dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-\(UUID())")
        let app = try await Application.make(.testing)
        defer { try? FileManager.default.removeItem(at: config.dataDirectory) }
        do {
            try await configure(app, config: config, services: .test())

            let response = try await app.testing().sendRequest(.GET, "/healthz")

            #expect(response.status == .serviceUnavailable)
            #expect(try response.decoded([String: String].self)["database"] == "unreachable")
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }

    @Test func unknownAPIRouteIsAProblemDocument() async throws {
        try await withCairn { app in
            let response = try await app.testing().sendRequest(.GET, "/api/no-such-thing")

            #expect(response.status == .notFound)
            #expect(response.headers.contentType?.description.hasPrefix("application/problem+json") == true)
            let problem = try #require(response.problem)
            #expect(problem.status == 404 && problem.title == "Not Found")
            #expect(problem.detail.contains("/api/no-such-thing"))
        }
    }

    @Test func everyResponseCarriesItsRequestIDAndSecurityHeaders() async throws {
        try await withCairn { app in
            let response = try await app.testing().sendRequest(.GET, "/healthz", headers: ["X-Request-Id": "abc-123"])

            #expect(response.headers.first(name: "X-Request-ID") == "abc-123")
            #expect(response.headers.first(name: "X-Content-Type-Options") == "nosniff")
            #expect(response.headers.first(name: "Content-Security-Policy")?.contains("default-src 'self'") == true)
            // Frames: only the ski tutorials' privacy-enhanced players, nothing else (not even this origin).
            let frames = response.headers.first(name: "Content-Security-Policy")?.split(separator: ";")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("frame-src") }
            #expect(frames == ["frame-src https://www.youtube-nocookie.com https://player.vimeo.com"])
        }
    }

    @Test func oversizedBodiesAreRefusedWith413() async throws {
        try await withCairn(
            { $0.maxBodyBytes = 2048 },
            { app in
                app.post("api", "echo") { req in req.body.string ?? "" }
                let body = ByteBuffer(string: String(repeating: "x", count: 4096))

                let response = try await app.testingOverLoopback().sendRequest(
                    .POST, "/api/echo", body: body)

                #expect(response.status == .payloadTooLarge)
                #expect(response.problem?.detail.contains("larger than this server accepts") == true)
            })
    }

    @Test func clientConfigTellsTheWebAppAboutTiles() async throws {
        try await withCairn(
            { $0.tileURLTemplate = "http://tiles.example/{z}/{x}/{y}.png" },
            { app in
                let response = try await app.testing().sendRequest(.GET, "/api/client-config")

                #expect(response.status == .ok)
                #expect(
                    try response.decoded([String: String].self)["tile_url"] == "http://tiles.example/{z}/{x}/{y}.png")
            })
    }
}
