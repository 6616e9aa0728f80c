import Foundation
import Routing

/// Writes a street graph as OpenStreetMap XML, so that engines that read OSM files (OSRM, Routino) route on
/// the same generated city as Cairn: one OSM node per graph node and shape point, one way per edge with its
/// `highway` value and name (sheltered edges as `covered=yes` footways). Streamed to the file; a million-node
/// city is a few hundred megabytes of XML.
public enum OSMExport {
    public static func write(_ graph: StreetGraph, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let file = FileHandle(forWritingAtPath: path)
        else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        defer { try? file.close() }
        var buffer = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"cairn-bench\">\n"
        func flush(force: Bool = false) {
            guard force || buffer.utf8.count > 1 << 20 else { return }
            file.write(Data(buffer.utf8))
            buffer = ""
        }
        func degrees(_ value: Double) -> String { String(format: "%.7f", value) }
        for node in 0..<graph.nodeCount {
            buffer +=
                "<node id=\"\(node + 1)\" lat=\"\(degrees(graph.latitudes[node]))\" "
                + "lon=\"\(degrees(graph.longitudes[node]))\" version=\"1\"/>\n"
            flush()
        }
        // Shape points follow the graph's nodes, edge by edge; every node comes before the ways, as OSM
        // files are sorted.
        for index in graph.shapeLatitudes.indices {
            buffer +=
                "<node id=\"\(graph.nodeCount + 1 + index)\" lat=\"\(degrees(graph.shapeLatitudes[index]))\" "
                + "lon=\"\(degrees(graph.shapeLongitudes[index]))\" version=\"1\"/>\n"
            flush()
        }
        for edge in 0..<graph.edgeCount {
            var refs = [Int(graph.edgeSource[edge]) + 1]
            refs += (Int(graph.shapeStart[edge])..<Int(graph.shapeStart[edge + 1])).map { graph.nodeCount + 1 + $0 }
            refs.append(Int(graph.edgeTarget[edge]) + 1)
            buffer += "<way id=\"\(edge + 1)\" version=\"1\">"
            for ref in refs { buffer += "<nd ref=\"\(ref)\"/>" }
            buffer += "<tag k=\"highway\" v=\"\(graph.edgeHighway[edge].osmValue)\"/>"
            if let name = graph.name(of: edge) { buffer += "<tag k=\"name\" v=\"\(escaped(name))\"/>" }
            if graph.isSheltered(edge) { buffer += "<tag k=\"covered\" v=\"yes\"/>" }
            buffer += "</way>\n"
            flush()
        }
        buffer += "</osm>\n"
        flush(force: true)
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
