import CairnAPI
import Vapor

/// Turns every error thrown below it into an `application/problem+json` response. Errors that are not
/// ours or Vapor's are logged with the request id and reach the client as a bare 500, so internals never leak.
struct ProblemMiddleware: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        next.respond(to: request).flatMapErrorThrowing { error in
            Self.response(for: Self.problem(for: error, request: request), request: request)
        }
    }

    static func problem(for error: any Error, request: Request) -> Problem {
        switch error {
        case let convertible as any ProblemConvertible:
            return convertible.problem
        case let full where StorageFull.matches(full):
            request.logger.error(
                "storage full, answered 507: free space under the data folder (docs/operations.md, \"Disk full\")",
                metadata: ["error": "\(String(reflecting: full))"])
            return StorageFull.problem
        case let busy where DatabaseBusy.matches(busy):
            request.logger.warning(
                "database busy, answered 503", metadata: ["error": "\(String(reflecting: busy))"])
            return DatabaseBusy.problem
        case let decoding as DecodingError:
            return Problem(status: .badRequest, detail: "The request body could not be read: \(describe(decoding))")
        case let abort as any AbortError:
            if abort.status == .notFound && abort.reason == HTTPResponseStatus.notFound.reasonPhrase {
                return .notFound("There is nothing at \(request.method) \(request.url.path).")
            }
            if abort.status == .payloadTooLarge {
                return Problem(status: .payloadTooLarge, detail: "The request body is larger than this server accepts.")
            }
            if abort.status.code >= 500 {
                request.logger.report(error: error)
            }
            return Problem(status: abort.status, detail: abort.reason)
        default:
            request.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            return Problem(
                status: .internalServerError,
                detail: "Something went wrong on the server. The request id \(request.id) identifies it in the logs."
            )
        }
    }

    static func response(for problem: Problem, request: Request) -> Response {
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(
            type: "application", subType: "problem+json", parameters: ["charset": "utf-8"])
        if let retry = problem.retryAfterSeconds { headers.replaceOrAdd(name: .retryAfter, value: String(retry)) }
        let status = HTTPResponseStatus(statusCode: problem.status)
        let body = (try? JSONEncoder().encode(problem)) ?? Data("{}".utf8)
        return Response(status: status, headers: headers, body: .init(data: body))
    }

    /// A short, human description of a decoding failure that names the member at fault.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let joined = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
                .joined(separator: ".")
            return joined.isEmpty ? "the body" : "\"\(joined)\""
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.isEmpty ? "" : " in \(path(context))"
            return "\"\(key.stringValue)\" is missing\(parent)."
        case .typeMismatch(let type, let context):
            return "\(path(context)) should be \(readable(type))."
        case .valueNotFound(let type, let context):
            return "\(path(context)) should be \(readable(type)), not null."
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "it is not valid JSON." : "\(path(context)) is not valid: \(context.debugDescription)"
        @unknown default:
            return "it is not in the expected shape."
        }
    }

    private static func readable(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type, is Float.Type: "a number"
        default: "an object of the documented shape"
        }
    }
}
