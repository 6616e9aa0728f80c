import Vapor

/// Protects cookie-authenticated requests from cross-site request forgery. For every unsafe request
/// (POST, PUT, PATCH, DELETE):
/// - a browser's `Origin` (or `Sec-Fetch-Site: cross-site`) must name this site — the `Host`, the
///   `X-Forwarded-Host` a proxy set, or `CAIRN_PUBLIC_URL` — which also stops login CSRF;
/// - when the session cookie is what authenticates it, it must carry `X-Cairn-Request: 1`, a header a
///   form on another site cannot send and that a cross-origin script may only send after a CORS
///   preflight, which Cairn never grants.
/// Requests with a bearer token carry no ambient credentials and pass. (A future-based `Middleware`: it runs
/// on every request, and Vapor gives each `AsyncMiddleware` a task of its own.)
struct CrossSiteRequestGuard: Middleware {
    static let headerName = "X-Cairn-Request"

    /// `CAIRN_PUBLIC_URL`, whose host is this site too.
    let publicURL: URL?

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        guard [.POST, .PUT, .PATCH, .DELETE].contains(request.method) else {
            return next.respond(to: request)
        }
        if request.headers.first(name: "Sec-Fetch-Site")?.lowercased() == "cross-site" {
            return request.eventLoop.makeFailedFuture(AccountError.crossSiteRequest)
        }
        if let origin = request.headers.first(name: .origin), !isSameSite(origin, request) {
            return request.eventLoop.makeFailedFuture(AccountError.crossSiteRequest)
        }
        if let presented = request.presentedSessionToken, presented.viaCookie,
            request.headers.first(name: Self.headerName) != "1"
        {
            return request.eventLoop.makeFailedFuture(AccountError.crossSiteRequest)
        }
        return next.respond(to: request)
    }

    private func isSameSite(_ origin: String, _ request: Request) -> Bool {
        guard let url = URL(string: origin), let host = url.host?.lowercased() else { return false }
        let authority = url.port.map { "\(host):\($0)" } ?? host
        var accepted = [request.headers.first(name: .host), request.headers.first(name: "X-Forwarded-Host")]
            .compactMap { $0?.lowercased() }
        if let publicURL, let publicHost = publicURL.host?.lowercased() {
            accepted.append(publicURL.port.map { "\(publicHost):\($0)" } ?? publicHost)
        }
        return accepted.contains(authority)
    }
}
