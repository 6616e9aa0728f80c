import Vapor

/// `GET /api/client-config`: what the web app needs to know about this installation before it draws a map.
struct ClientConfigController: RouteCollection {
    struct ClientConfig: Content {
        /// Raster tile URL template used while the browser is online; empty when disabled.
        var tileURL: String
        var tileAttribution: String

        enum CodingKeys: String, CodingKey {
            case tileURL = "tile_url"
            case tileAttribution = "tile_attribution"
        }
    }

    let config: ClientConfig

    func boot(routes: any RoutesBuilder) throws {
        routes.get("client-config") { _ in config }
    }
}
