import Foundation
import Testing

@testable import Geo

@Suite struct GeoJSONTests {
    @Test func featureCollectionRoundTripsWithLongitudeFirst() throws {
        let collection = FeatureCollection(features: [
            Feature(
                id: "loop-1",
                geometry: .lineString([
                    Coordinate(latitude: 60.17, longitude: 24.94), Coordinate(latitude: 60.18, longitude: 24.95),
                ]),
                properties: ["length_m": 1234.5, "sheltered": true]
            ),
            Feature(geometry: .point(Position(longitude: 24.94, latitude: 60.17, altitude: 12))),
        ])

        let data = try JSONEncoder().encode(collection)
        let decoded = try JSONDecoder().decode(FeatureCollection.self, from: data)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]

        #expect(decoded == collection)
        let first = (object?["features"] as? [[String: Any]])?.first
        let geometry = first?["geometry"] as? [String: Any]
        #expect(geometry?["type"] as? String == "LineString")
        #expect((geometry?["coordinates"] as? [[Double]])?.first == [24.94, 60.17])
    }

    @Test func featureWithoutGeometryEncodesNullMembersAsTheRFCRequires() throws {
        let data = try JSONEncoder().encode(Feature(geometry: nil))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]

        #expect(object?["geometry"] is NSNull)
        #expect(object?["properties"] is NSNull)
    }

    @Test(arguments: [
        #"{"type":"LineString","coordinates":[[24.9,60.1]]}"#,
        #"{"type":"Point","coordinates":[24.9]}"#,
        #"{"type":"Point","coordinates":[200,60]}"#,
        #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}"#,
        #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]}"#,
        #"{"type":"Circle","coordinates":[0,0]}"#,
    ])
    func malformedGeometriesAreRejected(json: String) {
        #expect(throws: (any Error).self) { try JSONDecoder().decode(Geometry.self, from: Data(json.utf8)) }
    }

    @Test func polygonAndCollectionsDecode() throws {
        let json = #"""
            {"type":"GeometryCollection","geometries":[
              {"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]},
              {"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[2,2],[3,3]]]}]}
            """#

        let geometry = try JSONDecoder().decode(Geometry.self, from: Data(json.utf8))

        #expect(geometry.positions.count == 8)
        #expect(geometry.boundingBox == BoundingBox(south: 0, west: 0, north: 3, east: 3))
    }
}
