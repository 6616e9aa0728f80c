import NIOCore
import Vapor

extension BoundedExecutor {
    /// `value` encoded as the JSON body of a response, on this executor: a body of GeoJSON lines with
    /// thousands of positions is milliseconds of CPU, which must not run on an event loop or in an async
    /// handler. Encoded as Vapor encodes `Content` (ISO 8601 dates).
    package func response<Value: Encodable & Sendable>(
        _ value: Value, status: HTTPStatus = .ok, mediaType: HTTPMediaType = .json,
        activity: String = "writing answers", client: String? = nil
    ) async throws -> Response {
        let (body, encodedHeaders) = try await run(activity, client: client) {
            var body = ByteBufferAllocator().buffer(capacity: 0)
            var headers = HTTPHeaders()
            try ContentConfiguration.global.requireEncoder(for: .json).encode(value, to: &body, headers: &headers)
            return (body, headers)
        }
        var headers = encodedHeaders
        headers.contentType = mediaType
        return Response(status: status, headers: headers, body: .init(buffer: body))
    }
}
