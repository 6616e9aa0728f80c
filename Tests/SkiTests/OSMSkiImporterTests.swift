import Foundation
import Geo
import Testing

@testable import Routing
@testable import Ski

/// The OpenStreetMap ski importer on a hand-drawn extract in OSM's ski tagging (Fixtures/adirondacks.osm:
/// Willard Mountain as a way, Whiteface Mountain as a multipolygon relation) and on the real extracts.
@Suite struct OSMSkiImporterTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/adirondacks.osm").path

    static let osmFolder =
        ProcessInfo.processInfo.environment["CAIRN_OSM_DIR"].map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("var/osm")

    static func imported() throws -> SkiImport {
        try OSMSkiImporter().read(try OSMFile.reader(for: fixture))
    }

    static func area(_ name: String, in result: SkiImport) throws -> SkiAreaDraft {
        try #require(result.areas.first { $0.name == name })
    }

    @Test func namedWinterSportsWaysAndRelationsBecomeAreasWithAddressAndWebsite() throws {
        let result = try Self.imported()

        #expect(result.areas.map(\.name) == ["Whiteface Mountain", "Willard Mountain"])
        let willard = try Self.area("Willard Mountain", in: result)
        #expect(willard.osmID == OSMElementID(.way, 1001))
        #expect(willard.website == "https://www.willardmountain.com")
        #expect(willard.address.oneLine == "77 Intervale Road, Greenwich, NY 12834, US")
        #expect(abs(willard.centre.latitude - 43.0110) < 0.0001)
        #expect(abs(willard.centre.longitude - -73.5280) < 0.0001)
        #expect(willard.bounds == BoundingBox(south: 43.0060, west: -73.5360, north: 43.0160, east: -73.5200))
        let whiteface = try Self.area("Whiteface Mountain", in: result)
        #expect(whiteface.osmID == OSMElementID(.relation, 5001))
        #expect(whiteface.website == "https://whiteface.com")
        #expect(whiteface.address.city == "Wilmington")
        #expect(whiteface.address.street == "NY 86")
        #expect(whiteface.bounds == BoundingBox(south: 44.3500, west: -73.9100, north: 44.3900, east: -73.8700))
        #expect(abs(whiteface.centre.latitude - 44.3700) < 0.001)
    }

    @Test func altitudesComeFromLiftStationsAndPeaksInsideTheArea() throws {
        let result = try Self.imported()

        let willard = try Self.area("Willard Mountain", in: result)
        #expect(willard.baseAltitudeMeters == 290)
        #expect(willard.summitAltitudeMeters == 434)
        let whiteface = try Self.area("Whiteface Mountain", in: result)
        #expect(whiteface.baseAltitudeMeters == 372)
        #expect(whiteface.summitAltitudeMeters == 1483)
    }

    @Test(
        arguments: [
            ("1483", 1483.0), (" 425 m ", 425.0), ("1483.5", 1483.5), ("4867 ft", 1483.462), ("4867'", 1483.462),
            ("about a mile", nil), ("", nil), ("12000", nil), ("nan", nil),
        ] as [(String, Double?)])
    func eleValuesAreReadInMetres(ele: String, meters: Double?) {
        let read = OSMSkiImporter.meters(ele)

        #expect((read.map { ($0 * 1000).rounded() / 1000 }) == meters)
    }

    @Test func pistesCarryDifficultyGroomingAndLengthAlongTheWay() throws {
        let willard = try Self.area("Willard Mountain", in: try Self.imported())
        let byName = Dictionary(willard.pistes.map { ($0.displayName, $0) }, uniquingKeysWith: { a, _ in a })

        let rebel = try #require(byName["Rebel"])
        #expect(rebel.difficulty == .intermediate)
        #expect(rebel.grooming == .classic)
        // 0.0080° of latitude along one meridian.
        #expect(abs(rebel.lengthMeters! - 889.6) < 1)
        let sleepy = try #require(byName["Sleepy Hollow"])
        #expect(sleepy.difficulty == .easy)
        #expect(sleepy.lengthMeters! > 889)
        let cannonball = try #require(byName["Cannonball"])
        #expect(cannonball.difficulty == .expert)
        #expect(cannonball.grooming == nil)
        #expect(willard.pistes.map(\.difficulty.rank) == willard.pistes.map(\.difficulty.rank).sorted())
    }

    @Test func theWaysOfOneNamedPisteAreJoined() throws {
        let willard = try Self.area("Willard Mountain", in: try Self.imported())

        let tumbleweed = willard.pistes.filter { $0.name == "Tumbleweed" }
        #expect(tumbleweed.count == 1)
        #expect(tumbleweed[0].osmIDs == [OSMElementID(.way, 2003), OSMElementID(.way, 2004)])
        #expect(abs(tumbleweed[0].lengthMeters! - 667.2) < 1)
        #expect(tumbleweed[0].grooming == .mogul)
        #expect(tumbleweed[0].lines.count == 2)
    }

    @Test func unknownOrUnsetDifficultyStaysUnknown() throws {
        let willard = try Self.area("Willard Mountain", in: try Self.imported())

        let glades = try #require(willard.pistes.first { $0.name == "The Glades" })
        #expect(glades.difficulty == .unknown)
        #expect(glades.grooming == .backcountry)
        let seven = try #require(willard.pistes.first { $0.ref == "7" })
        #expect(seven.name == nil)
        #expect(seven.displayName == "Piste 7")
        #expect(seven.difficulty == .unknown)
        let unnamed = try #require(willard.pistes.first { $0.osmIDs == [OSMElementID(.way, 2006)] })
        #expect(unnamed.displayName == "Unnamed piste")
        #expect(unnamed.difficulty == .novice)
    }

    @Test func aPisteBesideTheOutlineBelongsToTheNearestAreaAndAFarOneToNone() throws {
        let result = try Self.imported()
        let willard = try Self.area("Willard Mountain", in: result)

        #expect(willard.pistes.contains { $0.name == "Outer Limits" })
        #expect(result.unassignedPistes.map(\.name) == ["Lonely Run"])
        let tight = try OSMSkiImporter(maxAssignMeters: 50).read(try OSMFile.reader(for: Self.fixture))
        #expect(tight.unassignedPistes.map(\.name) == ["Lonely Run", "Outer Limits"])
    }

    @Test func pisteNameComesBeforeTheWaysOwnName() throws {
        let whiteface = try Self.area("Whiteface Mountain", in: try Self.imported())

        #expect(whiteface.pistes.map(\.displayName) == ["Boreen", "Skyward", "The Slides"])
        #expect(whiteface.pistes.map(\.difficulty) == [.easy, .advanced, .extreme])
    }

    @Test func nordicAbandonedAndAreaPistesAreHandled() throws {
        let willard = try Self.area("Willard Mountain", in: try Self.imported())
        let names = willard.pistes.compactMap(\.name)

        #expect(!names.contains("Base Loop"))
        #expect(!names.contains("Old Rope Line"))
        let learning = try #require(willard.pistes.first { $0.name == "Learning Area" })
        #expect(learning.lengthMeters == nil)
        #expect(willard.pisteLengthMeters > 4_000)
    }

    @Test func liftsHaveKindLengthOccupancyAndCapacity() throws {
        let result = try Self.imported()
        let willard = try Self.area("Willard Mountain", in: result)

        #expect(willard.lifts.map(\.displayName) == ["Magic carpet", "Summit Quad", "T-Bar"])
        let quad = try #require(willard.lifts.first { $0.name == "Summit Quad" })
        #expect(quad.kind == .chairLift)
        #expect(quad.occupancy == 4)
        #expect(quad.capacityPerHour == 2000)
        #expect(quad.lengthMeters > 950 && quad.lengthMeters < 1_000)
        let carpet = try #require(willard.lifts.first { $0.kind == .magicCarpet })
        #expect(carpet.capacityPerHour == nil)
        #expect(willard.lifts.first { $0.kind == .tBar }?.name == "T-Bar")
        let whiteface = try Self.area("Whiteface Mountain", in: result)
        #expect(whiteface.lifts.map(\.kind) == [.gondola])
        #expect(whiteface.lifts[0].occupancy == 8)
        #expect(result.unassignedLifts.isEmpty)
    }

    @Test func theRealExtractsReadWithoutErrorAndGiveSaneAreas() throws {
        for file in ["Helsinki.osm.pbf", "test.osm.pbf"] {
            let path = Self.osmFolder.appendingPathComponent(file).path
            guard FileManager.default.fileExists(atPath: path) else { continue }

            let result = try OSMSkiImporter().read(try OSMFile.reader(for: path))

            for area in result.areas {
                #expect(!area.name.isEmpty)
                #expect(area.bounds.contains(area.centre) || area.bounds.north - area.bounds.south < 0.001)
                #expect(area.pistes.allSatisfy { ($0.lengthMeters ?? 1) > 0 })
            }
        }
    }

    @Test func aFileThatIsNotOSMIsRefused() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ski-\(UUID().uuidString).csv")
        try Data("mountain,kind\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }

        #expect(throws: OSMImportError.self) { try OSMSkiImporter().read(try OSMFile.reader(for: url.path)) }
    }
}

/// Replays elements built in the test, as a reader of any format would hand them over.
struct ElementsReader: OSMReader {
    var path = "memory"
    var formatName = "memory"
    var nodes: [OSMNode] = []
    var ways: [OSMWay] = []
    var relations: [OSMRelation] = []

    func read<Visitor: OSMElementVisitor>(_ kinds: OSMElementKinds, into visitor: inout Visitor) throws {
        if kinds.contains(.nodes) { for node in nodes { try visitor.visit(node) } }
        if kinds.contains(.ways) { for way in ways { try visitor.visit(way) } }
        if kinds.contains(.relations) { for relation in relations { try visitor.visit(relation) } }
    }

    /// A closed square way of `size` degrees with its south-west corner at (`lat`, `lon`).
    mutating func square(id: Int64, lat: Double, lon: Double, size: Double, tags: [(String, String)]) {
        let corners = [(lat, lon), (lat, lon + size), (lat + size, lon + size), (lat + size, lon)]
        let ids = corners.enumerated().map { offset, corner in
            let nodeID = id * 10 + Int64(offset)
            nodes.append(OSMNode(id: nodeID, latitude: corner.0, longitude: corner.1, tags: OSMTags()))
            return nodeID
        }
        ways.append(OSMWay(id: id, nodeIDs: ids + [ids[0]], tags: OSMTags(tags)))
    }

    /// A two-node way from (`lat`, `lon`) a little north.
    mutating func line(id: Int64, lat: Double, lon: Double, tags: [(String, String)]) {
        nodes.append(OSMNode(id: id * 10, latitude: lat, longitude: lon, tags: OSMTags()))
        nodes.append(OSMNode(id: id * 10 + 1, latitude: lat + 0.001, longitude: lon, tags: OSMTags()))
        ways.append(OSMWay(id: id, nodeIDs: [id * 10, id * 10 + 1], tags: OSMTags(tags)))
    }
}

@Suite struct SkiAreaAssignmentTests {
    @Test func aPisteInNestedAreasBelongsToTheSmallestAndOneBetweenTwoAreasToTheNearer() throws {
        var reader = ElementsReader()
        reader.square(
            id: 1, lat: 46.0, lon: 7.0, size: 0.05, tags: [("landuse", "winter_sports"), ("name", "Big Resort")])
        reader.square(
            id: 2, lat: 46.01, lon: 7.01, size: 0.005, tags: [("landuse", "winter_sports"), ("name", "Kids Park")])
        reader.square(
            id: 3, lat: 46.0, lon: 7.08, size: 0.01, tags: [("landuse", "winter_sports"), ("name", "East Hill")])
        let downhill = [("piste:type", "downhill")]
        reader.line(id: 10, lat: 46.011, lon: 7.012, tags: downhill + [("name", "Bunny")])
        reader.line(id: 11, lat: 46.03, lon: 7.03, tags: downhill + [("name", "Main Run")])
        reader.line(id: 12, lat: 46.004, lon: 7.0535, tags: downhill + [("name", "Closer To Big")])
        reader.line(id: 13, lat: 46.004, lon: 7.077, tags: downhill + [("name", "Closer To East")])

        let result = try OSMSkiImporter().read(reader)

        let pistes = Dictionary(uniqueKeysWithValues: result.areas.map { ($0.name, $0.pistes.compactMap(\.name)) })
        #expect(pistes["Kids Park"] == ["Bunny"])
        #expect(pistes["Big Resort"] == ["Closer To Big", "Main Run"])
        #expect(pistes["East Hill"] == ["Closer To East"])
    }
}
