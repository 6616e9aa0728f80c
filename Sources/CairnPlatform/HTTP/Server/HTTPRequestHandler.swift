import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOWebSocket
import Vapor

/// What every connection of one running server shares.
struct HTTPServerEnvironment: Sendable {
    let application: Application
    let responder: any Responder
    let configuration: HTTPServerConfiguration
    let bodyLimits: RouteBodyLimits
    let logger: Logger
}

/// The last handler of a connection: turns the decoded HTTP/1.1 parts of each request into a Vapor
/// `Request` with its body collected (within its route's limit), hands it to the application's responder,
/// and writes the `Response` back — buffered bodies in one write, streamed ones as they come, nothing for
/// HEAD — or hands the connection to the response's `Upgrader` (WebSocket).
///
/// NIO's pipelining handler in front of this one delivers one request at a time and holds the next until
/// the answer's end is written, so answers leave in request order.
final class HTTPRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        /// Waiting for a request head.
        case idle
        /// Collecting the body of `incoming`.
        case receiving
        /// The server answered before the request ended (413, 417) and closes the connection.
        case refused
        /// The responder has the request, or its answer is being written.
        case responding
        /// The connection is being handed to another protocol.
        case upgrading
    }

    private struct Incoming {
        var head: HTTPRequestHead
        var body: ByteBuffer?
        var declaredLength: Int?
        var limit: Int
        var limitIsTheRoutes: Bool
    }

    private let environment: HTTPServerEnvironment
    private let connectionGuard: HTTPConnectionGuard
    private var state = State.idle
    private var incoming: Incoming?
    private var remoteAddress: SocketAddress?
    private var dateCache = HTTPDateCache()
    private var requestIDs = RequestIDGenerator()

    init(environment: HTTPServerEnvironment, connectionGuard: HTTPConnectionGuard) {
        self.environment = environment
        self.connectionGuard = connectionGuard
    }

    func handlerAdded(context: ChannelHandlerContext) {
        remoteAddress = context.channel.remoteAddress
    }

    func channelActive(context: ChannelHandlerContext) {
        remoteAddress = context.channel.remoteAddress
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            guard case .idle = state else { return }
            receiveHead(head, context: context)
        case .body(var chunk):
            guard case .receiving = state, incoming != nil else { return }
            connectionGuard.bodyReceived(chunk.readableBytes)
            let received = (incoming!.body?.readableBytes ?? 0) + chunk.readableBytes
            if received > incoming!.limit {
                if !incoming!.limitIsTheRoutes {
                    incoming!.limit = environment.bodyLimits.limit(
                        method: incoming!.head.method, uri: incoming!.head.uri)
                    incoming!.limitIsTheRoutes = true
                }
                if received > incoming!.limit {
                    refuseTooLarge(limit: incoming!.limit, context: context)
                    return
                }
            }
            if incoming!.body == nil {
                if chunk.readableBytes == incoming!.declaredLength {
                    incoming!.body = chunk
                } else {
                    var body = context.channel.allocator.buffer(
                        capacity: min(incoming!.declaredLength ?? chunk.readableBytes, incoming!.limit))
                    body.writeBuffer(&chunk)
                    incoming!.body = body
                }
            } else {
                incoming!.body!.writeBuffer(&chunk)
            }
        case .end:
            guard case .receiving = state, let request = incoming else { return }
            incoming = nil
            connectionGuard.requestEndReceived()
            dispatch(request, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // NIO's protocol error handler has answered a malformed request 400 already; anything else (a
        // reset by the peer) leaves nothing to answer.
        environment.logger.debug(
            "HTTP connection error", metadata: ["error": "\(error)", "peer": "\(remoteAddress?.description ?? "?")"])
        context.close(promise: nil)
    }

    // MARK: Receiving

    private func receiveHead(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let declaredLength = head.headers.first(name: "content-length").flatMap { Int($0) }
        let chunked = head.headers.contains(name: "transfer-encoding")
        let expectingBody = chunked || (declaredLength ?? 0) > 0
        connectionGuard.requestHeadReceived(expectingBody: expectingBody)
        // The route's own limit is looked up only for a body that passes the server-wide one, unless some
        // route declares a smaller limit: then every request with a body looks it up.
        let bodyLimits = environment.bodyLimits
        let lookUpNow = expectingBody && bodyLimits.hasSmallerLimits
        var request = Incoming(
            head: head, body: nil, declaredLength: declaredLength,
            limit: lookUpNow ? bodyLimits.limit(method: head.method, uri: head.uri) : bodyLimits.defaultLimit,
            limitIsTheRoutes: lookUpNow)
        incoming = request
        state = .receiving
        if let declaredLength, declaredLength > request.limit {
            if !request.limitIsTheRoutes {
                request.limit = bodyLimits.limit(method: head.method, uri: head.uri)
                request.limitIsTheRoutes = true
                incoming = request
            }
            if declaredLength > request.limit {
                refuseTooLarge(limit: request.limit, context: context)
                return
            }
        }
        if let expectation = head.headers.first(name: "expect") {
            guard expectation.lowercased() == "100-continue" else {
                refuse(
                    .expectationFailed,
                    detail:
                        "This server knows no expectation other than 100-continue; send the request without \"Expect: \(expectation)\".",
                    context: context)
                return
            }
            if expectingBody && (head.version.major > 1 || head.version.minor >= 1) {
                connectionGuard.sendContinue()
            }
        }
    }

    private func refuseTooLarge(limit: Int, context: ChannelHandlerContext) {
        refuse(
            .payloadTooLarge,
            detail: "The request body is larger than this server accepts (\(limit) bytes).",
            context: context)
    }

    /// Answers the request before its body is read, then closes the connection: the rest of the body is
    /// never read.
    private func refuse(_ status: HTTPResponseStatus, detail: String, context: ChannelHandlerContext) {
        guard let head = incoming?.head else { return }
        state = .refused
        incoming = nil
        let page = environment.configuration.errorPage.render(status, detail)
        var headers = page.headers
        headers.replaceOrAdd(name: "content-length", value: String(page.body.readableBytes))
        headers.replaceOrAdd(name: "connection", value: "close")
        headers.add(name: "date", value: dateCache.current())
        connectionGuard.responseEnded(keepAlive: false)
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
            promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(page.body))), promise: nil)
        closeAfterWriting(context.writeAndFlush(wrapOutboundOut(.end(nil))), context: context)
    }

    // MARK: Responding

    private func dispatch(_ incoming: Incoming, context: ChannelHandlerContext) {
        state = .responding
        let head = incoming.head
        var headers = head.headers
        if !headers.contains(name: "x-request-id") {
            headers.add(name: "X-Request-ID", value: requestIDs.next())
        }
        let request = Request(
            application: environment.application, method: head.method, url: URI(path: head.uri),
            version: head.version, headersNoUpdate: headers, collectedBody: incoming.body,
            remoteAddress: remoteAddress, logger: environment.logger, byteBufferAllocator: context.channel.allocator,
            on: context.eventLoop)
        // After a request that asked to switch protocols, the HTTP decoder reads no further request: unless
        // the switch happens, the connection ends with this answer.
        let keepAlive = head.isKeepAlive && !head.headers.contains(name: "upgrade")
        environment.responder.respond(to: request).hop(to: context.eventLoop).assumeIsolated().whenComplete {
            result in
            switch result {
            case .success(let response):
                self.write(response, to: request, head: head, keepAlive: keepAlive, context: context)
            case .failure(let error):
                self.environment.logger.error(
                    "the responder failed without an answer", metadata: ["error": "\(String(reflecting: error))"])
                self.answer(
                    .internalServerError,
                    detail:
                        "Something went wrong on the server. The request id \(request.id) identifies it in the logs.",
                    head: head, context: context)
            }
        }
    }

    private func write(
        _ response: Response, to request: Request, head: HTTPRequestHead, keepAlive: Bool,
        context: ChannelHandlerContext
    ) {
        guard context.channel.isActive else {
            state = .idle
            return
        }
        if response.status == .switchingProtocols, let upgrader = response.upgrader {
            upgrade(with: upgrader, response: response, request: request, head: head, context: context)
            return
        }
        let status = response.status
        var headers = response.headers
        if !keepAlive {
            headers.replaceOrAdd(name: "connection", value: "close")
        } else if head.version.minor == 0 && head.version.major == 1 {
            headers.replaceOrAdd(name: "connection", value: "keep-alive")
        }
        headers.add(name: "date", value: dateCache.current())
        let bodiless = head.method == .HEAD || status == .noContent || status == .notModified || status.code < 200
        if head.method == .HEAD && environment.configuration.responseCompression {
            headers.add(name: ResponseCompression.skipMarker, value: "1")
        }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: response.version, status: status, headers: headers))),
            promise: nil)
        if bodiless {
            finishResponse(keepAlive: keepAlive, context: context)
            return
        }
        switch ResponseBodySource(response.body) {
        case .buffer(let buffer):
            if buffer.readableBytes > 0 {
                context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
            }
            finishResponse(keepAlive: keepAlive, context: context)
        case .stream(let count, let callback):
            // The head leaves with the first part of the body: NIO's compressor would otherwise send it
            // with its Content-Length before knowing it compresses.
            callback(
                ResponseBodyStreamWriter(handler: self, context: context, expectedCount: count, keepAlive: keepAlive))
        case .asyncStream(let count, let callback):
            let writer = ResponseBodyStreamWriter(
                handler: self, context: context, expectedCount: count, keepAlive: keepAlive)
            Task {
                do {
                    try await callback(writer)
                } catch {
                    writer.fail(error)
                }
            }
        case .opaque:
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            response.body.collect(on: context.eventLoop).whenComplete { result in
                let (handler, context) = loopBound.value
                switch result {
                case .success(let buffer):
                    if let buffer, buffer.readableBytes > 0 {
                        handler.writeBodyPart(buffer, context: context, promise: nil)
                    }
                    handler.finishResponse(keepAlive: keepAlive, context: context)
                case .failure(let error):
                    handler.abortResponse(context: context, error: error)
                }
            }
        }
    }

    /// A whole answer the server gives itself (the responder failed): problem+json, then the connection closes.
    private func answer(
        _ status: HTTPResponseStatus, detail: String, head: HTTPRequestHead, context: ChannelHandlerContext
    ) {
        guard context.channel.isActive else { return }
        let page = environment.configuration.errorPage.render(status, detail)
        var headers = page.headers
        headers.replaceOrAdd(name: "content-length", value: String(page.body.readableBytes))
        headers.replaceOrAdd(name: "connection", value: "close")
        headers.add(name: "date", value: dateCache.current())
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
            promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(page.body))), promise: nil)
        finishResponse(keepAlive: false, context: context)
    }

    func writeBodyPart(_ buffer: ByteBuffer, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: promise)
    }

    /// Ends the answer. The guard and this handler learn first that the request is over: writing the end
    /// lets the pipelining handler deliver the next request at once, from inside this call.
    func finishResponse(keepAlive: Bool, context: ChannelHandlerContext) {
        state = .idle
        connectionGuard.responseEnded(keepAlive: keepAlive)
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            closeAfterWriting(written, context: context)
        }
    }

    /// A streamed body failed part-way: the client must not take what it got for the whole answer.
    func abortResponse(context: ChannelHandlerContext, error: any Error) {
        environment.logger.debug("response body stream failed: closing", metadata: ["error": "\(error)"])
        state = .idle
        context.close(promise: nil)
    }

    /// Closes our side once `written` is out; the guard discards what the client still sends and closes the
    /// rest when the client has read the answer and hung up, or after the linger time.
    private func closeAfterWriting(_ written: EventLoopFuture<Void>, context: ChannelHandlerContext) {
        let loopBound = context.loopBound
        written.whenComplete { _ in
            let context = loopBound.value
            context.close(mode: .output).whenFailure { _ in loopBound.value.close(promise: nil) }
        }
    }

    // MARK: Upgrading (WebSocket)

    private func upgrade(
        with upgrader: any Upgrader, response: Response, request: Request, head: HTTPRequestHead,
        context: ChannelHandlerContext
    ) {
        state = .upgrading
        let protocolUpgrader = upgrader.applyUpgrade(req: request, res: response)
        protocolUpgrader.buildUpgradeResponse(
            channel: context.channel, upgradeRequest: head, initialResponseHeaders: [:]
        )
        .hop(to: context.eventLoop).assumeIsolated().whenComplete { result in
            switch result {
            case .failure(let error):
                self.environment.logger.debug("upgrade refused", metadata: ["error": "\(error)"])
                self.state = .responding
                self.answer(
                    .badRequest, detail: "The request to switch protocols is not a valid WebSocket handshake.",
                    head: head, context: context)
            case .success(let headers):
                self.switchProtocols(
                    to: protocolUpgrader, headers: headers, head: head, context: context)
            }
        }
    }

    private func switchProtocols(
        to upgrader: any HTTPServerProtocolUpgrader, headers: HTTPHeaders, head: HTTPRequestHead,
        context: ChannelHandlerContext
    ) {
        guard context.channel.isActive else { return }
        context.write(
            wrapOutboundOut(
                .head(HTTPResponseHead(version: head.version, status: .switchingProtocols, headers: headers))),
            promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        connectionGuard.upgradeStarted()
        // Everything that speaks HTTP goes; the guard stays for its write clock. All of this runs in one turn
        // of the event loop, so no byte of the new protocol is read in between.
        let pipeline = context.pipeline.syncOperations
        func remove<Handler: RemovableChannelHandler>(_ type: Handler.Type) {
            if let handlerContext = try? pipeline.context(handlerType: type) {
                pipeline.removeHandler(context: handlerContext, promise: nil)
            }
        }
        remove(HTTPServerProtocolErrorHandler.self)
        remove(NIOHTTPResponseHeadersValidator.self)
        remove(HTTPServerPipelineHandler.self)
        remove(HTTPResponseCompressor.self)
        remove(ByteToMessageHandler<HTTPRequestDecoder>.self)
        remove(HTTPResponseEncoder.self)
        upgrader.upgrade(context: context, upgradeRequest: head).hop(to: context.eventLoop).assumeIsolated()
            .whenComplete { result in
                switch result {
                case .success:
                    try? context.pipeline.syncOperations.addHandler(WebSocketShutdownHandler())
                    context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                    self.connectionGuard.upgradeFinished()
                case .failure:
                    context.close(promise: nil)
                }
            }
    }
}
