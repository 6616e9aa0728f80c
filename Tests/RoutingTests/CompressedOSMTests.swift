import CBzip2
import Foundation
import Testing
import Zlib

@testable import Routing

/// `.osm.bz2` (Geofabrik's XML downloads) and `.osm.gz` read like the `.osm` inside them.
@Suite struct CompressedOSMTests {
    static let junctions = try! Data(contentsOf: URL(fileURLWithPath: OSMTestData.fixture("junctions.osm")))

    @Test func bzip2AndGzipXMLGiveTheSameElementsAsThePlainXML() throws {
        var plain = ElementRecorder()
        try OSMXMLReader(path: OSMTestData.fixture("junctions.osm")).read(.all, into: &plain)
        let bz2 = OSMTestData.temporaryPath("junctions.osm.bz2")
        let gz = OSMTestData.temporaryPath("junctions.osm.gz")
        try Compressor.bzip2(Self.junctions).write(to: URL(fileURLWithPath: bz2))
        try Compressor.gzip(Self.junctions).write(to: URL(fileURLWithPath: gz))

        for (path, format) in [(bz2, OSMFile.Format.bzip2XML), (gz, .gzipXML)] {
            let reader = try OSMFile.reader(for: path)
            var recorder = ElementRecorder()
            try reader.read(.all, into: &recorder)

            #expect(try OSMFile.detectFormat(of: path) == format)
            #expect(recorder.nodes == plain.nodes && recorder.ways == plain.ways, "\(path)")
            #expect(recorder.relations == plain.relations, "\(path)")
        }
    }

    @Test func aRealExtractAsBzip2XMLImportsToTheSameGraphAsItsPBF() throws {
        let pbf = try OSMTestData.extract("test.osm.pbf")
        var elements = ElementRecorder()
        try PBFReader(path: pbf).read(.all, into: &elements)
        let xml = OSMSample(nodes: elements.nodes, ways: elements.ways, relations: elements.relations).xml
        let bz2 = OSMTestData.temporaryPath("test.osm.bz2")
        try Compressor.bzip2(Data(xml.utf8)).write(to: URL(fileURLWithPath: bz2))

        let fromPBF = try StreetNetworkImporter.importFile(atPath: pbf)
        let fromBzip2 = try StreetNetworkImporter.importFile(atPath: bz2)

        #expect(fromBzip2.graph == fromPBF.graph)
        #expect(fromBzip2.landmarks == fromPBF.landmarks)
        #expect(fromBzip2.metadata.sourceFormat == "xml+bzip2")
        #expect(fromBzip2.graph.nodeCount > 500)
    }

    @Test func concatenatedStreamsAndMembersAreReadAsOne() throws {
        // Parallel compressors (pbzip2, pigz) write one stream per block, one after another.
        let half = Self.junctions.count / 2
        let head = Self.junctions.prefix(half), tail = Self.junctions.suffix(from: half)
        let bz2 = OSMTestData.temporaryPath("two-streams.osm.bz2")
        let gz = OSMTestData.temporaryPath("two-members.osm.gz")
        try (Compressor.bzip2(Data(head)) + Compressor.bzip2(Data(tail))).write(to: URL(fileURLWithPath: bz2))
        try (Compressor.gzip(Data(head)) + Compressor.gzip(Data(tail))).write(to: URL(fileURLWithPath: gz))
        var plain = ElementRecorder()
        try OSMXMLReader(path: OSMTestData.fixture("junctions.osm")).read(.all, into: &plain)

        for path in [bz2, gz] {
            var recorder = ElementRecorder()
            try OSMFile.reader(for: path).read(.all, into: &recorder)

            #expect(recorder.nodes == plain.nodes && recorder.ways == plain.ways, "\(path)")
        }
    }

    @Test func aCutCompressedFileIsTruncatedAndADamagedOneCorrupt() throws {
        for (name, packed) in [
            ("cut.osm.bz2", Compressor.bzip2(Self.junctions)), ("cut.osm.gz", Compressor.gzip(Self.junctions)),
        ] {
            let path = OSMTestData.temporaryPath(name)
            try packed.prefix(packed.count * 2 / 3).write(to: URL(fileURLWithPath: path))

            let error = try #require(throws: OSMImportError.self) { try StreetNetworkImporter.importFile(atPath: path) }

            guard case .truncated = error.problem else {
                Issue.record("\(name): got \(error)")
                continue
            }
            #expect(error.description.hasPrefix("\(path) is truncated"))
        }
        for (name, packed) in [
            ("damaged.osm.bz2", Compressor.bzip2(Self.junctions)), ("damaged.osm.gz", Compressor.gzip(Self.junctions)),
        ] {
            var bytes = packed
            for offset in stride(from: 40, to: min(bytes.count - 20, 400), by: 5) { bytes[offset] ^= 0x5A }
            let path = OSMTestData.temporaryPath(name)
            try bytes.write(to: URL(fileURLWithPath: path))

            let error = try #require(throws: OSMImportError.self) { try StreetNetworkImporter.importFile(atPath: path) }

            guard case .corrupt = error.problem else {
                Issue.record("\(name): got \(error)")
                continue
            }
            #expect(error.description.contains("is corrupt"), "\(name)")
        }
    }
}

/// Compresses test data the way the tools that make the downloads do (bzip2 level 9, gzip).
enum Compressor {
    static func bzip2(_ data: Data) -> Data {
        var capacity = UInt32(data.count + data.count / 100 + 600)
        var output = [CChar](repeating: 0, count: Int(capacity))
        var input = [CChar](data.map { CChar(bitPattern: $0) })
        let status = BZ2_bzBuffToBuffCompress(&output, &capacity, &input, UInt32(input.count), 9, 0, 0)
        precondition(status == BZ_OK, "bzip2 compression failed: \(status)")
        return Data(output.prefix(Int(capacity)).map { UInt8(bitPattern: $0) })
    }

    static func gzip(_ data: Data) -> Data {
        Data(try! Zlib.deflate([UInt8](data), format: .gzip, level: 9))
    }
}
