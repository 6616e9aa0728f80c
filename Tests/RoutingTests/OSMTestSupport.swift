import Foundation
import Testing

@testable import Routing

/// Where the tests find their OpenStreetMap data.
enum OSMTestData {
    /// The folder of real extracts: `CAIRN_OSM_DIR`, or var/osm in the repository.
    static var extractDirectory: URL {
        if let override = ProcessInfo.processInfo.environment["CAIRN_OSM_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        return repositoryRoot.appendingPathComponent("var/osm")
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The path of a real extract (`Helsinki.osm.pbf`, `test.osm.pbf`); fails the test when it is missing.
    static func extract(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let path = extractDirectory.appendingPathComponent(name).path
        try #require(
            FileManager.default.fileExists(atPath: path),
            "\(path) is missing: run `make demo-data` (or set CAIRN_OSM_DIR)", sourceLocation: sourceLocation)
        return path
    }

    /// A committed fixture under Tests/RoutingTests/Fixtures.
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
    }

    /// A fresh temporary file path with the given name.
    static func temporaryPath(_ name: String) -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name).path
    }

    /// Imported once per test process: the real extracts take a fraction of a second each.
    static let helsinki = Result { try StreetNetworkImporter.importFile(atPath: try extract("Helsinki.osm.pbf")) }
}

/// Collects every element of a pass, for comparing readers.
struct ElementRecorder: OSMElementVisitor {
    var nodes: [OSMNode] = []
    var ways: [OSMWay] = []
    var relations: [OSMRelation] = []

    mutating func visit(_ node: OSMNode) { nodes.append(node) }
    mutating func visit(_ way: OSMWay) { ways.append(way) }
    mutating func visit(_ relation: OSMRelation) { relations.append(relation) }
}

/// A small OSM data set that tests write out both as PBF (through `PBFTestWriter`) and as XML, to check
/// that the readers agree.
struct OSMSample {
    var nodes: [OSMNode] = []
    var ways: [OSMWay] = []
    var relations: [OSMRelation] = []

    var xml: String {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        }
        func tags(_ tags: OSMTags) -> String {
            tags.map { "    <tag k=\"\(escape($0.key))\" v=\"\(escape($0.value))\"/>\n" }.joined()
        }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"cairn tests\">\n"
        for node in nodes {
            let position = "id=\"\(node.id)\" lat=\"\(node.latitude)\" lon=\"\(node.longitude)\""
            text +=
                node.tags.isEmpty ? "  <node \(position)/>\n" : "  <node \(position)>\n\(tags(node.tags))  </node>\n"
        }
        for way in ways {
            text += "  <way id=\"\(way.id)\">\n"
            text += way.nodeIDs.map { "    <nd ref=\"\($0)\"/>\n" }.joined() + tags(way.tags) + "  </way>\n"
        }
        for relation in relations {
            text += "  <relation id=\"\(relation.id)\">\n"
            for member in relation.members {
                let type = ["node", "way", "relation"][Int(member.element.kind.rawValue)]
                text += "    <member type=\"\(type)\" ref=\"\(member.element.id)\" role=\"\(member.role)\"/>\n"
            }
            text += tags(relation.tags) + "  </relation>\n"
        }
        return text + "</osm>\n"
    }
}
