import CairnAPI
import Fluent
import Vapor

extension HealthStatus: Content {}

/// `GET /healthz` for load balancers and uptime checks: 200 when the server and its database answer and the
/// data folder's disk has room; 503 when the database does not answer or the disk is full (writes would be
/// refused 507 — a load balancer should send people to an instance that can save their work); 200 with
/// `status: degraded` while the disk is merely low, so monitoring warns before anything is refused
/// (docs/operations.md, "Disk full").
struct HealthController: RouteCollection {
    let dataDirectory: URL
    let space: DataFolderSpace

    func boot(routes: any RoutesBuilder) throws {
        routes.get("healthz", use: health)
    }

    func health(req: Request) async throws -> Response {
        let reachable = await DatabaseSetup.isReachable(req.db)
        let disk = space.level(of: dataDirectory)
        let body = HealthStatus(
            status: reachable && disk == .ok ? "ok" : "degraded", database: reachable ? "ok" : "unreachable",
            disk: disk.rawValue)
        let response = try await body.encodeResponse(for: req)
        response.status = reachable && disk != .full ? .ok : .serviceUnavailable
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }
}
