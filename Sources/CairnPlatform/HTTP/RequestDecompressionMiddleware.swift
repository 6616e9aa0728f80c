import CairnAPI
import Vapor
import Zlib

/// Decodes request bodies sent with `Content-Encoding: gzip` or `deflate`. NIO's own request decompressor
/// drops the connection without an answer when a body inflates too far; here a body whose decoded size
/// passes `maxBodyBytes` (`CAIRN_MAX_BODY_BYTES`) is answered 413 like any other large body, one that is
/// not valid gzip or zlib 400, and any other encoding 415. Handlers see the decoded body.
package struct RequestDecompressionMiddleware: Middleware {
    let maxBodyBytes: Int

    package init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    package func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        guard
            let encoding = request.headers.first(name: .contentEncoding)?.trimmingCharacters(in: .whitespaces)
                .lowercased(), encoding != "identity"
        else { return next.respond(to: request) }
        return request.eventLoop.makeFutureWithTask {
            try await decode(request, encoding: encoding, chainingTo: next)
        }
    }

    private func decode(_ request: Request, encoding: String, chainingTo next: any Responder) async throws -> Response {
        guard ["gzip", "x-gzip", "deflate"].contains(encoding) else {
            throw Problem(
                status: .unsupportedMediaType,
                detail: "Send the request body as it is, or compressed with Content-Encoding gzip or deflate.")
        }
        let compressed = try await request.body.collect(max: ByteCount.bodyLimit(allowing: maxBodyBytes).value).get()
        let decoded: [UInt8]
        do {
            decoded = try Zlib.inflate(
                compressed.map { Array(buffer: $0) } ?? [], limit: maxBodyBytes, format: .zlibOrGzip)
        } catch is Zlib.TooLarge {
            throw Problem(
                status: .payloadTooLarge,
                detail: "The request body is larger than this server accepts once decompressed (\(maxBodyBytes) bytes)."
            )
        } catch {
            throw Problem(status: .badRequest, detail: "The request body is not valid \(encoding) data.")
        }
        var headers = request.headers
        headers.remove(name: .contentEncoding)
        headers.replaceOrAdd(name: .xRequestId, value: request.id)
        let decodedRequest = Request(
            application: request.application, method: request.method, url: request.url, version: request.version,
            headers: headers, collectedBody: ByteBuffer(bytes: decoded), remoteAddress: request.remoteAddress,
            logger: request.logger, byteBufferAllocator: request.byteBufferAllocator, on: request.eventLoop)
        decodedRequest.route = request.route
        decodedRequest.parameters = request.parameters
        return try await next.respond(to: decodedRequest).get()
    }
}

extension ByteCount {
    /// The limit to give Vapor's body collection so that a body of exactly `bytes` passes: Vapor refuses a
    /// body once it reaches its limit, not only when it passes it.
    package static func bodyLimit(allowing bytes: Int) -> ByteCount {
        ByteCount(value: bytes + 1)
    }
}
