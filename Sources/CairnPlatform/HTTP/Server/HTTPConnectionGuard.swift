import Logging
import NIOCore
import NIOHTTP1

/// The first handler of every connection: it sees the raw bytes both ways and enforces the timeouts of
/// `HTTPServerSettings`, counting each only while the server waits for the client.
///
/// - From a connection's start or a request's first byte, the head must be complete within `headTimeout`.
/// - A body gets `bodyTimeout` plus one second per `bodyMinBytesPerSecond` bytes received (Apache's
///   `mod_reqtimeout` rule): a slow phone link uploads, one byte every few seconds does not.
/// - Between requests of a keep-alive connection, `idleTimeout`; none while a request is being answered,
///   however long that takes.
/// - A response the client stops reading: once `writeTimeout` passes without any written byte reaching the
///   socket, the connection is dropped.
///
/// A request that runs out of time is answered 408 (problem+json) written here as raw bytes, bypassing the
/// HTTP handlers behind this one, and the connection closes. `HTTPRequestHandler` reports each step of a
/// request (`requestHeadReceived`, `requestEndReceived`, `responseEnded`) so that the right clock runs.
/// One timer per connection, re-armed lazily: a keep-alive request costs no timer scheduling.
final class HTTPConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// What the connection is waiting for.
    private enum Phase {
        /// Between requests: nothing of the next one has arrived.
        case idle(since: NIODeadline)
        /// Part of a request head has arrived (or the connection is new).
        case readingHead(until: NIODeadline)
        /// The head has arrived, the body is coming.
        case readingBody(since: NIODeadline, bytes: Int)
        /// The request is complete and being answered: no read clock runs.
        case working
        /// Upgraded to another protocol (WebSocket): only the write clock runs.
        case upgraded
        /// Our side is closing: inbound bytes are discarded until the client closes, or until the answer is
        /// written and `lingerTimeout` has passed.
        case closing(since: NIODeadline)
    }

    private let settings: HTTPServerSettings
    private let errorPage: HTTPErrorPage
    private let logger: Logger
    private var phase: Phase
    /// Bytes read while a request was being answered: the start of a pipelined next request.
    private var bytesAfterRequest = 0
    private var pendingWrites = 0
    private var lastWriteProgress = NIODeadline.now()
    /// Bytes waiting in the channel at the last sign of progress: fewer later means the client reads.
    private var bufferedAtProgress = 0
    /// Bytes that arrive while the connection switches protocols, held until the new protocol's handlers
    /// are all in place (WebSocketKit adds its last ones in a later turn of the event loop).
    private var heldDuringUpgrade: [NIOAny]?
    /// The server is shutting down: a protocol switched to after this learns it again once in place.
    private(set) var quiesceRequested = false
    private var timer: Scheduled<Void>?
    private var timerFiresAt: NIODeadline?
    private var context: ChannelHandlerContext?

    init(settings: HTTPServerSettings, errorPage: HTTPErrorPage, logger: Logger) {
        self.settings = settings
        self.errorPage = errorPage
        self.logger = logger
        self.phase = .readingHead(until: .now() + settings.headTimeout)
    }

    // MARK: Steps of a request, reported by HTTPRequestHandler

    func requestHeadReceived(expectingBody: Bool) {
        if case .closing = phase { return }
        phase = expectingBody ? .readingBody(since: .now(), bytes: 0) : .working
        bytesAfterRequest = 0
        if expectingBody { armTimer() }
    }

    /// `count` bytes of the body have arrived (decoded: without chunked framing, which a trickler could
    /// otherwise pad with).
    func bodyReceived(_ count: Int) {
        if case .readingBody(let since, let bytes) = phase {
            phase = .readingBody(since: since, bytes: bytes + count)
        }
    }

    func requestEndReceived() {
        if case .closing = phase { return }
        phase = .working
        bytesAfterRequest = 0
    }

    /// The last byte of a response has been handed to the channel. With keep-alive the connection waits
    /// for the next request: its head clock runs at once if part of it has arrived already.
    func responseEnded(keepAlive: Bool) {
        if case .closing = phase { return }
        let now = NIODeadline.now()
        if !keepAlive {
            phase = .closing(since: now)
        } else if bytesAfterRequest > 0 {
            phase = .readingHead(until: now + settings.headTimeout)
        } else {
            phase = .idle(since: now)
        }
        armTimer()
    }

    /// The answer switching protocols is written: hold inbound bytes until `upgradeFinished`.
    func upgradeStarted() {
        phase = .upgraded
        heldDuringUpgrade = []
    }

    /// The new protocol's handlers are in place: deliver what arrived meanwhile, and a shutdown that began
    /// meanwhile.
    func upgradeFinished() {
        guard let context, let held = heldDuringUpgrade else { return }
        heldDuringUpgrade = nil
        for data in held {
            context.fireChannelRead(data)
        }
        if !held.isEmpty { context.fireChannelReadComplete() }
        if quiesceRequested {
            context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
    }

    /// Answers `status` with a problem+json body and closes the connection, bypassing the HTTP handlers:
    /// for requests the server gives up on before the responder sees them.
    func refuse(_ status: HTTPResponseStatus, detail: String) {
        guard let context, context.channel.isActive else { return }
        if case .closing = phase { return }
        let page = errorPage.render(status, detail)
        var buffer = context.channel.allocator.buffer(capacity: 256 + page.body.readableBytes)
        buffer.writeString("HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n")
        for (name, value) in page.headers {
            buffer.writeString("\(name): \(value)\r\n")
        }
        buffer.writeString("date: \(HTTPDate.now())\r\nconnection: close\r\n")
        buffer.writeString("content-length: \(page.body.readableBytes)\r\n\r\n")
        buffer.writeImmutableBuffer(page.body)
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(buffer)), promise: nil)
        closeOutput(context: context)
    }

    /// Writes `HTTP/1.1 100 Continue` ahead of the HTTP handlers (the response compressor and the
    /// pipelining handler keep no state for interim responses).
    func sendContinue() {
        guard let context else { return }
        context.writeAndFlush(
            wrapOutboundOut(
                .byteBuffer(context.channel.allocator.buffer(staticString: "HTTP/1.1 100 Continue\r\n\r\n"))),
            promise: nil)
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { armTimer() }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimer()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        armTimer()
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimer()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent { quiesceRequested = true }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if heldDuringUpgrade != nil {
            heldDuringUpgrade!.append(data)
            return
        }
        let count = unwrapInboundIn(data).readableBytes
        switch phase {
        case .closing:
            return
        case .idle:
            phase = .readingHead(until: .now() + settings.headTimeout)
            armTimer()
        case .working:
            bytesAfterRequest += count
        case .readingHead, .readingBody, .upgraded:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let promise = promise ?? context.eventLoop.makePromise(of: Void.self)
        if pendingWrites == 0 { lastWriteProgress = .now() }
        pendingWrites += 1
        promise.futureResult.assumeIsolated().whenComplete { _ in
            self.pendingWrites -= 1
            self.lastWriteProgress = .now()
            if self.pendingWrites == 0 {
                self.armTimer()
            } else {
                self.bufferedAtProgress = self.bufferedBytes(context)
            }
        }
        context.write(data, promise: promise)
        if pendingWrites == 1 {
            bufferedAtProgress = bufferedBytes(context)
            armTimer()
        }
    }

    private func bufferedBytes(_ context: ChannelHandlerContext) -> Int {
        (try? context.channel.syncOptions?.getOption(ChannelOptions.bufferedWritableBytes)) ?? 0
    }

    // MARK: The timer

    private var readDeadline: NIODeadline? {
        switch phase {
        case .readingHead(let until):
            return until
        case .idle(let since):
            // Counts from the end of the last answer's writing: a slow reader is not idle.
            return pendingWrites > 0 ? nil : max(since, lastWriteProgress) + settings.idleTimeout
        case .closing(let since):
            return pendingWrites > 0 ? nil : max(since, lastWriteProgress) + settings.lingerTimeout
        case .readingBody(let since, let bytes):
            let allowance = Int64(bytes) * 1_000_000_000 / Int64(max(settings.bodyMinBytesPerSecond, 1))
            return since + settings.bodyTimeout + .nanoseconds(allowance)
        case .working, .upgraded:
            return nil
        }
    }

    private var writeDeadline: NIODeadline? {
        pendingWrites > 0 ? lastWriteProgress + settings.writeTimeout : nil
    }

    private var nextDeadline: NIODeadline? {
        switch (readDeadline, writeDeadline) {
        case (let read?, let write?): min(read, write)
        case (let read?, nil): read
        case (nil, let write?): write
        case (nil, nil): nil
        }
    }

    /// Makes sure the timer fires no later than the next deadline; a timer that fires early re-arms itself.
    private func armTimer() {
        guard let context, let deadline = nextDeadline else { return }
        if let firesAt = timerFiresAt, firesAt <= deadline { return }
        timer?.cancel()
        timerFiresAt = deadline
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            self.timerFiresAt = nil
            self.timer = nil
            self.timerFired()
        }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
        timerFiresAt = nil
    }

    private func timerFired() {
        guard let context, context.channel.isActive else { return }
        let now = NIODeadline.now()
        if let deadline = writeDeadline, deadline <= now {
            // One large write completes only when all of it is out: bytes leaving the channel's buffer
            // count as progress too.
            let buffered = bufferedBytes(context)
            if buffered < bufferedAtProgress {
                bufferedAtProgress = buffered
                lastWriteProgress = now
            } else {
                logger.debug("dropping a client that stopped reading its response", metadata: peer(context))
                context.close(promise: nil)
                return
            }
        }
        if let deadline = readDeadline, deadline <= now {
            switch phase {
            case .idle:
                logger.trace("closing an idle keep-alive connection", metadata: peer(context))
                context.close(promise: nil)
            case .readingHead:
                logger.debug("request head too slow: 408", metadata: peer(context))
                refuse(
                    .requestTimeout,
                    detail: "The request head did not arrive within \(Self.describe(settings.headTimeout)).")
            case .readingBody(_, let bytes):
                logger.debug(
                    "request body too slow: 408", metadata: peer(context).merging(["bytes": "\(bytes)"]) { $1 })
                refuse(
                    .requestTimeout,
                    detail:
                        "The request body arrived too slowly (\(bytes) bytes); send it within \(Self.describe(settings.bodyTimeout)) plus one second for every \(settings.bodyMinBytesPerSecond) bytes."
                )
            case .closing:
                context.close(promise: nil)
            case .working, .upgraded:
                break
            }
            return
        }
        armTimer()
    }

    private func closeOutput(context: ChannelHandlerContext) {
        phase = .closing(since: .now())
        let loopBound = context.loopBound
        context.close(mode: .output).whenFailure { _ in loopBound.value.close(promise: nil) }
        armTimer()
    }

    private func peer(_ context: ChannelHandlerContext) -> Logger.Metadata {
        ["peer": "\(context.channel.remoteAddress?.description ?? "?")"]
    }

    private static func describe(_ amount: TimeAmount) -> String {
        let milliseconds = amount.nanoseconds / 1_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}
