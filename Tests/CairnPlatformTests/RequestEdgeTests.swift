import CairnTestSupport
import ExternalProgram
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CairnPlatform

/// Edges of the HTTP layer (issue 13): security headers on every error, the body limit exactly as
/// documented, and compressed bodies that inflate too far answered 413 instead of a dropped connection.
@Suite struct RequestEdgeTests {
    @Test func errorResponsesCarryTheSecurityHeaders() async throws {
        try await withAccounts { cairn in
            let responses = [
                try await cairn.send(.GET, "/api/no-such-thing"),
                try await cairn.send(.GET, "/api/account"),
                try await cairn.send(.POST, "/api/session", json: [:]),
                try await cairn.send(
                    .POST, "/api/session", headers: ["Content-Type": "application/json"],
                    body: ByteBuffer(string: "{not json")),
            ]

            #expect(responses.map(\.status.code) == [404, 401, 422, 400])
            for response in responses {
                #expect(response.headers.first(name: "X-Content-Type-Options") == "nosniff")
                #expect(response.headers.first(name: "X-Frame-Options") == "DENY")
                #expect(
                    response.headers.first(name: "Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
            }
        }
    }

    @Test func aBodyOfExactlyTheLimitIsAcceptedAndOneByteMoreIs413() async throws {
        try await withCairn(
            { $0.maxBodyBytes = 2048 },
            { app in
                app.post("api", "echo") { req in "\(req.body.data?.readableBytes ?? 0)" }
                let tester = try await app.testingOverLoopback()

                let exact = try await tester.sendRequest(
                    .POST, "/api/echo", body: ByteBuffer(string: String(repeating: "x", count: 2048)))
                let over = try await tester.sendRequest(
                    .POST, "/api/echo", body: ByteBuffer(string: String(repeating: "x", count: 2049)))

                #expect(exact.status == .ok && exact.body.string == "2048")
                #expect(over.status == .payloadTooLarge)
                #expect(over.headers.first(name: "X-Content-Type-Options") == "nosniff")
            })
    }

    @Test func aGzipBodyIsReadAndOneThatInflatesPastTheLimitIs413() async throws {
        try await withCairn(
            { $0.maxBodyBytes = 4096 },
            { app in
                app.post("api", "echo") { req in req.body.string ?? "" }
                let tester = try await app.testingOverLoopback()
                let gzip: HTTPHeaders = ["Content-Encoding": "gzip"]

                let small = try await tester.sendRequest(
                    .POST, "/api/echo", headers: gzip, body: ByteBuffer(bytes: try Self.gzip(Array("hello".utf8))))
                let bomb = try await tester.sendRequest(
                    .POST, "/api/echo", headers: gzip,
                    body: ByteBuffer(bytes: try Self.gzip([UInt8](repeating: 0x20, count: 1_000_000))))
                let brotli = try await tester.sendRequest(
                    .POST, "/api/echo", headers: ["Content-Encoding": "br"], body: ByteBuffer(string: "hello"))

                #expect(small.status == .ok && small.body.string == "hello")
                #expect(bomb.status == .payloadTooLarge)
                #expect(bomb.problem?.detail.contains("once decompressed") == true)
                #expect(brotli.status == .unsupportedMediaType)
            })
    }

    /// `bytes` in the gzip format (RFC 1952), by the gzip program.
    private static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        try ExternalProgram.run("/bin/gzip", ["-9", "-c"], input: bytes).output
    }
}
