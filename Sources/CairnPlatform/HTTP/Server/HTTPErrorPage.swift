import Foundation
import NIOCore
import NIOHTTP1

/// How the server words the answers it gives on its own, before or instead of the responder: 408 for a
/// request that came too slowly, 413 for a body over its route's limit, 417 for an unknown `Expect`, 400
/// for a refused upgrade, 500 when the responder fails without an answer. Cairn's renders a problem+json
/// `Problem` with the security headers every answer carries (`HTTPServerConfiguration.cairn`).
public struct HTTPErrorPage: Sendable {
    /// The headers (without framing, `Date` or `Connection`) and body of the answer for `status`.
    public var render:
        @Sendable (_ status: HTTPResponseStatus, _ detail: String) -> (headers: HTTPHeaders, body: ByteBuffer)

    public init(render: @escaping @Sendable (HTTPResponseStatus, String) -> (headers: HTTPHeaders, body: ByteBuffer)) {
        self.render = render
    }

    /// A bare RFC 9457 problem document.
    public static let plain = HTTPErrorPage { status, detail in
        let document: [String: Any] = [
            "type": "about:blank", "title": status.reasonPhrase, "status": Int(status.code), "detail": detail,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data("{}".utf8)
        return (["content-type": "application/problem+json; charset=utf-8"], ByteBuffer(bytes: data))
    }
}
