import CairnAPI
import NIOConcurrencyHelpers
import Vapor

/// A request whose path is a route's but whose method is not answers 405 Method Not Allowed with `Allow`
/// listing the methods the path takes (RFC 9110 §15.5.6), as problem+json; `OPTIONS` on such a path answers
/// 204 with the same `Allow`. Other unknown paths stay 404. Sits inside `ProblemMiddleware`.
///
/// The methods are the OpenAPI document's for the path (`DocumentedPaths`), matched as OpenAPI matches: a
/// concrete segment before a template, so `/api/activities/import` takes only POST although Vapor's router
/// would also hand a GET of it to `/api/activities/{id}`, and `/api/activities/{id}.gpx` only GET. Paths
/// the document does not have fall back to the registered routes.
struct MethodNotAllowedMiddleware: AsyncMiddleware {
    let routes: Routes
    private let table = NIOLockedValueBox<[(path: [PathComponent], methods: Set<String>)]?>(nil)

    init(routes: Routes) {
        self.routes = routes
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let documented = request.application.storage[DocumentedPaths.Key.self]
        // A concrete path that Vapor's router would hand to a template's route for another method
        // (`GET /api/activities/route` to `GET /api/activities/{id}`): 405, as the document says.
        if let documented, documented.shadowed[request.url.path]?.contains(request.method.rawValue) == true,
            let allowed = allowedMethods(for: request.url.path, documented: documented)
        {
            return refusal(of: request, allowed: allowed)
        }
        // A suffixed template that Vapor's router would hand to the bare template's route for another method
        // (`PATCH /api/trails/{id}.gpx` to `PATCH /api/trails/{id}`): 405, as the document says.
        if let documented, request.url.path.hasPrefix("/api/"),
            request.url.path.split(separator: "/").last?.contains(".") == true,
            let allowed = allowedMethods(for: request.url.path, documented: documented),
            !allowed.contains(request.method.rawValue)
        {
            return refusal(of: request, allowed: allowed)
        }
        do {
            return try await next.respond(to: request)
        } catch let abort as any AbortError
            where abort.status == .notFound && abort.reason == HTTPResponseStatus.notFound.reasonPhrase
        {
            guard
                let allowed = allowedMethods(for: request.url.path, documented: documented),
                !allowed.contains(request.method.rawValue)
            else { throw abort }
            return refusal(of: request, allowed: allowed)
        }
    }

    /// 405 with `Allow` (204 for OPTIONS).
    private func refusal(of request: Request, allowed: Set<String>) -> Response {
        let allow = allowed.sorted().joined(separator: ", ")
        if request.method == .OPTIONS {
            let response = Response(status: .noContent)
            response.headers.replaceOrAdd(name: .allow, value: allow)
            return response
        }
        let problem = Problem(
            status: .methodNotAllowed,
            detail: "\(request.url.path) does not take \(request.method.rawValue); it takes \(allow).")
        let response = ProblemMiddleware.response(for: problem, request: request)
        response.headers.replaceOrAdd(name: .allow, value: allow)
        return response
    }

    /// The methods `path` takes (HEAD with GET, as Vapor answers HEAD from the GET route); nil when no route
    /// has this path.
    func allowedMethods(for path: String, documented: DocumentedPaths? = nil) -> Set<String>? {
        if let methods = documented?.methods(for: path) {
            return methods.contains("GET") ? methods.union(["HEAD"]) : methods
        }
        let table = table.withLockedValue { table in
            if let table { return table }
            let built = Self.build(routes.all)
            table = built
            return built
        }
        let parts = path.split(separator: "/").map(String.init)
        let matching = table.filter { Self.matches($0.path, parts) }
        guard !matching.isEmpty else { return nil }
        return matching.reduce(into: Set<String>()) { $0.formUnion($1.methods) }
    }

    /// The routes' paths, parameters made alike (`:id` and `:name` at one place are one path), each with its
    /// methods.
    private static func build(_ routes: [Route]) -> [(path: [PathComponent], methods: Set<String>)] {
        var methods: [String: (path: [PathComponent], methods: Set<String>)] = [:]
        for route in routes {
            let path = route.path.map { component -> PathComponent in
                if case .parameter = component { return .parameter("p") }
                return component
            }
            let key = path.map(\.description).joined(separator: "/")
            var entry = methods[key] ?? (path, [])
            entry.methods.insert(route.method.rawValue)
            if route.method == .GET { entry.methods.insert(HTTPMethod.HEAD.rawValue) }
            methods[key] = entry
        }
        return Array(methods.values)
    }

    /// Whether a route path matches the request path's parts, as Vapor's router matches them.
    private static func matches(_ route: [PathComponent], _ parts: [String]) -> Bool {
        var index = 0
        for component in route {
            switch component {
            case .catchall:
                return index < parts.count
            case .anything, .parameter:
                guard index < parts.count else { return false }
            case .constant(let text):
                guard index < parts.count, parts[index] == text else { return false }
            }
            index += 1
        }
        return index == parts.count
    }
}

/// The OpenAPI document's paths and their methods, for `MethodNotAllowedMiddleware`'s `Allow`.
package struct DocumentedPaths: Sendable {
    struct Key: StorageKey {
        typealias Value = DocumentedPaths
    }

    private enum Segment: Sendable {
        case constant(String)
        /// `{id}` (suffix "") or `{id}.gpx` (suffix ".gpx").
        case parameter(suffix: String)

        /// 2 for a constant, 1 for a parameter with a suffix, 0 for a bare parameter: OpenAPI's "concrete
        /// before templated".
        var specificity: Int {
            switch self {
            case .constant: 2
            case .parameter(let suffix): suffix.isEmpty ? 0 : 1
            }
        }

        func matches(_ part: String) -> Bool {
            switch self {
            case .constant(let text): part == text
            case .parameter(let suffix): part.count > suffix.count && part.hasSuffix(suffix)
            }
        }
    }

    private let paths: [(segments: [Segment], methods: Set<String>)]
    /// For each documented path without parameters, the methods it does not take but that a template path
    /// matching it does (`/api/activities/route` and GET, DELETE of `/api/activities/{id}`): requests Vapor's
    /// router would hand to the template's route.
    let shadowed: [String: Set<String>]

    package init(_ document: OpenAPIDocument) {
        let paths = document.pathMethods.map { path, methods in
            let segments = path.split(separator: "/").map { part -> Segment in
                guard part.hasPrefix("{"), let close = part.firstIndex(of: "}") else { return .constant(String(part)) }
                return .parameter(suffix: String(part[part.index(after: close)...]))
            }
            return (segments: segments, methods: methods)
        }
        var shadowed: [String: Set<String>] = [:]
        for (path, methods) in document.pathMethods where !path.contains("{") {
            let parts = path.split(separator: "/").map(String.init)
            var others = Set<String>()
            for entry in paths where entry.segments.count == parts.count {
                if zip(entry.segments, parts).allSatisfy({ $0.matches($1) }) { others.formUnion(entry.methods) }
            }
            if others.contains("GET") { others.insert("HEAD") }
            let own = methods.contains("GET") ? methods.union(["HEAD"]) : methods
            if !others.subtracting(own).isEmpty { shadowed[path] = others.subtracting(own) }
        }
        self.paths = paths
        self.shadowed = shadowed
    }

    /// The methods of the most specific documented path that matches `path`; nil when none does.
    package func methods(for path: String) -> Set<String>? {
        let parts = path.split(separator: "/").map(String.init)
        var best: (score: [Int], methods: Set<String>)?
        for entry in paths where entry.segments.count == parts.count {
            guard zip(entry.segments, parts).allSatisfy({ $0.matches($1) }) else { continue }
            let score = entry.segments.map(\.specificity)
            if let current = best, current.score == score {
                best = (score, current.methods.union(entry.methods))
            } else if best == nil || best!.score.lexicographicallyPrecedes(score) {
                best = (score, entry.methods)
            }
        }
        return best?.methods
    }
}
