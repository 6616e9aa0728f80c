import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP connection that speaks HTTP/1.1 by hand, for testing the server at the byte level: trickled heads
/// and bodies, pipelining, `Expect: 100-continue`, HEAD framing, clients that stop reading.
final class RawHTTPConnection: Sendable {
    /// One event loop for every test client, apart from the server's.
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    let channel: any Channel
    private let received: ReceivedBytes

    private init(channel: any Channel, received: ReceivedBytes) {
        self.channel = channel
        self.received = received
    }

    /// Connects to `127.0.0.1:port`. With `reading: false` the client reads nothing until told to, so the
    /// server's answers pile up in the socket buffers.
    static func connect(port: Int, reading: Bool = true) async throws -> RawHTTPConnection {
        let received = ReceivedBytes()
        let channel = try await ClientBootstrap(group: group)
            .channelOption(ChannelOptions.autoRead, value: reading)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ReceiveHandler(received: received))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawHTTPConnection(channel: channel, received: received)
    }

    func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
    }

    /// Sends without waiting for the write (for a connection the server may close meanwhile).
    func sendAndForget(_ text: String) {
        channel.writeAndFlush(ByteBuffer(string: text), promise: nil)
    }

    var isOpen: Bool { channel.isActive }

    /// Everything received and not yet taken as a response, as text.
    var receivedText: String { received.text }

    /// Waits until the bytes received so far contain `text`.
    func receivedUntil(_ text: String, timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let version = received.version
            if received.text.contains(text) { return true }
            if ContinuousClock.now >= deadline { return false }
            await received.waitForChange(after: version, until: deadline, on: channel.eventLoop)
        }
    }

    /// Waits up to `timeout` for the connection to close; true when it did.
    func waitForClose(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let version = received.version
            if !channel.isActive || received.closed { return true }
            if ContinuousClock.now >= deadline { return false }
            await received.waitForChange(after: version, until: deadline, on: channel.eventLoop)
        }
    }

    /// The next complete response (an interim 1xx counts as one). `forHead`: it answers a HEAD request,
    /// so it has no body whatever its headers say.
    func readResponse(forHead: Bool = false, timeout: Duration = .seconds(30)) async throws -> RawHTTPResponse {
        let deadline = ContinuousClock.now + timeout
        while true {
            let version = received.version
            let closed = received.closed || !channel.isActive
            if let response = try received.takeResponse(forHead: forHead, closed: closed) {
                return response
            }
            if closed, !received.hasBytes {
                throw RawHTTPError.closedBeforeResponse
            }
            if ContinuousClock.now >= deadline { throw RawHTTPError.timedOut(received.description) }
            await received.waitForChange(after: version, until: deadline, on: channel.eventLoop)
        }
    }

    /// Starts reading again (for a connection made with `reading: false`).
    func startReading() {
        channel.setOption(ChannelOptions.autoRead, value: true).whenSuccess { _ in self.channel.read() }
    }

    func close() async {
        try? await channel.close().get()
    }
}

struct RawHTTPResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

enum RawHTTPError: Error {
    case closedBeforeResponse
    case timedOut(String)
    case malformed(String)
}

/// Bytes received so far, parsed into responses on demand; readers wait for a change (more bytes, the end
/// of the connection) without polling.
private final class ReceivedBytes: Sendable {
    private struct Changes {
        var version = 0
        var closed = false
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let bytes = NIOLockedValueBox<[UInt8]>([])
    private let changes = NIOLockedValueBox(Changes())

    /// Counts changes; a reader notes it before looking, then waits for a later one.
    var version: Int { changes.withLockedValue { $0.version } }
    var closed: Bool { changes.withLockedValue { $0.closed } }

    func append(_ buffer: ByteBuffer) {
        bytes.withLockedValue { $0 += buffer.readableBytesView }
        changed()
    }

    func markClosed() {
        changes.withLockedValue { $0.closed = true }
        changed()
    }

    private func changed() {
        let waiters = changes.withLockedValue { changes in
            changes.version += 1
            defer { changes.waiters = [:] }
            return Array(changes.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once something changed after `version`, or at `deadline`.
    func waitForChange(after version: Int, until deadline: ContinuousClock.Instant, on eventLoop: any EventLoop) async {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return }
        let (seconds, attoseconds) = remaining.components
        let timeout = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let id = changes.withLockedValue { changes -> Int? in
                guard changes.version == version else { return nil }
                changes.nextWaiter += 1
                changes.waiters[changes.nextWaiter] = continuation
                return changes.nextWaiter
            }
            guard let id else {
                continuation.resume()
                return
            }
            eventLoop.scheduleTask(in: timeout) {
                self.changes.withLockedValue { $0.waiters.removeValue(forKey: id) }?.resume()
            }
        }
    }

    var hasBytes: Bool { bytes.withLockedValue { !$0.isEmpty } }

    var description: String { bytes.withLockedValue { String(decoding: $0.prefix(300), as: UTF8.self) } }

    var text: String { bytes.withLockedValue { String(decoding: $0, as: UTF8.self) } }

    /// Removes and returns the first complete response, if there is one. A response framed by the
    /// connection's end is complete once `closed`.
    func takeResponse(forHead: Bool, closed: Bool) throws -> RawHTTPResponse? {
        try bytes.withLockedValue { bytes -> RawHTTPResponse? in
            guard let headEnd = Self.find([13, 10, 13, 10], in: bytes, from: 0) else { return nil }
            let headText = String(decoding: bytes[..<headEnd], as: UTF8.self)
            var lines = headText.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst().split(separator: " ")
            guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                throw RawHTTPError.malformed(headText)
            }
            let headers = lines.compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            func header(_ name: String) -> String? {
                headers.first { $0.name.lowercased() == name }?.value
            }
            var position = headEnd + 4
            var body: [UInt8] = []
            if forHead || status < 200 || status == 204 || status == 304 {
                // No body.
            } else if header("transfer-encoding")?.lowercased().contains("chunked") == true {
                while true {
                    guard let lineEnd = Self.find([13, 10], in: bytes, from: position) else { return nil }
                    let sizeText = String(decoding: bytes[position..<lineEnd], as: UTF8.self)
                    guard let size = Int(sizeText.split(separator: ";")[0], radix: 16) else {
                        throw RawHTTPError.malformed(sizeText)
                    }
                    position = lineEnd + 2
                    if size == 0 {
                        guard let trailerEnd = Self.find([13, 10], in: bytes, from: position) else { return nil }
                        position = trailerEnd + 2
                        break
                    }
                    guard bytes.count >= position + size + 2 else { return nil }
                    body += bytes[position..<(position + size)]
                    position += size + 2
                }
            } else if let length = header("content-length").flatMap({ Int($0) }) {
                guard bytes.count >= position + length else { return nil }
                body = Array(bytes[position..<(position + length)])
                position += length
            } else {
                guard closed else { return nil }
                body = Array(bytes[position...])
                position = bytes.count
            }
            bytes.removeFirst(position)
            return RawHTTPResponse(status: status, headers: headers, body: body)
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        search: while index <= haystack.count - needle.count {
            for offset in 0..<needle.count where haystack[index + offset] != needle[offset] {
                index += 1
                continue search
            }
            return index
        }
        return nil
    }
}

private final class ReceiveHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let received: ReceivedBytes

    init(received: ReceivedBytes) {
        self.received = received
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received.append(unwrapInboundIn(data))
    }

    func channelInactive(context: ChannelHandlerContext) {
        received.markClosed()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
