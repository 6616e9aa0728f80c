import CairnAPI
import NIOConcurrencyHelpers
import Vapor

/// A request whose path is a route's but whose method is not answers 405 Method Not Allowed with `Allow`
/// listing the methods the path takes (RFC 9110 §15.5.6), as problem+json; `OPTIONS` on such a path answers
/// 204 with the same `Allow`. Other unknown paths stay 404. Sits inside `ProblemMiddleware`.
struct MethodNotAllowedMiddleware: AsyncMiddleware {
    let routes: Routes
    private let table = NIOLockedValueBox<[(path: [PathComponent], methods: Set<String>)]?>(nil)

    init(routes: Routes) {
        self.routes = routes
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch let abort as any AbortError
            where abort.status == .notFound && abort.reason == HTTPResponseStatus.notFound.reasonPhrase
        {
            guard let allowed = allowedMethods(for: request.url.path), !allowed.contains(request.method.rawValue)
            else { throw abort }
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
    }

    /// The methods `path` takes (HEAD with GET, as Vapor answers HEAD from the GET route); nil when no route
    /// has this path.
    func allowedMethods(for path: String) -> Set<String>? {
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
