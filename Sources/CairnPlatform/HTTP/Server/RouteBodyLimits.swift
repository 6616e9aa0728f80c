import NIOHTTP1
import RoutingKit
import Vapor

extension RoutesBuilder {
    /// Registers a route that accepts request bodies of up to `bytes` — more or less than
    /// `CAIRN_MAX_BODY_BYTES` (a profile picture, say). A body of exactly `bytes` passes, a larger one is
    /// answered 413.
    ///
    /// Cairn's HTTP server collects each body before the responder runs, so it must know a route's limit
    /// from the request line alone: this records it on the route (`RouteBodyLimits` reads it) as well as
    /// giving Vapor's own collection the same limit. A route given only `.collect(maxSize:)` keeps the
    /// server-wide limit.
    @discardableResult
    @preconcurrency
    public func on<Response: AsyncResponseEncodable>(
        _ method: HTTPMethod, _ path: PathComponent..., bodyLimit bytes: Int,
        use closure: @Sendable @escaping (Request) async throws -> Response
    ) -> Route {
        let route = on(method, path, body: .collect(maxSize: .bodyLimit(allowing: bytes)), use: closure)
        route.userInfo[RouteBodyLimits.userInfoKey] = bytes
        return route
    }
}

/// The body limits of the routes that declared their own (`on(_:_:bodyLimit:use:)`), larger or smaller than
/// the server-wide one, found by method and path without running the responder. Built once before the server
/// starts and only read afterwards, so its router is shared by every event loop without a lock.
final class RouteBodyLimits: @unchecked Sendable {
    static let userInfoKey: AnySendableHashable = "cairn.bodyLimitBytes"

    private let router: TrieRouter<Int>
    let defaultLimit: Int
    /// Whether some route accepts less than `defaultLimit`.
    let hasSmallerLimits: Bool

    /// Reads the limits of `routes` as they are now (routes are registered before the server starts).
    init(routes: Routes, defaultLimit: Int) {
        let options: Set<TrieRouter<Int>.ConfigurationOption> = routes.caseInsensitive ? [.caseInsensitive] : []
        let router = TrieRouter(Int.self, options: options)
        var hasSmallerLimits = false
        for route in routes.all {
            guard let bytes = route.userInfo[Self.userInfoKey] as? Int else { continue }
            hasSmallerLimits = hasSmallerLimits || bytes < defaultLimit
            let path = route.path.filter { component in
                if case .constant(let text) = component { return !text.isEmpty }
                return true
            }
            router.register(bytes, at: [.constant(route.method.rawValue)] + path)
        }
        self.router = router
        self.defaultLimit = defaultLimit
        self.hasSmallerLimits = hasSmallerLimits
    }

    /// The largest body a request to `uri` with `method` may carry.
    func limit(method: HTTPMethod, uri: String) -> Int {
        let path = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let components = [method.rawValue] + path.split(separator: "/").map { String($0) }
        var parameters = Parameters()
        return router.route(path: components, parameters: &parameters) ?? defaultLimit
    }
}
