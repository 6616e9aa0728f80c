import Vapor

/// Middleware that takes one attempt per request, keyed by the client's address, under each of its policies —
/// atomically, before the handler runs — and answers 429 with `Retry-After` when any is full. A module declares
/// its policies once (its `…RateLimits` file) and puts its routes behind them at start-up:
///
/// ```swift
/// let limited = routes.limited(by: platform.rateLimited(WeatherRateLimits.requests))
/// limited.get("weather", "nowcast", use: nowcast)
/// ```
package struct RateLimited: AsyncMiddleware {
    package let policies: [RateLimitPolicy]
    private let rateLimits: RateLimits
    private let clients: ClientAddresses

    package init(_ policies: [RateLimitPolicy], rateLimits: RateLimits, clients: ClientAddresses) {
        self.policies = policies
        self.rateLimits = rateLimits
        self.clients = clients
    }

    package func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let client = clients.address(of: request)
        try await rateLimits.take(
            policies.map { $0.limit(client) }, refusal: policies.first?.refusal ?? "Too many requests.")
        return try await next.respond(to: request)
    }
}

extension PlatformServices {
    /// The `RateLimited` middleware for `policies`, on the application's store, clock and setting.
    package func rateLimited(_ policies: RateLimitPolicy...) -> RateLimited {
        RateLimited(policies, rateLimits: rateLimits, clients: clients)
    }
}

extension RoutesBuilder {
    /// Routes behind `middleware`: each request takes its place first. The routes record their policies
    /// (`Route.rateLimitPolicies`), so the contract tests can check that each documents its 429.
    package func limited(by middleware: RateLimited) -> any RoutesBuilder {
        RateLimitedRoutes(root: grouped(middleware), policies: middleware.policies)
    }

    /// Routes whose handlers take `policies` themselves (security limits whose successes are refunded): the
    /// routes record them, as `limited(by:)` does, without a middleware.
    package func limited(inHandler policies: [RateLimitPolicy]) -> any RoutesBuilder {
        RateLimitedRoutes(root: self, policies: policies)
    }
}

extension Route {
    /// The rate limits a request to this route may be refused by (429).
    package var rateLimitPolicies: [RateLimitPolicy] {
        userInfo[RateLimitedRoutes.key] as? [RateLimitPolicy] ?? []
    }
}

/// Tags each route added through it with its rate-limit policies.
private struct RateLimitedRoutes: RoutesBuilder {
    static let key = "cairn.rateLimitPolicies"

    let root: any RoutesBuilder
    let policies: [RateLimitPolicy]

    func add(_ route: Route) {
        route.userInfo[Self.key] = route.rateLimitPolicies + policies
        root.add(route)
    }
}
