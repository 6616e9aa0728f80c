import Foundation
import Vapor
import Yams

/// The OpenAPI 3.1 description of the HTTP API, served at `/openapi.json`.
///
/// `openapi.yaml` (the platform's resources) holds the document's head, `platform.yaml` the platform's own
/// routes and `realtime.yaml` the realtime hub's WebSocket; each module owns a YAML fragment in its target's
/// `OpenAPI/` folder holding its `paths` and `components` (`CairnModule.openAPIFragment`). The composition root merges them once at start-up. A test
/// compares the merged document with the routes actually registered, so neither can drift from the other.
package struct OpenAPIDocument: Sendable {
    /// The merged document, as JSON.
    package let json: Data
    /// Every documented operation as `"METHOD /path/{param}"`. A documented last segment with a suffix after
    /// its parameter (`/api/activities/{id}.gpx`) is served by the route of the bare parameter (`{id}`): Vapor
    /// matches whole segments, and that route's handler reads the suffix.
    package let operations: Set<String>
    /// Every documented path template (`/api/activities/{id}.gpx`) with its methods, upper-case.
    package let pathMethods: [String: Set<String>]

    /// The platform's head and fragment merged with `fragments` (the modules' own, in module order).
    package static func load(fragments: [URL]) throws -> OpenAPIDocument {
        guard let headFile = fragment("openapi", in: .module), let platformFile = fragment("platform", in: .module),
            let realtimeFile = fragment("realtime", in: .module)
        else {
            throw StartupError("OpenAPI/openapi.yaml is missing from the server's resources — rebuild Cairn")
        }
        var document = try yamlObject(at: headFile)
        for file in [platformFile, realtimeFile] + fragments {
            try merge(try yamlObject(at: file), into: &document, file: file.lastPathComponent)
        }
        let json = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
        return OpenAPIDocument(
            json: json, operations: Self.operations(in: document), pathMethods: Self.pathMethods(in: document))
    }

    /// `"METHOD /path"` for a route as Vapor registered it, with `:name` parameters written `{name}`.
    package static func operation(method: HTTPMethod, path: [PathComponent]) -> String {
        let parts = path.map { component -> String in
            switch component {
            case .constant(let text): text
            case .parameter(let name): "{\(name)}"
            case .anything: "*"
            case .catchall: "**"
            }
        }
        return "\(method.rawValue) /\(parts.joined(separator: "/"))"
    }

    /// A module's fragment file as its target's resources hold it; nil when missing (a broken build).
    package static func fragment(_ name: String, in bundle: Bundle) -> URL? {
        guard let file = bundle.url(forResource: "OpenAPI", withExtension: nil)?.appendingPathComponent("\(name).yaml"),
            FileManager.default.fileExists(atPath: file.path)
        else { return nil }
        return file
    }

    private static func yamlObject(at url: URL) throws -> [String: Any] {
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let object = try Yams.load(yaml: text) as? [String: Any] else {
            throw StartupError("OpenAPI fragment \(url.lastPathComponent) is not a YAML mapping")
        }
        return object
    }

    /// Adds a fragment's `paths` and `components` to the document; a name defined twice is an error.
    private static func merge(_ fragment: [String: Any], into document: inout [String: Any], file: String) throws {
        for section in ["paths", "components"] {
            guard let additions = fragment[section] as? [String: Any] else { continue }
            var target = document[section] as? [String: Any] ?? [:]
            if section == "paths" {
                for (path, item) in additions {
                    guard target[path] == nil else {
                        throw StartupError("OpenAPI path \(path) in \(file) is defined twice")
                    }
                    target[path] = item
                }
            } else {
                for (kind, entries) in additions {
                    var existing = target[kind] as? [String: Any] ?? [:]
                    for (name, value) in entries as? [String: Any] ?? [:] {
                        guard existing[name] == nil else {
                            throw StartupError("OpenAPI component \(kind).\(name) in \(file) is defined twice")
                        }
                        existing[name] = value
                    }
                    target[kind] = existing
                }
            }
            document[section] = target
        }
    }

    private static func pathMethods(in document: [String: Any]) -> [String: Set<String>] {
        let methods = ["get", "put", "post", "delete", "patch", "head", "options"]
        var result: [String: Set<String>] = [:]
        for (path, item) in document["paths"] as? [String: Any] ?? [:] {
            guard let item = item as? [String: Any] else { continue }
            result[path] = Set(methods.filter { item[$0] != nil }.map { $0.uppercased() })
        }
        return result
    }

    private static func operations(in document: [String: Any]) -> Set<String> {
        let methods = ["get", "put", "post", "delete", "patch", "head", "options"]
        var result = Set<String>()
        for (path, item) in document["paths"] as? [String: Any] ?? [:] {
            guard let item = item as? [String: Any] else { continue }
            let served = path.replacing(/\{(\w+)\}\.\w+$/) { "{\($0.output.1)}" }
            for method in methods where item[method] != nil {
                result.insert("\(method.uppercased()) \(served)")
            }
        }
        return result
    }
}

/// Serves the merged document.
package struct OpenAPIController: RouteCollection {
    let document: OpenAPIDocument

    package init(document: OpenAPIDocument) {
        self.document = document
    }

    package func boot(routes: any RoutesBuilder) throws {
        routes.get("openapi.json") { _ -> Response in
            var headers = HTTPHeaders()
            headers.contentType = .json
            headers.replaceOrAdd(name: .accessControlAllowOrigin, value: "*")
            return Response(status: .ok, headers: headers, body: .init(data: document.json))
        }
    }
}
