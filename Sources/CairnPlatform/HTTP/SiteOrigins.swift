import Foundation
import Vapor

/// Whether a browser request comes from a page of another site — the one check behind every defence that
/// relies on it: Accounts' cross-site request guard (unsafe requests carrying the session cookie) and the
/// realtime hub's WebSocket handshake (a socket the cookie would identify).
///
/// This site is the request's `Host`, the `X-Forwarded-Host` a proxy set, or the host of `CAIRN_PUBLIC_URL`
/// (with its port when it has one). Requests without `Origin` (not from a browser page, or a same-origin GET)
/// are not cross-site by themselves.
package struct SiteOrigins: Sendable {
    /// `CAIRN_PUBLIC_URL`, whose host is this site too.
    package let publicURL: URL?

    package init(publicURL: URL?) {
        self.publicURL = publicURL
    }

    /// Whether `request` comes from another site's page: its `Origin` names another site, or the browser says
    /// so (`Sec-Fetch-Site: cross-site`).
    package func isCrossSite(_ request: Request) -> Bool {
        if request.headers.first(name: "Sec-Fetch-Site")?.lowercased() == "cross-site" { return true }
        guard let origin = request.headers.first(name: .origin) else { return false }
        return !isThisSite(origin, request)
    }

    /// Whether a browser's `Origin` (`https://cairn.example:8443`) names this site.
    private func isThisSite(_ origin: String, _ request: Request) -> Bool {
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
