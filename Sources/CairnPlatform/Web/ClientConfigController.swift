import CairnAPI
import Vapor

extension ClientConfig: Content {}

/// `GET /api/client-config`: what the web app needs to know about this installation before it draws a map.
struct ClientConfigController: RouteCollection {
    let config: ClientConfig

    func boot(routes: any RoutesBuilder) throws {
        routes.get("client-config") { _ in config }
    }
}
