import Foundation
import Testing

@testable import Routing

@Suite struct GraphSnapshotTests {
    @Test func helsinkiRoundTripsThroughASnapshotUnchanged() throws {
        let network = try OSMTestData.helsinki.get()
        let path = OSMTestData.temporaryPath("helsinki.cairngraph")

        try network.write(to: path)
        let loaded = try StreetNetwork(contentsOf: path)

        #expect(loaded.graph == network.graph)
        #expect(loaded.landmarks == network.landmarks)
        #expect(loaded.places == network.places)
        #expect(loaded.metadata == network.metadata)
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: (path as NSString).deletingLastPathComponent)
        #expect(leftovers == ["helsinki.cairngraph"], "no temporary file left behind")
    }

    @Test func unknownSectionsAreKeptAndSkipped() throws {
        let network = try StreetNetworkImporter.importFile(atPath: OSMTestData.fixture("junctions.osm"))
        var snapshot = network.snapshot()
        snapshot["XTRA"] = Data(snapshotArray: [Int32(7), 8, 9])
        let path = OSMTestData.temporaryPath("extra.cairngraph")

        try snapshot.write(to: path)
        let reread = try GraphSnapshot(contentsOf: path)
        let loaded = try StreetNetwork(snapshot: reread, file: path)

        #expect(reread["XTRA"]?.snapshotArray(of: Int32.self) == [7, 8, 9])
        #expect(reread.sectionTags.last == "XTRA")
        #expect(loaded.graph == network.graph)
    }

    @Test func truncatedSnapshotIsRefused() throws {
        let bytes = try smallSnapshotBytes()
        for length in [4, 12, 40, bytes.count / 2, bytes.count - 1] {
            let error = try loadFailure(bytes.prefix(length))

            guard case .truncated = error.problem else {
                Issue.record("\(length) bytes: got \(error)")
                continue
            }
            #expect(error.description.contains("is truncated"))
        }
    }

    @Test func damagedSnapshotFailsItsChecksum() throws {
        var bytes = try smallSnapshotBytes()
        bytes[bytes.count - 3] ^= 0xFF

        let error = try loadFailure(bytes)

        guard case .corrupt(let detail) = error.problem else {
            Issue.record("got \(error)")
            return
        }
        #expect(detail.hasSuffix("fails its checksum"))
        #expect(error.description.hasSuffix("import the extract again with `cairn graph import`"))
    }

    @Test func snapshotOfAnotherVersionIsRefused() throws {
        var bytes = try smallSnapshotBytes()
        bytes[8] = 99

        let error = try loadFailure(bytes)

        #expect(error.problem == .wrongVersion(99))
        #expect(error.description.contains("is snapshot format version 99, this Cairn reads version 1"))
    }

    @Test func otherFilesAreNotSnapshots() throws {
        let pbf = try Data(contentsOf: URL(fileURLWithPath: try OSMTestData.extract("test.osm.pbf")))

        let error = try loadFailure(pbf)

        #expect(error.problem == .notASnapshot)
    }

    @Test func consistentChecksumsButBrokenIndicesAreRefused() throws {
        let network = try StreetNetworkImporter.importFile(atPath: OSMTestData.fixture("junctions.osm"))
        var snapshot = network.snapshot()
        snapshot[.adjacencyNode] = Data(snapshotArray: network.graph.adjacencyNode.map { $0 + 100 })

        let error = try loadFailure(snapshot.encoded())

        #expect(error.problem == .corrupt("an arc names a missing node"))
    }

    @Test func missingSectionIsNamed() throws {
        var snapshot = try StreetNetworkImporter.importFile(atPath: OSMTestData.fixture("junctions.osm")).snapshot()
        snapshot[.edgeLength] = nil

        let error = try loadFailure(snapshot.encoded())

        #expect(error.problem == .missingSection("ELEN"))
    }

    @Test func failedWriteLeavesTheOldSnapshotInPlace() throws {
        let network = try StreetNetworkImporter.importFile(atPath: OSMTestData.fixture("junctions.osm"))
        let error = try #require(throws: GraphSnapshotError.self) {
            try network.write(to: "/nonexistent-folder/graph.cairngraph")
        }

        #expect(error.description.hasPrefix("cannot write graph /nonexistent-folder/graph.cairngraph:"))
    }

    // MARK: Helpers

    func smallSnapshotBytes() throws -> Data {
        try StreetNetworkImporter.importFile(atPath: OSMTestData.fixture("junctions.osm")).snapshot().encoded()
    }

    func loadFailure(_ bytes: Data) throws -> GraphSnapshotError {
        let path = OSMTestData.temporaryPath("broken.cairngraph")
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: GraphSnapshotError.self) { try StreetNetwork(contentsOf: path) }
        #expect(error.description.contains(path) && !error.description.contains("\n"))
        return error
    }
}
