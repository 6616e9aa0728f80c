import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import Vapor

/// Which responses the server gzips (for clients that accept it): those worth it — not images, archives or
/// fonts already compressed, not bodies under `minimumBytes` (the gzip framing outweighs the saving and
/// costs CPU on every small API answer), not answers to HEAD. A route can force either way with Vapor's
/// `X-Vapor-Response-Compression` marker (`ResponseCompressionMiddleware`), which never leaves the server.
enum ResponseCompression {
    /// Below this, a known-length body goes as it is (about one TCP segment's worth after framing).
    static let minimumBytes = 1024
    /// Set by `HTTPRequestHandler` on responses that must not be compressed (answers to HEAD); removed here.
    static let skipMarker = "x-cairn-skip-compression"

    static func makeCompressor() -> HTTPResponseCompressor {
        HTTPResponseCompressor(initialByteBufferCapacity: 0) { head, clientAccepts in
            decide(&head.headers, clientAccepts: clientAccepts)
        }
    }

    static func decide(_ headers: inout HTTPHeaders, clientAccepts: Bool) -> HTTPResponseCompressor.CompressionIntent {
        var skip = false
        if headers.contains(name: skipMarker) {
            headers.remove(name: skipMarker)
            skip = true
        }
        let override = headers.responseCompression
        if override != .unset {
            headers.remove(name: .xVaporResponseCompression)
        }
        guard clientAccepts, !skip else { return .doNotCompress }
        if override == .enable { return .compressIfPossible }
        if override == .disable { return .doNotCompress }
        if headers.contains(name: .contentEncoding) { return .doNotCompress }
        if let length = headers.first(name: .contentLength).flatMap(Int.init), length < minimumBytes {
            return .doNotCompress
        }
        if let type = headers.contentType, HTTPMediaTypeSet.incompressible.contains(type) {
            return .doNotCompress
        }
        return .compressIfPossible
    }
}
