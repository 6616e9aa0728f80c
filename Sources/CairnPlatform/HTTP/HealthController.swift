import CairnAPI
import Fluent
import Vapor

extension HealthStatus: Content {}

/// `GET /healthz` for load balancers and uptime checks: 200 when the server and its database answer.
struct HealthController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("healthz", use: health)
    }

    func health(req: Request) async throws -> Response {
        let reachable = await DatabaseSetup.isReachable(req.db)
        let body = HealthStatus(status: reachable ? "ok" : "degraded", database: reachable ? "ok" : "unreachable")
        let response = try await body.encodeResponse(for: req)
        response.status = reachable ? .ok : .serviceUnavailable
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }
}
