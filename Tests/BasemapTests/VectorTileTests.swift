import Foundation
import Geo
import Testing
import Zlib

@testable import Basemap

@Suite("Vector tiles")
struct VectorTileTests {
    let park = Coordinate(60.0040, 25.0080)

    @Test func aTileHoldsTheLayersOfItsZoomWithClassesAndNames() throws {
        let builder = VectorTileBuilder(basemap: try BasemapFixtures.basemap())

        let layers = try VectorTile.decode(builder.tile(tile(at: park, zoom: 15)))

        #expect(layers.allSatisfy { $0.extent == 4096 })
        let landcover = try #require(layer("landcover", in: layers))
        #expect(landcover.features.contains { $0.properties["class"] == .string("park") && $0.type == .polygon })
        let roads = try #require(layer("road", in: layers))
        #expect(roads.features.contains { $0.properties["name"] == .string("Testikatu") && $0.type == .line })
        let pois = try #require(layer("poi", in: layers))
        let station = try #require(pois.features.first { $0.properties["class"] == .string("station") })
        #expect(station.properties["name"] == .string("Testiasema") && station.properties["rank"] == .int(1))
        #expect(layer("water", in: layers)?.features.contains { $0.properties["class"] == .string("sea") } == true)
    }

    @Test func buildingsStartAtZoom14AndStreetNamesAt13() throws {
        let builder = VectorTileBuilder(basemap: try BasemapFixtures.basemap())
        let building = Coordinate(60.0022, 25.0033)

        let at13 = try VectorTile.decode(builder.tile(tile(at: building, zoom: 13)))
        let z14 = tile(at: building, zoom: 14)
        let at14 = try VectorTile.decode(builder.tile(z14))
        let at12 = try VectorTile.decode(builder.tile(tile(at: building, zoom: 12)))

        #expect(layer("building", in: at13) == nil)
        let inTile = builder.basemap.features(.building).filter { feature in
            WorldBox(covering: feature.parts[0]).map { $0.intersects(z14.box) } ?? false
        }
        #expect(!inTile.isEmpty)
        #expect(layer("building", in: at14)?.features.count == inTile.count)
        #expect(layer("road", in: at13)?.features.contains { $0.properties["name"] == .string("Testikatu") } == true)
        #expect(layer("road", in: at12)?.features.allSatisfy { $0.properties["name"] == nil } == true)
    }

    @Test func geometryIsClippedToTheTileAndItsBuffer() throws {
        let builder = VectorTileBuilder(basemap: try BasemapFixtures.basemap())
        // At zoom 17 the sea and Testikatu run far past the tile holding the coast's corner.
        let corner = tile(at: Coordinate(60.0040, 25.0160), zoom: 16)

        let layers = try VectorTile.decode(builder.tile(corner))

        let limit = -VectorTileBuilder.buffer...(VectorTileBuilder.extent + VectorTileBuilder.buffer)
        let all = layers.flatMap(\.features).flatMap(\.parts).joined()
        #expect(!all.isEmpty)
        #expect(all.allSatisfy { limit.contains($0.x) && limit.contains($0.y) })
        let sea = try #require(layer("water", in: layers)?.features.first)
        let xs = sea.parts[0].map(\.x)
        #expect(
            xs.min()! >= -VectorTileBuilder.buffer && xs.max()! <= VectorTileBuilder.extent + VectorTileBuilder.buffer)
    }

    @Test func ringsAreClockwiseOnScreenAndHolesTheOtherWay() throws {
        let builder = VectorTileBuilder(basemap: try BasemapFixtures.basemap())
        let courtyard = Coordinate(60.0054, 25.0086)

        let layers = try VectorTile.decode(builder.tile(tile(at: courtyard, zoom: 16)))

        let buildings = try #require(layer("building", in: layers)).features
        let withCourtyard = try #require(buildings.first { $0.parts.count == 2 })
        #expect(ringArea(withCourtyard.parts[0]) > 0 && ringArea(withCourtyard.parts[1]) < 0)
        let units = tileUnits(of: courtyard, in: tile(at: courtyard, zoom: 16))
        #expect(!contains(withCourtyard.parts, units), "the courtyard is not filled")
        #expect(buildings.allSatisfy { ringArea($0.parts[0]) > 0 })
    }

    @Test func coordinatesAreRoundedToTileUnits() throws {
        let builder = VectorTileBuilder(basemap: try BasemapFixtures.basemap())
        let stationAt = Coordinate(60.0015, 25.0112)
        let id = tile(at: stationAt, zoom: 16)

        let layers = try VectorTile.decode(builder.tile(id))

        let station = try #require(
            layer("poi", in: layers)?.features.first { $0.properties["class"] == .string("station") })
        let expected = tileUnits(of: stationAt, in: id)
        #expect(abs(Double(station.parts[0][0].x) - expected.x) <= 1)
        #expect(abs(Double(station.parts[0][0].y) - expected.y) <= 1)
    }

    @Test func linesAreSimplifiedForTheirZoom() throws {
        let builder = VectorTileBuilder(basemap: try BasemapFixtures.basemap())
        // A footway of 41 points zigzagging by half a metre.
        let footway = Coordinate(60.0090, 25.0090)
        func points(at zoom: Int) throws -> Int {
            let roads = try #require(
                layer("road", in: try VectorTile.decode(builder.tile(tile(at: footway, zoom: zoom)))))
            let path = try #require(roads.features.first { $0.properties["class"] == .string("path") })
            return path.parts.reduce(0) { $0 + $1.count }
        }

        #expect(try points(at: 14) == 2, "half a metre is far below a quarter pixel at zoom 14")
        #expect(try points(at: 16) >= 30, "the deepest zoom keeps what can be drawn at zoom 20")
    }

    @Test func aTileOutsideTheCoveredAreaIsEmpty() throws {
        let builder = VectorTileBuilder(basemap: try BasemapFixtures.basemap())

        #expect(builder.tile(tile(at: Coordinate(60.2, 25.0), zoom: 14)).isEmpty)
        #expect(builder.tile(tile(at: Coordinate(48.85, 2.35), zoom: 10)).isEmpty)
        #expect(try VectorTile.decode([]).isEmpty)
    }

    @Test func theWholeWorldTileShowsTheCoveredAreaSmall() throws {
        let builder = VectorTileBuilder(basemap: try BasemapFixtures.basemap())

        let layers = try VectorTile.decode(builder.tile(TileID(z: 0, x: 0, y: 0)))

        // A kilometre is a fraction of a pixel at zoom 0: only points remain, no buildings or paths.
        #expect(layer("building", in: layers) == nil && layer("road", in: layers) == nil)
    }

    @Test func tilesTravelGzipped() throws {
        let cache = TileCache(basemap: try BasemapFixtures.basemap())
        let id = tile(at: park, zoom: 16)

        let gzipped = try cache.gzippedTile(id)

        #expect(gzipped.starts(with: [0x1F, 0x8B]))
        #expect(try Zlib.inflate(gzipped, limit: 64 << 20, format: .gzip) == cache.builder.tile(id))
        #expect(try cache.gzippedTile(id) == gzipped)
        #expect(cache.usage.tiles == 1)
        #expect(try cache.gzippedTile(tile(at: Coordinate(60.3, 25.0), zoom: 16)).isEmpty)
    }

    @Test func theCacheStaysWithinItsBudget() throws {
        let cache = TileCache(basemap: try BasemapFixtures.basemap(), budgetBytes: 4_000)

        for zoom in 12...16 {
            for id in TileID.covering(cache.basemap.coverageBox, zoom: zoom) { _ = try cache.gzippedTile(id) }
        }

        #expect(cache.usage.bytes <= 4_000)
        #expect(cache.usage.tiles > 0)
    }

    @Test func encodingFollowsTheSpecificationsExample() throws {
        // MVT 2.1, 4.3.5.1: a point at (25, 17) is [9, 50, 34]; 4.3.5.2: a line (2,2) (2,10) (10,10).
        #expect(VectorTile.Encoder.geometry(.point, [[(25, 17)]]) == [9, 50, 34])
        #expect(VectorTile.Encoder.geometry(.line, [[(2, 2), (2, 10), (10, 10)]]) == [9, 4, 4, 18, 0, 16, 16, 0])
        // 4.3.5.3: a polygon (3,6) (8,12) (20,34).
        #expect(
            VectorTile.Encoder.geometry(.polygon, [[(3, 6), (8, 12), (20, 34)]]) == [9, 6, 12, 18, 10, 12, 24, 44, 15])
    }

    @Test func aDecodedTileGivesBackWhatWasEncoded() throws {
        var encoder = VectorTile.Encoder()
        encoder.add(
            layer: "road", type: .line, parts: [[(0, 0), (100, -5)], [(4096, 4096), (4000, 4100)]],
            properties: [("class", .string("primary")), ("layer", .int(-2)), ("bridge", .bool(true))])
        encoder.add(layer: "poi", type: .point, parts: [[(7, 9)]], properties: [("name", .string("Café ☕"))])

        let layers = try VectorTile.decode(encoder.encoded())

        #expect(layers.map(\.name) == ["road", "poi"])
        #expect(
            layers[0].features[0].parts.map { $0.map { [$0.x, $0.y] } } == [
                [[0, 0], [100, -5]], [[4096, 4096], [4000, 4100]],
            ])
        #expect(
            layers[0].features[0].properties == ["class": .string("primary"), "layer": .int(-2), "bridge": .bool(true)])
        #expect(layers[1].features[0].properties["name"] == .string("Café ☕"))
    }
}

@Suite("Plane geometry")
struct PlaneGeometryTests {
    func points(_ list: [(Double, Double)]) -> [WorldPoint] { list.map { WorldPoint(x: $0.0, y: $0.1) } }

    @Test func clippingARingToABoxKeepsWhatIsInside() {
        let square = points([(-10, -10), (10, -10), (10, 10), (-10, 10)])

        let clipped = PlaneGeometry.clipRing(square, to: WorldBox(minX: 0, minY: 0, maxX: 20, maxY: 20))

        #expect(abs(PlaneGeometry.signedArea(clipped) - 100) < 1e-9)
        #expect(PlaneGeometry.clipRing(square, to: WorldBox(minX: 50, minY: 50, maxX: 60, maxY: 60)).isEmpty)
    }

    @Test func clippingALineSplitsItWhereItLeavesAndComesBack() {
        let line = points([(-5, 5), (5, 5), (15, 5), (15, 15), (5, 15), (5, 25)])

        let parts = PlaneGeometry.clipLine(line, to: WorldBox(minX: 0, minY: 0, maxX: 10, maxY: 20))

        #expect(parts.count == 2)
        #expect(parts[0] == points([(0, 5), (5, 5), (10, 5)]))
        #expect(parts[1] == points([(10, 15), (5, 15), (5, 20)]))
    }

    @Test func douglasPeuckerDropsOnlyPointsWithinTheTolerance() {
        let line = points([(0, 0), (1, 0.1), (2, -0.1), (3, 5), (4, 6), (5, 7.05), (6, 8)])

        let simplified = PlaneGeometry.simplify(line, tolerance: 0.5)

        #expect(simplified == points([(0, 0), (2, -0.1), (3, 5), (6, 8)]))
    }

    @Test func piecesCutByTheBoxAreClosedClockwiseAlongItsEdge() {
        let box = WorldBox(minX: 0, minY: 0, maxX: 100, maxY: 100)
        // Enters at the right edge, leaves at the top edge; the area on its right is the top-right corner.
        let piece = points([(100, 40), (60, 40), (60, 0)])

        let rings = RingAssembly.assemble(pieces: [piece], in: box)

        #expect(rings.count == 1)
        #expect(abs(PlaneGeometry.signedArea(rings[0]) - 1_600) < 1e-9)
        // Reversed, the area is everything else.
        let other = RingAssembly.assemble(pieces: [piece.reversed()], in: box)
        #expect(abs(PlaneGeometry.signedArea(other[0]) - 8_400) < 1e-9)
    }

    @Test func looseEndsInsideTheBoxAreSnappedToTheNearestEdge() {
        let box = WorldBox(minX: 0, minY: 0, maxX: 100, maxY: 100)
        let piece = points([(97, 40), (60, 40), (60, 3)])

        let rings = RingAssembly.assemble(pieces: [piece], in: box)

        #expect(rings.count == 1 && abs(PlaneGeometry.signedArea(rings[0]) - 1_600) < 1e-9)
    }

    @Test func anOutlineCutByTheBoxIsClosedTheShortWayRound() {
        let box = WorldBox(minX: 0, minY: 0, maxX: 100, maxY: 100)
        // A building crossing the right edge: only its two inside corners are in the extract.
        let ring = RingAssembly.closeAlongEdge(ringPieces: [points([(90, 40), (90, 60)])], in: box)
        let reversed = RingAssembly.closeAlongEdge(ringPieces: [points([(90, 60), (90, 40)])], in: box)

        #expect(abs(PlaneGeometry.signedArea(ring) - 200) < 1e-9)
        #expect(abs(PlaneGeometry.signedArea(reversed) - 200) < 1e-9, "whichever way OSM drew it")
        // A lake cutting the top-left corner, in two pieces of one ring: closed through the corner.
        let corner = RingAssembly.closeAlongEdge(
            ringPieces: [points([(0, 30), (10, 20)]), points([(20, 10), (30, 0)])], in: box)
        #expect(corner.contains(WorldPoint(x: 0, y: 0)))
        #expect(PlaneGeometry.signedArea(corner) > 0 && PlaneGeometry.signedArea(corner) < 1_000)
    }

    @Test func waysAreJoinedIntoRingsAtSharedEnds() {
        let chains = RingAssembly.joinWays([[1, 2, 3], [5, 1], [3, 4, 5], [7, 8]], directed: false)

        #expect(chains.count == 2)
        #expect(chains[0].first == chains[0].last && Set(chains[0]) == [1, 2, 3, 4, 5])
        #expect(chains[1] == [7, 8])
        // Directed (coastline): a way pointing the wrong way is not turned round.
        #expect(RingAssembly.joinWays([[1, 2], [3, 2]], directed: true).count == 2)
    }

    @Test func theLabelOfACrescentIsInsideIt() throws {
        // A C shape whose centroid lies in its mouth.
        let crescent = points([(0, 0), (100, 0), (100, 20), (20, 20), (20, 80), (100, 80), (100, 100), (0, 100)])

        let label = try #require(PolygonLabel.point(of: [crescent], precision: 0.5))

        #expect(PlaneGeometry.contains(crescent, label))
        #expect(!PlaneGeometry.contains(crescent, PolygonLabel.centroid(crescent)) || label.x < 20)
    }
}
