import Dispatch
import Vapor

/// Logs one structured line per request — method, path, status, duration — tagged with the request id,
/// and returns that id in `X-Request-ID` so a user's report can be matched to the log.
///
/// A future-based `Middleware` rather than an `AsyncMiddleware`: Vapor runs each async middleware in a task of
/// its own, and this one runs on every request (docs/benchmarks.md, "HTTP server").
struct RequestLogMiddleware: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        let start = DispatchTime.now().uptimeNanoseconds
        return next.respond(to: request).map { response in
            let tenths = (DispatchTime.now().uptimeNanoseconds - start + 50_000) / 100_000
            response.headers.replaceOrAdd(name: "X-Request-ID", value: request.id)
            request.logger.info(
                "request",
                metadata: [
                    "method": "\(request.method)",
                    "path": "\(request.url.path)",
                    "status": "\(response.status.code)",
                    "ms": "\(tenths / 10).\(tenths % 10)",
                ]
            )
            return response
        }
    }
}
