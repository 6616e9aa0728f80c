import Vapor

/// Logs one structured line per request — method, path, status, duration — tagged with the request id,
/// and returns that id in `X-Request-ID` so a user's report can be matched to the log.
struct RequestLogMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next.respond(to: request)
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        response.headers.replaceOrAdd(name: "X-Request-ID", value: request.id)
        request.logger.info(
            "request",
            metadata: [
                "method": "\(request.method)",
                "path": "\(request.url.path)",
                "status": "\(response.status.code)",
                "ms": "\(String(format: "%.1f", milliseconds))",
            ]
        )
        return response
    }
}
