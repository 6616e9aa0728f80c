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
/// Requests with a bearer token carry no ambient credentials and pass. (A future-based `Middleware`: it runs
/// on every request, and Vapor gives each `AsyncMiddleware` a task of its own.)
struct CrossSiteRequestGuard: Middleware {
    static let headerName = "X-Cairn-Request"

    let origins: SiteOrigins

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        guard [.POST, .PUT, .PATCH, .DELETE].contains(request.method) else {
            return next.respond(to: request)
        }
        if origins.isCrossSite(request) {
            return request.eventLoop.makeFailedFuture(AccountError.crossSiteRequest)
        }
        if let presented = request.presentedSessionToken, presented.viaCookie,
            request.headers.first(name: Self.headerName) != "1"
        {
            return request.eventLoop.makeFailedFuture(AccountError.crossSiteRequest)
        }
        return next.respond(to: request)
    }
}
