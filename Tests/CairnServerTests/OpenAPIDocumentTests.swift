import CairnPlatform
import CairnTestSupport
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CairnServer

@Suite struct OpenAPIDocumentTests {
    @Test func everyRegisteredRouteIsDocumentedAndEveryDocumentedRouteExists() async throws {
        try await withComposedCairn { app, cairn in
            let document = try cairn.openAPIDocument()
            let registered = Set(app.routes.all.map { OpenAPIDocument.operation(method: $0.method, path: $0.path) })

            let undocumented = registered.subtracting(document.operations)
            let unregistered = document.operations.subtracting(registered)

            #expect(undocumented.isEmpty, "routes missing from the OpenAPI document: \(undocumented.sorted())")
            #expect(unregistered.isEmpty, "documented operations with no route: \(unregistered.sorted())")
        }
    }

    @Test func servedDocumentIsOpenAPI31() async throws {
        try await withCairn { app in
            let response = try await app.testing().sendRequest(.GET, "/openapi.json")

            #expect(response.status == .ok)
            let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            #expect(object?["openapi"] as? String == "3.1.0")
            #expect((object?["paths"] as? [String: Any])?["/healthz"] != nil)
        }
    }
}
