import CairnAPI
import CairnAccounts
import CairnServer
import CairnTestSupport
import Fluent
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnFlora

extension AccountsHarness {
    /// Loads the demo catalogue (species, tags, filters), and its demo observations when asked.
    func seedFlora(observations: Bool = false) async throws {
        var files = try FloraModule.demoFiles()
        if !observations { files.observations = nil }
        _ = try await cairn.flora.importFiles(files, on: app.db)
    }

    /// A registered user made a researcher.
    func researcher(_ username: String) async throws -> TestUser {
        let user = try await register(username)
        try await cairn.accounts.administration.setRole(.researcher, username: username, on: app.db)
        return user
    }

    /// `PUT /api/flora/observations/{id}`.
    func upload(_ id: UUID, _ body: [String: JSONValue], token: String?) async throws -> TestingHTTPResponse {
        try await send(.PUT, "/api/flora/observations/\(id.uuidString.lowercased())", json: body, token: token)
    }

    /// `POST /api/flora/import` with `files` (form field → file name and contents) as multipart/form-data.
    func importCSV(_ files: [String: (name: String, bytes: [UInt8])], token: String?) async throws
        -> TestingHTTPResponse
    {
        let boundary = "cairn-test-\(UUID().uuidString)"
        var body: [UInt8] = []
        for (field, file) in files.sorted(by: { $0.key < $1.key }) {
            body += Array(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"\(file.name)\"\r\nContent-Type: text/csv\r\n\r\n"
                    .utf8)
            body += file.bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: "multipart/form-data; boundary=\(boundary)")
        return try await send(.POST, "/api/flora/import", token: token, headers: headers, body: ByteBuffer(bytes: body))
    }

    func observationCount(_ id: UUID? = nil) async throws -> Int {
        var query = Observation.query(on: app.db)
        if let id { query = query.filter(\.$id == id) }
        return try await query.count()
    }
}

enum FloraSamples {
    /// Niwot Ridge's Saddle.
    static let saddle = (latitude: 40.0552, longitude: -105.5905)

    static func observation(
        species: String = "silene-acaulis", latitude: Double = saddle.latitude, longitude: Double = saddle.longitude,
        comment: String = "Cushion in full bloom", photo: [UInt8]? = nil
    ) -> [String: JSONValue] {
        var body: [String: JSONValue] = [
            "species_id": .string(species), "latitude": .number(latitude), "longitude": .number(longitude),
            "accuracy_m": 6, "observed_at": "2000-07-14T10:30:00Z", "comment": .string(comment),
        ]
        if let photo { body["photo"] = .string(Data(photo).base64EncodedString()) }
        return body
    }
}
