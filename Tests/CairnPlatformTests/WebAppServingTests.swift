import CairnTestSupport
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CairnPlatform

@Suite struct WebAppServingTests {
    @Test func rootServesTheAppShell() async throws {
        try await withCairn { app in
            let response = try await app.testing().sendRequest(.GET, "/")

            #expect(response.status == .ok)
            #expect(response.headers.contentType?.subType == "html")
            #expect(response.body.string.contains("<title>Cairn</title>"))
        }
    }

    @Test func leafletIsServedFromItsInstallFolder() async throws {
        try await withCairn { app in
            let response = try await app.testing().sendRequest(.GET, "/vendor/leaflet/leaflet.js")

            #expect(response.status == .ok)
            #expect(response.headers.contentType?.subType == "javascript")
        }
    }

    @Test func pathsClimbingOutOfTheWebFolderAreNotServed() async throws {
        try await withCairn { app in
            let response = try await app.testing().sendRequest(.GET, "/%2E%2E/Package.swift")

            #expect(response.status == .notFound)
        }
    }

    @Test func serviceWorkerMayControlTheWholeApp() async throws {
        try await withCairn { app in
            let response = try await app.testing().sendRequest(.GET, "/sw.js")

            #expect(response.status == .ok)
            #expect(response.headers.first(name: "Service-Worker-Allowed") == "/")
        }
    }
}
