import Foundation
import Geo
import Routing
import Testing

@testable import Basemap

@Suite("Basemap import")
struct BasemapImportTests {
    // MARK: The hand-made extract (Fixtures/basemap.osm)

    @Test func coverageIsTheBoxTheExtractDeclaresAndItIsNamedAfterItsTown() throws {
        let basemap = try BasemapFixtures.basemap()

        let coverage = basemap.metadata.coverage
        #expect(basemap.metadata.coverageDeclared)
        #expect(abs(coverage.south - 60.0) < 1e-9 && abs(coverage.north - 60.01) < 1e-9)
        #expect(abs(coverage.west - 25.0) < 1e-9 && abs(coverage.east - 25.02) < 1e-9)
        #expect(basemap.metadata.name == "Testikaupunki")
        #expect(basemap.metadata.source == "basemap.osm" && basemap.metadata.sourceFormat == "xml")
        #expect(basemap.metadata.version.count == 8)
    }

    @Test func theSeaLiesOnTheRightOfTheCoastlineClosedAlongTheBoxWithTheIslandCutOut() throws {
        let basemap = try BasemapFixtures.basemap()

        let sea = basemap.features(.water, kind: "sea")
        #expect(sea.count == 1)
        #expect(basemap.polygons(.water, containing: Coordinate(60.0005, 25.0195)).map(\.kind) == ["sea"])
        #expect(basemap.polygons(.water, containing: Coordinate(60.0030, 25.0190)).map(\.kind) == ["sea"])
        // Land: north-west of the coast, and the island.
        #expect(basemap.polygons(.water, containing: Coordinate(60.0090, 25.0100)).isEmpty)
        #expect(basemap.polygons(.water, containing: Coordinate(60.0020, 25.0140)).isEmpty)
        #expect(basemap.polygons(.water, containing: Coordinate(60.0015, 25.0185)).isEmpty)
        #expect(sea[0].parts.count == 2, "the island is a hole in the sea")
        #expect(PlaneGeometry.signedArea(sea[0].parts[0]) > 0 && PlaneGeometry.signedArea(sea[0].parts[1]) < 0)
    }

    @Test func theSeaNeverLeavesTheCoveredArea() throws {
        let basemap = try BasemapFixtures.basemap()
        let box = basemap.coverageBox.expanded(by: 1)

        for feature in basemap.features where feature.geometry != .point {
            #expect(feature.parts.joined().allSatisfy(box.contains), "\(feature.layer) \(feature.kind) leaves the box")
        }
    }

    @Test func aMultipolygonLakeIsAssembledFromItsMemberWaysWithItsIsland() throws {
        let basemap = try BasemapFixtures.basemap()

        let lakes = basemap.features(.water, kind: "lake")
        #expect(lakes.count == 1)
        #expect(lakes[0].parts.count == 2)
        #expect(basemap.polygons(.water, containing: Coordinate(60.0065, 25.0025)).map(\.kind) == ["lake"])
        #expect(basemap.polygons(.water, containing: Coordinate(60.0070, 25.0040)).isEmpty, "the island is dry")
        let label = basemap.features(.label).first { $0.name == "Testjärvi" }
        #expect(label?.kind == "water")
        let labelPoint = try #require(label?.parts.first?.first)
        #expect(PlaneGeometry.contains(lakes[0].parts[0], labelPoint))
        #expect(!PlaneGeometry.contains(lakes[0].parts[1], labelPoint), "the name is on the water, not the island")
    }

    @Test func parksBuildingsAndABuildingWithACourtyard() throws {
        let basemap = try BasemapFixtures.basemap()

        #expect(basemap.polygons(.landcover, containing: Coordinate(60.0040, 25.0080)).map(\.kind) == ["park"])
        #expect(basemap.features(.label).contains { $0.name == "Testpuisto" && $0.kind == "park" })
        let buildings = basemap.features(.building)
        #expect(buildings.count == 3)
        #expect(buildings.allSatisfy { $0.minZoom >= 14 })
        #expect(buildings.filter { $0.parts.count == 2 }.count == 1, "one building has a courtyard")
        #expect(basemap.polygons(.building, containing: Coordinate(60.0054, 25.0086)).isEmpty)
        #expect(basemap.polygons(.building, containing: Coordinate(60.0051, 25.0081)).count == 1)
    }

    @Test func anAreaCutByTheBoxIsClosedAlongItsEdgeOnTheRightSide() throws {
        let basemap = try BasemapFixtures.basemap()

        let woods = basemap.features(.landcover, kind: "wood")
        #expect(woods.count == 1)
        #expect(basemap.polygons(.landcover, containing: Coordinate(60.0095, 25.0010)).map(\.kind) == ["wood"])
        #expect(basemap.polygons(.landcover, containing: Coordinate(60.0092, 25.0035)).map(\.kind) == ["wood"])
        #expect(basemap.polygons(.landcover, containing: Coordinate(60.0080, 25.0020)).isEmpty)
        #expect(basemap.polygons(.landcover, containing: Coordinate(60.0095, 25.0060)).isEmpty)
    }

    @Test func streetsKeepTheirNamesClassesAndBridges() throws {
        let basemap = try BasemapFixtures.basemap()

        let roads = basemap.features(.road)
        let street = try #require(roads.first { $0.name == "Testikatu" })
        #expect(street.kind == "minor" && street.geometry == .line)
        #expect(street.parts.count == 1 && street.parts[0].count == 13, "the node outside the box is left out")
        #expect(roads.first { $0.name == "Pääkatu" }?.kind == "primary")
        let bridge = try #require(roads.first { $0.name == "Siltatie" })
        #expect(bridge.flags.contains(.bridge) && bridge.osmLayer == 1)
        #expect(roads.contains { $0.kind == "path" && $0.name == nil })
        // Lower ways first, bridges last: the order the map draws them.
        #expect(roads.last?.name == "Siltatie")
    }

    @Test func pointsPeopleLookForAndPlaces() throws {
        let basemap = try BasemapFixtures.basemap()

        let pois = Dictionary(basemap.features(.poi).map { ($0.kind, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(pois["cafe"]?.name == "Kahvila Testi")
        #expect(pois["toilets"] != nil && pois["drinking_water"] != nil)
        #expect(pois["station"]?.name == "Testiasema" && pois["station"]?.rank == 1)
        let places = basemap.features(.place)
        #expect(Set(places.map(\.name)) == ["Testilä", "Testikaupunki"])
        #expect(places.first { $0.name == "Testikaupunki" }?.kind == "town")
    }

    // MARK: Stored form

    @Test func aSnapshotRoundTripKeepsEveryFeatureAndTile() throws {
        let basemap = try BasemapFixtures.basemap()
        var snapshot = GraphSnapshot()
        for (tag, data) in basemap.snapshotSections { snapshot[tag] = data }
        let reread = try GraphSnapshot(data: snapshot.encoded(), file: "round-trip")

        let loaded = try #require(try Basemap.load(from: reread, file: "round-trip"))

        #expect(loaded.metadata == basemap.metadata)
        #expect(loaded.features == basemap.features)
        let park = tile(at: Coordinate(60.0040, 25.0080), zoom: 16)
        #expect(VectorTileBuilder(basemap: loaded).tile(park) == VectorTileBuilder(basemap: basemap).tile(park))
    }

    @Test func aSnapshotWithoutABasemapHasNone() throws {
        #expect(try Basemap.load(from: GraphSnapshot(), file: "empty") == nil)
    }

    @Test func inconsistentSectionsAreRefusedNamingTheFile() throws {
        let basemap = try BasemapFixtures.basemap()
        var snapshot = GraphSnapshot()
        for (tag, data) in basemap.snapshotSections { snapshot[tag] = data }
        snapshot["BPTX"] = Data(snapshotArray: [UInt32](repeating: 0, count: 3))

        #expect {
            _ = try Basemap.load(from: snapshot, file: "broken.cairngraph")
        } throws: { error in
            String(describing: error).contains("broken.cairngraph")
                && String(describing: error).contains("basemap")
        }
    }

    // MARK: Helsinki (var/osm/Helsinki.osm.pbf, `make demo-data`)

    @Test(.enabled(if: BasemapFixtures.helsinkiExtract != nil))
    func helsinkiHasItsSeaLakeParkBuildingsAndNames() throws {
        let basemap = try BasemapFixtures.helsinki()

        #expect(basemap.metadata.coverageDeclared && basemap.metadata.name == "Helsinki")
        // Kaisaniemenlahti, the sea bay in the north (the coast enters and leaves the extract twice), the
        // channel east of it, and Töölönlahti, a lake mostly outside the extract, in its north-west corner.
        #expect(basemap.polygons(.water, containing: Coordinate(60.1785, 24.9428)).map(\.kind) == ["sea"])
        #expect(basemap.polygons(.water, containing: Coordinate(60.17637, 24.9500)).map(\.kind) == ["sea"])
        #expect(basemap.polygons(.water, containing: Coordinate(60.1700, 24.9450)).isEmpty, "the city is dry")
        #expect(basemap.polygons(.water, containing: Coordinate(60.1786, 24.9360)).map(\.kind).contains("lake"))
        // The Railway Station Square and Esplanadi are dry land.
        #expect(basemap.polygons(.water, containing: Coordinate(60.1710, 24.9430)).isEmpty)
        #expect(basemap.polygons(.water, containing: Coordinate(60.1676, 24.9470)).isEmpty)
        // Kaisaniemi Park, a multipolygon.
        #expect(basemap.polygons(.landcover, containing: Coordinate(60.1750, 24.9470)).map(\.kind).contains("park"))
        #expect(basemap.features(.building).count > 400)
        #expect(basemap.features(.road).contains { $0.name == "Mannerheimintie" })
        #expect(basemap.features(.poi).contains { $0.kind == "station" })
        #expect(basemap.features(.poi).filter { $0.kind == "cafe" }.count > 50)
    }
}
