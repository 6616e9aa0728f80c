import Foundation
import Geo
import Testing

@testable import Routing

@Suite struct StreetNetworkImportTests {
    // MARK: The hand-made neighbourhood (Fixtures/junctions.osm)

    @Test func waysAreSplitAtJunctionsAndWayEndsAndForbiddenWaysLeftOut() throws {
        let network = try StreetNetworkImporter.importFile(atPath: OSMTestData.fixture("junctions.osm"))
        let graph = network.graph

        // Vertices 1, 2, 4, 5, 6, 10, 11, 14 in id order; node 3 is shape; 7 and 9 hang on excluded ways.
        #expect(graph.nodeCount == 8)
        #expect(graph.edgeCount == 7)
        #expect(graph.edgeWayID == [101, 101, 102, 102, 105, 106, 108])
        #expect(graph.coordinate(of: 1) == Coordinate(latitude: 60.171, longitude: 24.94))
        #expect(graph.geometry(of: 1, from: 1).count == 3, "2 → 3 → 4 keeps node 3 as shape")
        #expect(graph.degree(of: 1) == 4, "node 2 joins the footway and Testikatu")
        #expect(!graph.edgeWayID.contains(103), "motorway")
        #expect(!graph.edgeWayID.contains(104), "access=private service road")
        #expect(graph.edgeWayID.contains(105), "access=private but foot=yes")
        #expect(graph.name(of: 2) == "Testikatu" && graph.edgeHighway[2] == .residential)
        #expect((0..<graph.edgeCount).filter(graph.isSheltered) == [5], "only the building passage")
        #expect(abs(graph.lengthMeters(of: 6) - 55.6) < 0.5, "the path ends where its next node is missing")
    }

    @Test func smallerComponentsAreDroppedAndCounted() throws {
        let network = try StreetNetworkImporter.importFile(atPath: OSMTestData.fixture("junctions.osm"))

        #expect(!network.graph.edgeWayID.contains(107))
        #expect(network.metadata.components == 2)
        #expect(network.metadata.droppedNodes == 2 && network.metadata.droppedEdges == 1)
        #expect(abs(network.metadata.droppedLengthMeters - 11.1) < 0.2)
        #expect(network.metadata.walkableWays == 6 && network.metadata.osmWaysRead == 10)
        #expect(network.metadata.sourceFile == "junctions.osm" && network.metadata.sourceFormat == "xml")
    }

    @Test func landmarksAndPlacesComeFromNodesClosedWaysAndMultipolygons() throws {
        let network = try StreetNetworkImporter.importFile(atPath: OSMTestData.fixture("junctions.osm"))

        #expect(network.landmarks.map(\.id.description) == ["n20", "w130", "r201"])
        #expect(network.landmarks.map(\.category) == [.museum, .park, .attraction])
        let park = network.landmarks[1], square = network.landmarks[2]
        #expect(park.name == "Testipuisto" && square.name == "Testiaukio")
        for area in [park, square] {
            #expect(area.coordinate.haversineDistance(to: Coordinate(latitude: 60.1745, longitude: 24.9385)) < 0.5)
        }
        let byKind = Dictionary(grouping: network.places, by: \.kind)
        #expect(byKind[.landmark]?.map(\.name) == ["Testimuseo", "Testipuisto", "Testiaukio"])
        #expect(byKind[.poi]?.map(\.name) == ["Café & Bär"])
        #expect(byKind[.poi]?.first?.category == "amenity=cafe")
        let address = try #require(byKind[.address]?.first)
        #expect(address.name == "Testikatu 5" && address.postcode == "00100" && address.city == "Helsinki")
        #expect(address.source?.description == "n25")
        let streets = try #require(byKind[.street])
        #expect(streets.map(\.name) == ["Testikatu"], "one place for the two edges of the street")
        #expect(streets[0].category == "residential")
    }

    @Test func xmlAndPBFOfTheSameDataGiveTheSameNetwork() throws {
        let xmlPath = OSMTestData.fixture("junctions.osm")
        var elements = ElementRecorder()
        try OSMXMLReader(path: xmlPath).read(.all, into: &elements)
        let pbfPath = OSMTestData.temporaryPath("junctions.osm.pbf")
        try PBFTestWriter.encode(OSMSample(nodes: elements.nodes, ways: elements.ways, relations: elements.relations))
            .write(to: URL(fileURLWithPath: pbfPath))

        let fromXML = try StreetNetworkImporter.importFile(atPath: xmlPath)
        let fromPBF = try StreetNetworkImporter.importFile(atPath: pbfPath)

        #expect(fromPBF.graph == fromXML.graph)
        #expect(fromPBF.landmarks == fromXML.landmarks)
        #expect(fromPBF.places == fromXML.places)
    }

    // MARK: Real extracts

    @Test func helsinkiHasItsWalkableStreetsShelterAndLandmarks() throws {
        let network = try OSMTestData.helsinki.get()
        let graph = network.graph
        let summary = network.summary

        #expect(graph.nodeCount == 3_772)
        #expect(graph.edgeCount == 5_307)
        #expect(summary.shelteredEdges == 327)
        #expect(network.landmarks.count == 125)
        #expect(network.landmarks.contains { $0.id.description == "r6627217" && $0.name == "Kaisaniemen puisto" })
        #expect((115...116).contains(summary.walkableKm))
        #expect(network.metadata.osmNodesRead == 24_260 && network.metadata.osmWaysRead == 5_130)
        for street in ["Mannerheimintie", "Aleksanterinkatu", "Pohjoisesplanadi", "Eteläesplanadi", "Bulevardi"] {
            #expect(graph.names.contains(street), "\(street)")
            #expect(network.places.contains { $0.kind == .street && $0.name == street }, "\(street) as a place")
        }
        #expect(network.landmarks.contains { $0.name == "Havis Amanda" || $0.name.hasPrefix("Havis Amanda") })
        #expect(network.places.contains { $0.kind == .address && $0.street == "Eteläesplanadi" })
    }

    @Test func helsinkiLeavesOutWaysPedestriansMayNotUse() throws {
        let ways = Set(try OSMTestData.helsinki.get().graph.edgeWayID)

        #expect(!ways.contains(27_327_788), "highway=service, access=private")
        #expect(!ways.contains(23_259_342), "highway=cycleway, foot=no")
        #expect(!ways.contains(28_843_206), "highway=steps, access=private")
        #expect(!ways.contains(8_061_216), "tram and bus lane, access=no")
    }

    @Test func helsinkiMarksCoveredWaysAndCorridorsSheltered() throws {
        let graph = try OSMTestData.helsinki.get().graph

        for way: Int64 in [87_053_914, 23_654_431] {
            let edges = (0..<graph.edgeCount).filter { graph.edgeWayID[$0] == way }
            #expect(!edges.isEmpty && edges.allSatisfy(graph.isSheltered), "w\(way)")
        }
    }

    @Test func helsinkiNodesNearOnTheGroundAreNearInMemory() throws {
        let graph = try OSMTestData.helsinki.get().graph

        // Numbered in OSM id order, 90 % of arcs joined nodes up to 2,055 ids apart (of 3,772); along the
        // Hilbert curve, up to 55.
        #expect(graph.arcGap(atShare: 0.9) < 100)
    }

    @Test func helsinkiGraphIsOneConnectedComponent() throws {
        let graph = try OSMTestData.helsinki.get().graph
        var search = DijkstraSearch(graph: graph)

        search.run(from: [.init(node: 0)])

        #expect((0..<graph.nodeCount).allSatisfy { search.cost(to: $0) < .infinity })
    }

    @Test func secondExtractLeavesOutItsMotorway() throws {
        let network = try StreetNetworkImporter.importFile(atPath: try OSMTestData.extract("test.osm.pbf"))
        let ways = Set(network.graph.edgeWayID)

        #expect(network.graph.edgeCount == 662)
        #expect(network.summary.shelteredEdges == 9)
        #expect(network.landmarks.isEmpty)
        for motorway: Int64 in [2_288_572, 33_042_885, 37_952_515, 191_757_407] { #expect(!ways.contains(motorway)) }
        #expect(!ways.contains(222_731_091), "private driveway")
        #expect(network.places.filter { $0.kind == .street }.count == 97)
    }
}
