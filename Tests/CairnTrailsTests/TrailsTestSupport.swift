import CairnAPI
import CairnServer
import CairnTestSupport
import Foundation
import Geo
import NIOCore
import Testing
import Vapor
import VaporTesting

@testable import CairnTrails

extension AccountsHarness {
    /// `POST /api/trails/import` with `bytes` as the body.
    func upload(_ bytes: String, token: String?, query: String = "") async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders()
        headers.contentType = bytes.hasPrefix("<") ? HTTPMediaType(type: "application", subType: "gpx+xml") : .json
        return try await send(
            .POST, "/api/trails/import\(query)", token: token, headers: headers, body: ByteBuffer(string: bytes))
    }

    /// Uploads `TrailsFixtures.threeTrails` as an admin and answers the trails by name.
    func seedTrails() async throws -> [String: TrailSummary] {
        let keeper = try await admin("seed-keeper")
        let response = try await upload(TrailsFixtures.threeTrails, token: keeper.token, query: "?demo=true")
        try #require(response.status == .created, "\(response.body.string)")
        let result = try response.decoded(TrailImportResult.self)
        return Dictionary(uniqueKeysWithValues: result.trails.map { ($0.name, $0) })
    }
}

enum TrailsFixtures {
    /// Three trails near Helsinki: an easy short one, a hard long one, a moderate one by its stated difficulty.
    static let threeTrails = """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","properties":{"name":"Seurasaari shore","city":"Helsinki","region":"Uusimaa"},
           "geometry":{"type":"LineString","coordinates":[[24.880,60.185,5],[24.884,60.187,12],[24.889,60.186,8]]}},
          {"type":"Feature","properties":{"name":"Central Park traverse","city":"Helsinki","region":"Uusimaa",
             "sac_scale":"demanding_mountain_hiking"},
           "geometry":{"type":"LineString","coordinates":[[24.920,60.210],[24.925,60.230],[24.930,60.250]]}},
          {"type":"Feature","properties":{"name":"Nuuksio lake loop","city":"Espoo","region":"Uusimaa","difficulty":"moderate"},
           "geometry":{"type":"MultiLineString","coordinates":[[[24.50,60.30],[24.51,60.31]],[[24.51,60.31],[24.52,60.30]]]}}
        ]}
        """

    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
        <trk><name>Vallisaari circuit</name><trkseg>
        <trkpt lat="60.140" lon="24.960"><ele>2</ele></trkpt>
        <trkpt lat="60.142" lon="24.965"><ele>20</ele></trkpt>
        <trkpt lat="60.144" lon="24.962"><ele>4</ele></trkpt>
        </trkseg></trk></gpx>
        """
}
