import NIOCore
import NIOWebSocket

/// Sits behind the WebSocket handlers of an upgraded connection. When the server shuts down it sends the
/// client a close frame with code 1001 (going away, RFC 6455 §7.4.1); the client's close frame in reply
/// ends the connection through WebSocketKit as any close does, so the application's `onClose` runs.
final class WebSocketShutdownHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private var closeSent = false

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        guard !closeSent else { return }
        closeSent = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: .goingAway)
        context.writeAndFlush(
            wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)), promise: nil)
    }
}
