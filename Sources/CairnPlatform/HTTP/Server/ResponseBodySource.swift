import NIOCore
import Vapor

/// What a Vapor `Response.Body` holds, as the server writes it.
///
/// Vapor keeps a body's storage internal; its public API gives the bytes of a buffered body (`buffer`)
/// and, for a streamed one, only `collect(on:)`, which reads the whole stream into memory — forever, for a
/// stream that never ends. To stream (static files and profile pictures are read and sent a chunk at a
/// time, as fast as the client takes them), the stream's length and callback are read by reflection from
/// `Response.Body`'s stored `storage` (`.stream(BodyStream)` / `.asyncStream(AsyncBodyStream)`, each a
/// struct of `count` and `callback`). Every name and field type is checked first; the struct is then copied
/// out of the `Any` that `Mirror` gives (a dynamic cast of an async closure out of `Any` crashes the Swift
/// 6.3 runtime, so the struct is read as a layout-identical one). Should a Vapor release change any of it,
/// the body is classified `.opaque` and collected: answers stay right, only buffered
/// (`HTTPServerTests.streamedResponseBodiesAreRecognised` fails then).
enum ResponseBodySource {
    typealias StreamCallback = @Sendable (any BodyStreamWriter) -> Void
    typealias AsyncStreamCallback = @Sendable (any AsyncBodyStreamWriter) async throws -> Void

    /// The bytes (possibly none).
    case buffer(ByteBuffer)
    /// A stream written through a `BodyStreamWriter`; `count` is its length, or nil when unknown (chunked).
    case stream(count: Int?, callback: StreamCallback)
    /// A stream written through an `AsyncBodyStreamWriter`.
    case asyncStream(count: Int?, callback: AsyncStreamCallback)
    /// A stream whose callback could not be read: collect it with `Response.Body.collect(on:)`.
    case opaque

    /// The layouts of Vapor's `BodyStream` and `AsyncBodyStream`. Concrete structs: a generic one would
    /// keep its closure in another representation.
    private struct StreamLayout {
        let count: Int
        let callback: StreamCallback
    }

    private struct AsyncStreamLayout {
        let count: Int
        let callback: AsyncStreamCallback
    }

    init(_ body: Response.Body) {
        if let buffer = body.buffer {
            self = .buffer(buffer)
            return
        }
        guard let storage = Mirror(reflecting: body).descendant("storage") else {
            self = .opaque
            return
        }
        guard let storageCase = Mirror(reflecting: storage).children.first else {
            // A case without a payload: `.none`, no body.
            self = .buffer(ByteBuffer())
            return
        }
        switch storageCase.label {
        case "stream":
            if let stream = Self.read(
                storageCase.value, typeName: "BodyStream", callback: StreamCallback.self, as: StreamLayout.self)
            {
                self = .stream(count: stream.count >= 0 ? stream.count : nil, callback: stream.callback)
                return
            }
        case "asyncStream":
            if let stream = Self.read(
                storageCase.value, typeName: "AsyncBodyStream", callback: AsyncStreamCallback.self,
                as: AsyncStreamLayout.self)
            {
                self = .asyncStream(count: stream.count >= 0 ? stream.count : nil, callback: stream.callback)
                return
            }
        default:
            break
        }
        self = .opaque
    }

    /// `payload` as `Layout`, when its type is `typeName` with exactly the fields `count: Int` and
    /// `callback: Callback`.
    private static func read<Callback, Layout>(
        _ payload: Any, typeName: String, callback: Callback.Type, as layout: Layout.Type
    ) -> Layout? {
        guard String(describing: type(of: payload)) == typeName else { return nil }
        let fields = Mirror(reflecting: payload).children.map { ($0.label, type(of: $0.value)) }
        guard fields.count == 2, fields[0].0 == "count", fields[0].1 == Int.self, fields[1].0 == "callback",
            fields[1].1 == Callback.self,
            MemoryLayout<Layout>.size <= 3 * MemoryLayout<Int>.size
        else { return nil }
        // Fits the existential's inline buffer, so `Any` holds the struct itself at its start.
        var payload = payload
        return withUnsafeBytes(of: &payload) { $0.load(as: Layout.self) }
    }
}

/// The writer a streamed response body is given: each buffer goes to the channel as it comes, and the write
/// completes once the bytes are in the socket, so a body is read from disk no faster than the client takes
/// it. `.end` finishes the response; `.error`, or a length other than the one announced, cuts the
/// connection (the client must not take a truncated body for a whole one).
final class ResponseBodyStreamWriter: BodyStreamWriter, AsyncBodyStreamWriter, @unchecked Sendable {
    // Mutable state is touched on `eventLoop` only.
    let eventLoop: any EventLoop
    private let handler: NIOLoopBound<HTTPRequestHandler>
    private let context: NIOLoopBound<ChannelHandlerContext>
    private let expectedCount: Int?
    private let keepAlive: Bool
    private var writtenCount = 0
    private var finished = false

    enum StreamError: Error {
        case writeAfterEnd
        case moreBytesThanAnnounced
        case fewerBytesThanAnnounced
    }

    init(handler: HTTPRequestHandler, context: ChannelHandlerContext, expectedCount: Int?, keepAlive: Bool) {
        self.eventLoop = context.eventLoop
        self.handler = NIOLoopBound(handler, eventLoop: context.eventLoop)
        self.context = context.loopBound
        self.expectedCount = expectedCount
        self.keepAlive = keepAlive
    }

    func write(_ result: BodyStreamResult, promise: EventLoopPromise<Void>?) {
        if eventLoop.inEventLoop {
            writeOnLoop(result, promise: promise)
        } else {
            eventLoop.execute { self.writeOnLoop(result, promise: promise) }
        }
    }

    func write(_ result: BodyStreamResult) async throws {
        let promise = eventLoop.makePromise(of: Void.self)
        write(result, promise: promise)
        try await promise.futureResult.get()
    }

    /// Ends the response with an error the stream's producer threw.
    func fail(_ error: any Error) {
        write(.error(error), promise: nil)
    }

    private func writeOnLoop(_ result: BodyStreamResult, promise: EventLoopPromise<Void>?) {
        guard !finished else {
            if case .error = result { return promise?.succeed() ?? () }
            promise?.fail(StreamError.writeAfterEnd)
            return
        }
        let handler = handler.value
        let context = context.value
        switch result {
        case .buffer(let buffer):
            writtenCount += buffer.readableBytes
            if let expectedCount, writtenCount > expectedCount {
                finished = true
                handler.abortResponse(context: context, error: StreamError.moreBytesThanAnnounced)
                promise?.fail(StreamError.moreBytesThanAnnounced)
                return
            }
            handler.writeBodyPart(buffer, context: context, promise: promise)
        case .end:
            finished = true
            if let expectedCount, writtenCount < expectedCount {
                handler.abortResponse(context: context, error: StreamError.fewerBytesThanAnnounced)
                promise?.fail(StreamError.fewerBytesThanAnnounced)
                return
            }
            handler.finishResponse(keepAlive: keepAlive, context: context)
            promise?.succeed()
        case .error(let error):
            finished = true
            handler.abortResponse(context: context, error: error)
            promise?.fail(error)
        }
    }
}
