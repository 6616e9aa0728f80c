import Vapor

extension Request {
    /// The client's IP address, for rate limits and local-only pages. Behind a reverse proxy
    /// (`CAIRN_TRUST_PROXY=true`) it is the last address of `X-Forwarded-For`, the one the proxy added;
    /// otherwise the socket's peer.
    public var clientAddress: String {
        if application.appConfig.trustProxy,
            let forwarded = headers.first(name: "X-Forwarded-For")?.split(separator: ",").last?
                .trimmingCharacters(in: .whitespaces), !forwarded.isEmpty
        {
            return forwarded
        }
        return remoteAddress?.ipAddress ?? "unknown"
    }

    /// Whether the request comes from this machine. Requests that passed through a proxy we do not trust
    /// are never local: a proxy on the same machine would make every client look local.
    public var isFromLoopback: Bool {
        let proxied = ["X-Forwarded-For", "Forwarded", "X-Real-IP"].contains { headers.first(name: $0) != nil }
        if proxied && !application.appConfig.trustProxy { return false }
        let address = clientAddress
        return address == "::1" || address.hasPrefix("127.") || address == "::ffff:127.0.0.1"
    }

    /// Whether the client reached us over HTTPS, directly or through a proxy that says so. Believing a
    /// forged `X-Forwarded-Proto` only makes cookies Secure, which harms no one but the forger.
    public var isSecure: Bool {
        url.scheme == "https" || headers.first(name: "X-Forwarded-Proto")?.lowercased() == "https"
    }
}
