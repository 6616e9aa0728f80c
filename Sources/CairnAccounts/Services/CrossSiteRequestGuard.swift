import CairnPlatform
import Vapor

/// Protects cookie-authenticated requests from cross-site request forgery. For every unsafe request
/// (POST, PUT, PATCH, DELETE):
/// - a browser's `Origin` (or `Sec-Fetch-Site: cross-site`) must name this site — the `Host`, the
///   `X-Forwarded-Host` a proxy set, or `CAIRN_PUBLIC_URL` — which also stops login CSRF (the platform's
///   `SiteOrigins` decides, as it does for the realtime handshake);
/// - when the session cookie is what authenticates it, it must carry `X-Cairn-Request: 1`, a header a
///   form on another site cannot send and that a cross-origin script may only send after a CORS
///   preflight, which Cairn never grants.
/// Requests with a bearer token carry no ambient credentials and pass.
struct CrossSiteRequestGuard: AsyncMiddleware {
    static let headerName = "X-Cairn-Request"

    let origins: SiteOrigins

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard [.POST, .PUT, .PATCH, .DELETE].contains(request.method) else {
            return try await next.respond(to: request)
        }
        if origins.isCrossSite(request) {
            throw AccountError.crossSiteRequest
        }
        if let presented = request.presentedSessionToken, presented.viaCookie,
            request.headers.first(name: Self.headerName) != "1"
        {
            throw AccountError.crossSiteRequest
        }
        return try await next.respond(to: request)
    }
}
