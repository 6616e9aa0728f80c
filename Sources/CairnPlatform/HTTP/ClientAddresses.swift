import Vapor

/// Who a request comes from, for rate limits and local-only pages. Behind a reverse proxy
/// (`CAIRN_TRUST_PROXY=true`) the client is the last address of `X-Forwarded-For`, the one the proxy added;
/// otherwise the socket's peer.
package struct ClientAddresses: Sendable {
    package let trustProxy: Bool

    package init(trustProxy: Bool) {
        self.trustProxy = trustProxy
    }

    /// The client's IP address.
    package func address(of request: Request) -> String {
        if trustProxy,
            let forwarded = request.headers.first(name: "X-Forwarded-For")?.split(separator: ",").last?
                .trimmingCharacters(in: .whitespaces), !forwarded.isEmpty
        {
            return forwarded
        }
        return request.remoteAddress?.ipAddress ?? "unknown"
    }

    /// Whether the request comes from this machine. Requests that passed through a proxy we do not trust
    /// are never local: a proxy on the same machine would make every client look local.
    package func isLoopback(_ request: Request) -> Bool {
        let proxied = ["X-Forwarded-For", "Forwarded", "X-Real-IP"].contains { request.headers.first(name: $0) != nil }
        if proxied && !trustProxy { return false }
        let address = address(of: request)
        return address == "::1" || address.hasPrefix("127.") || address == "::ffff:127.0.0.1"
    }
}

extension Request {
    /// Whether the client reached us over HTTPS, directly or through a proxy that says so. Believing a
    /// forged `X-Forwarded-Proto` only makes cookies Secure, which harms no one but the forger.
    package var isSecure: Bool {
        url.scheme == "https" || headers.first(name: "X-Forwarded-Proto")?.lowercased() == "https"
    }
}
