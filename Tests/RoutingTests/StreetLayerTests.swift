import Foundation
import Geo
import Testing

@testable import Routing

@Suite struct StreetLayerTests {
    let graph = SyntheticCity(targetNodeCount: 3_000, seed: 71).generate()

    @Test func aSmallBoxGivesEveryEdgeInItWithNameHighwayAndShelter() throws {
        let router = StreetRouter(graph: graph)
        let box = BoundingBox(around: graph.boundingBox!.center, radiusMeters: 300)

        let layer = router.streetLayer(in: box)

        let edges = router.edges(in: box)
        #expect(!layer.isThinned && layer.edgeCountInBox == edges.count && edges.count > 20)
        for (feature, edge) in zip(layer.features.features, edges) {
            #expect(feature.id == .number(Double(edge)))
            #expect(feature.properties?["name"] == graph.name(of: edge).map(JSONValue.string) ?? .null)
            #expect(feature.properties?["highway"] == .string(graph.edgeHighway[edge].osmValue))
            #expect(feature.properties?["sheltered"] == .bool(graph.isSheltered(edge)))
            let line = try #require(feature.geometry?.positions.map(\.coordinate))
            #expect(line.first!.haversineDistance(to: graph.coordinate(of: Int(graph.edgeSource[edge]))) < 0.1)
            #expect(line.last!.haversineDistance(to: graph.coordinate(of: Int(graph.edgeTarget[edge]))) < 0.1)
        }
    }

    @Test func theLayerEncodesAsAGeoJSONFeatureCollectionOfLineStrings() throws {
        let router = StreetRouter(graph: graph)
        let box = BoundingBox(around: graph.boundingBox!.center, radiusMeters: 150)

        let json = try JSONEncoder().encode(router.streetLayer(in: box).features)

        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(object["type"] as? String == "FeatureCollection")
        let first = try #require((object["features"] as? [[String: Any]])?.first)
        #expect((first["geometry"] as? [String: Any])?["type"] as? String == "LineString")
        let properties = try #require(first["properties"] as? [String: Any])
        #expect(Set(properties.keys) == ["name", "highway", "sheltered"])
    }

    @Test func aLargeBoxIsThinnedToTheCapKeepingMajorAndShelteredWaysFirst() {
        let router = StreetRouter(graph: graph)
        let box = graph.boundingBox!

        let layer = router.streetLayer(in: box, maxFeatures: 300)

        #expect(layer.features.features.count == 300 && layer.isThinned)
        #expect(layer.edgeCountInBox == graph.edgeCount)
        let keptMajorOrSheltered = layer.features.features.filter {
            $0.properties?["highway"] == "secondary" || $0.properties?["sheltered"] == true
        }
        let majorOrSheltered = (0..<graph.edgeCount).filter {
            graph.edgeHighway[$0] == .secondary || graph.isSheltered($0)
        }
        #expect(keptMajorOrSheltered.count == min(300, majorOrSheltered.count))
    }

    @Test func simplificationDropsPointsWithinToleranceAndKeepsCorners() {
        let projection = LocalProjection(origin: Coordinate(latitude: 60, longitude: 24))
        let straight = (0...10).map { projection.unproject(x: Double($0) * 10, y: 0.1 * Double($0 % 2)) }
        let corner = [
            projection.unproject(x: 0, y: 0), projection.unproject(x: 50, y: 0.2), projection.unproject(x: 100, y: 0),
            projection.unproject(x: 100, y: 100),
        ]

        let simplifiedStraight = StreetLayer.simplified(straight, tolerance: 0.5, projection: projection)
        let simplifiedCorner = StreetLayer.simplified(corner, tolerance: 0.5, projection: projection)

        #expect(simplifiedStraight == [straight[0], straight[10]])
        #expect(simplifiedCorner == [corner[0], corner[2], corner[3]])
    }
}
