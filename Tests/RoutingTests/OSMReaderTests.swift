import Foundation
import Testing

@testable import Routing

@Suite struct OSMReaderTests {
    @Test func pbfReaderCountsEveryElementOfTheHelsinkiExtract() throws {
        // Counts as libosmium reports them for the same file.
        let reader = PBFReader(path: try OSMTestData.extract("Helsinki.osm.pbf"))
        var recorder = ElementRecorder()

        try reader.read(.all, into: &recorder)

        #expect(recorder.nodes.count == 24_260)
        #expect(recorder.ways.count == 5_130)
        #expect(recorder.relations.count == 620)
        #expect(try reader.header().requiredFeatures.contains("DenseNodes"))
        let esplanadi = try #require(recorder.ways.first { $0.tags["name"] == "Pohjoisesplanadi" })
        #expect(esplanadi.nodeIDs.count >= 2 && esplanadi.tags["highway"] != nil)
        #expect(
            recorder.nodes.allSatisfy { (60.1...60.2).contains($0.latitude) && (24.9...25.0).contains($0.longitude) })
    }

    @Test func pbfReaderSkipsElementKindsItIsNotAskedFor() throws {
        let reader = PBFReader(path: try OSMTestData.extract("test.osm.pbf"))
        var recorder = ElementRecorder()

        try reader.read(.ways, into: &recorder)

        #expect(recorder.nodes.isEmpty && recorder.relations.isEmpty)
        #expect(recorder.ways.count == 2_653)
    }

    @Test func xmlAndPBFOfTheSameDataGiveTheSameElements() throws {
        var fromXML = ElementRecorder()
        try OSMXMLReader(path: OSMTestData.fixture("junctions.osm")).read(.all, into: &fromXML)
        let sample = OSMSample(nodes: fromXML.nodes, ways: fromXML.ways, relations: fromXML.relations)
        let pbfPath = OSMTestData.temporaryPath("junctions.osm.pbf")
        try PBFTestWriter.encode(sample).write(to: URL(fileURLWithPath: pbfPath))
        var fromPBF = ElementRecorder()

        try PBFReader(path: pbfPath).read(.all, into: &fromPBF)

        #expect(fromXML.nodes.count == 20 && fromXML.ways.count == 10 && fromXML.relations.count == 2)
        #expect(fromPBF.nodes == fromXML.nodes)
        #expect(fromPBF.ways == fromXML.ways)
        #expect(fromPBF.relations == fromXML.relations)
    }

    @Test func xmlReaderDecodesEntitiesAndCharacterReferences() throws {
        var recorder = ElementRecorder()

        try OSMXMLReader(path: OSMTestData.fixture("junctions.osm")).read(.nodes, into: &recorder)

        #expect(recorder.nodes.first { $0.id == 26 }?.tags["name"] == "Café & Bär")
    }

    @Test func formatIsDetectedFromTheContentNotTheName() throws {
        let xmlNamedPBF = OSMTestData.temporaryPath("really-xml.osm.pbf")
        try FileManager.default.copyItem(atPath: OSMTestData.fixture("junctions.osm"), toPath: xmlNamedPBF)

        #expect(try OSMFile.detectFormat(of: xmlNamedPBF) == .xml)
        #expect(try OSMFile.detectFormat(of: try OSMTestData.extract("test.osm.pbf")) == .pbf)
    }
}

@Suite struct OSMReaderFaultTests {
    /// Imports `bytes` written to a file called `name` and returns the error's one-line description.
    func importFailure(_ bytes: Data, name: String) throws -> OSMImportError {
        let path = OSMTestData.temporaryPath(name)
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: OSMImportError.self) { try StreetNetworkImporter.importFile(atPath: path) }
        #expect(error.description.contains(path))
        #expect(!error.description.contains("\n"))
        return error
    }

    @Test func truncatedPBFIsReportedAsTruncated() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: try OSMTestData.extract("test.osm.pbf")))

        let error = try importFailure(whole.prefix(whole.count / 2), name: "half.osm.pbf")

        guard case .truncated = error.problem else {
            Issue.record("got \(error)")
            return
        }
        #expect(error.description.contains("is truncated: the data ends inside"))
    }

    @Test func pbfWithDamagedCompressedDataIsReportedAsCorrupt() throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: try OSMTestData.extract("test.osm.pbf")))
        for offset in stride(from: 2_000, to: 2_400, by: 7) { bytes[offset] ^= 0x5A }

        let error = try importFailure(bytes, name: "damaged.osm.pbf")

        guard case .corrupt = error.problem else {
            Issue.record("got \(error)")
            return
        }
        #expect(error.description.contains("is corrupt:") && error.description.contains("block"))
    }

    @Test func pbfRequiringAnUnknownFeatureIsRefused() throws {
        let sample = OSMSample(nodes: [OSMNode(id: 1, latitude: 60, longitude: 24, tags: OSMTags())])
        let bytes = PBFTestWriter.encode(sample, requiredFeatures: ["OsmSchema-V0.6", "DenseNodes", "LocationsOnWays"])

        let error = try importFailure(bytes, name: "future.osm.pbf")

        #expect(error.problem == .unsupported("the PBF feature LocationsOnWays"))
    }

    @Test func imagesArchivesAndTextAreNotOSMData() throws {
        let cases: [(Data, String, String)] = [
            (Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]), "map.png", "PNG image"),
            (Data([0x50, 0x4B, 0x03, 0x04, 20, 0]), "extract.zip", "ZIP archive"),
            (Data("Helsinki streets, as notes\n".utf8), "notes.txt", "text file"),
            (Data(), "empty.osm.pbf", "the file is empty"),
            (Data("<?xml version=\"1.0\"?><gpx></gpx>".utf8), "track.gpx", "without an <osm> element"),
        ]
        for (bytes, name, expected) in cases {
            let error = try importFailure(bytes, name: name)

            guard case .notOSMData(let looksLike) = error.problem else {
                Issue.record("\(name): got \(error)")
                continue
            }
            #expect(looksLike.contains(expected), "\(name)")
            #expect(error.description.contains("is not an OpenStreetMap extract"))
        }
    }

    @Test func aBzip2HeaderWithoutDataIsTruncated() throws {
        let error = try importFailure(Data("BZh91AY&SY".utf8), name: "helsinki.osm.bz2")

        #expect(error.problem == .truncated("the bzip2 data ends in the middle of a block"))
    }

    @Test func missingFileIsReportedByName() throws {
        let error = try #require(throws: OSMImportError.self) {
            try StreetNetworkImporter.importFile(atPath: "/nonexistent/helsinki.osm.pbf")
        }

        #expect(error.description == "cannot read /nonexistent/helsinki.osm.pbf: no such file")
    }

    @Test func folderInsteadOfAFileIsReportedByName() throws {
        let folder = (OSMTestData.temporaryPath("x") as NSString).deletingLastPathComponent

        let error = try #require(throws: OSMImportError.self) { try StreetNetworkImporter.importFile(atPath: folder) }

        #expect(error.description == "cannot read \(folder): it is a directory")
    }

    @Test func truncatedXMLIsReportedAsTruncated() throws {
        let text = try String(contentsOfFile: OSMTestData.fixture("junctions.osm"), encoding: .utf8)

        let error = try importFailure(Data(text.utf8.prefix(text.utf8.count * 2 / 3)), name: "cut.osm")

        guard case .truncated = error.problem else {
            Issue.record("got \(error)")
            return
        }
    }

    @Test func malformedXMLNamesTheLine() throws {
        let text = """
            <?xml version="1.0"?>
            <osm version="0.6">
              <node id="1" lat="north" lon="24.9"/>
              <node id="2" lat="60.1" lon="24.9"/>
              <way id="1"><nd ref="1"/><nd ref="2"/><tag k="highway" v="footway"/></way>
            </osm>
            """

        let error = try importFailure(Data(text.utf8), name: "bad.osm")

        #expect(error.problem == .corrupt("<node> without a valid lat at line 3"))
    }

    @Test func extractWithoutWalkableWaysIsRefused() throws {
        let sample = OSMSample(
            nodes: [
                OSMNode(id: 1, latitude: 60, longitude: 24, tags: OSMTags()),
                OSMNode(id: 2, latitude: 60.001, longitude: 24, tags: OSMTags()),
            ],
            ways: [OSMWay(id: 1, nodeIDs: [1, 2], tags: OSMTags([("highway", "motorway")]))])

        let error = try importFailure(PBFTestWriter.encode(sample), name: "motorway-only.osm.pbf")

        #expect(error.problem == .noWalkableWays)
        #expect(
            error.description.hasSuffix(
                "has no walkable ways (no footways, paths or streets a pedestrian may use); choose a larger extract"))
    }
}
