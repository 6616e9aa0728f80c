import Vapor

/// Headers every response carries: no MIME sniffing, no framing by other sites, no referrer leaks, and a
/// content security policy that allows only this origin plus the configured tile server's images, and frames
/// from exactly the two privacy-enhanced video players the ski tutorials embed after the person presses play
/// (YouTube's youtube-nocookie.com and Vimeo's player).
struct SecurityHeadersMiddleware: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        next.respond(to: request).map { response in
            Self.add(to: &response.headers)
            return response
        }
    }

    /// Sets the headers on `headers` (also used by the HTTP server for the answers it gives itself).
    static func add(to headers: inout HTTPHeaders) {
        headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        headers.replaceOrAdd(name: "X-Frame-Options", value: "DENY")
        headers.replaceOrAdd(name: "Referrer-Policy", value: "same-origin")
        headers.replaceOrAdd(
            name: "Content-Security-Policy",
            value:
                "default-src 'self'; img-src 'self' data: blob: https: http:; style-src 'self' 'unsafe-inline'; frame-src https://www.youtube-nocookie.com https://player.vimeo.com; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
        )
    }
}
