import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Delivers mail to an SMTP server (RFC 5321): EHLO, STARTTLS (RFC 3207) or TLS on connect, AUTH PLAIN
/// or LOGIN (RFC 4954), then MAIL, RCPT and DATA with dot-stuffing. One connection per message; the
/// volume (welcome and reset mails) does not call for pooling.
///
/// With `smtp://` the connection must be upgraded with STARTTLS before anything else is sent, and the
/// certificate is verified; a server that does not offer STARTTLS gets nothing, not even a password.
public struct SMTPMailTransport: MailTransport {
    public let settings: SMTPSettings
    /// The name given in EHLO.
    public let clientName: String
    public let timeout: TimeAmount
    /// Dates the messages.
    private let now: @Sendable () -> Date

    public init(
        settings: SMTPSettings, clientName: String = "localhost", timeout: TimeAmount = .seconds(30),
        now: @escaping @Sendable () -> Date = ExternalServices.systemClock
    ) {
        self.settings = settings
        self.clientName = clientName
        self.timeout = timeout
        self.now = now
    }

    public func send(_ message: MailMessage) async throws {
        guard let sender = MailAddress.bare(message.from) else {
            throw MailDeliveryError("the sender \(message.from) is not an email address")
        }
        let recipients = try message.to.map { recipient in
            guard let address = MailAddress.bare(recipient) else {
                throw MailDeliveryError("the recipient \(recipient) is not an email address")
            }
            return address
        }
        let id = "\(UUID().uuidString.lowercased())@\(clientName)"
        let text = message.rfc5322(date: now(), messageID: id)

        let connection = try await SMTPConnection.open(settings: settings, timeout: timeout)
        do {
            try await connection.expect(220, after: nil)
            var extensions = try await connection.hello(clientName)
            if settings.security == .startTLS {
                guard extensions.contains(where: { $0.uppercased() == "STARTTLS" }) else {
                    throw MailDeliveryError(
                        "the SMTP server \(settings.host) does not offer STARTTLS, so Cairn sends it nothing unencrypted — use smtps:// if it speaks TLS on connect"
                    )
                }
                try await connection.expect(220, after: "STARTTLS")
                try await connection.startTLS(settings: settings)
                extensions = try await connection.hello(clientName)
            }
            if let username = settings.username {
                try await authenticate(
                    connection, username: username, password: settings.password ?? "", extensions: extensions)
            }
            try await connection.expect(250, after: "MAIL FROM:<\(sender)>")
            for recipient in recipients {
                try await connection.expect([250, 251], after: "RCPT TO:<\(recipient)>")
            }
            try await connection.expect(354, after: "DATA")
            try await connection.expect(250, afterRaw: Self.dotStuffed(text) + ".\r\n", shown: "the message")
            try? await connection.send("QUIT")
            await connection.close()
        } catch {
            await connection.close()
            throw error
        }
    }

    private func authenticate(
        _ connection: SMTPConnection, username: String, password: String, extensions: [String]
    ) async throws {
        let mechanisms =
            extensions.first { $0.uppercased().hasPrefix("AUTH ") || $0.uppercased().hasPrefix("AUTH=") }
            .map { $0.dropFirst(5).uppercased().split(separator: " ").map(String.init) } ?? []
        let base64 = { (text: String) in Data(text.utf8).base64EncodedString() }
        if mechanisms.contains("PLAIN") {
            try await connection.expect(
                235, after: "AUTH PLAIN \(base64("\0\(username)\0\(password)"))", shown: "AUTH PLAIN …")
        } else if mechanisms.contains("LOGIN") {
            try await connection.expect(334, after: "AUTH LOGIN")
            try await connection.expect(334, after: base64(username), shown: "the user name")
            try await connection.expect(235, after: base64(password), shown: "the password")
        } else {
            throw MailDeliveryError(
                "the SMTP server \(settings.host) offers no login Cairn knows (PLAIN or LOGIN); it offers: \(mechanisms.joined(separator: " "))"
            )
        }
    }

    /// The message with every line that starts with "." given a second one (RFC 5321 §4.5.2), lone LFs
    /// made CRLF, ending in CRLF.
    static func dotStuffed(_ text: String) -> String {
        var lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        return lines.map { $0.hasPrefix(".") ? "." + $0 : String($0) }.joined(separator: "\r\n") + "\r\n"
    }
}

/// One server reply: its code and its lines of text.
struct SMTPReply: Sendable, Equatable {
    var code: Int
    var lines: [String]

    var text: String { lines.joined(separator: " ") }
}

/// A connection to an SMTP server, driven one command at a time.
final class SMTPConnection {
    private let channel: any Channel
    private var replies: AsyncThrowingStream<SMTPReply, any Error>.AsyncIterator
    private let host: String
    private var consumed = 0

    private init(channel: any Channel, replies: AsyncThrowingStream<SMTPReply, any Error>, host: String) {
        self.channel = channel
        self.replies = replies.makeAsyncIterator()
        self.host = host
    }

    static func open(settings: SMTPSettings, timeout: TimeAmount) async throws -> SMTPConnection {
        let (stream, continuation) = AsyncThrowingStream<SMTPReply, any Error>.makeStream()
        let tls = settings.security == .implicitTLS ? try tlsContext(settings) : nil
        let serverName = serverHostname(settings.host)
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: tls, serverHostname: serverName))
                    }
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: timeout))
                    try channel.pipeline.syncOperations.addHandler(SMTPReplyHandler(continuation: continuation))
                }
            }
        do {
            let channel = try await bootstrap.connect(host: settings.host, port: settings.port).get()
            return SMTPConnection(channel: channel, replies: stream, host: settings.host)
        } catch {
            throw MailDeliveryError(
                "cannot connect to the SMTP server \(settings.host):\(settings.port): \(describe(error))")
        }
    }

    /// EHLO; returns the extensions the server announced (the reply's lines after the first).
    func hello(_ name: String) async throws -> [String] {
        let reply = try await expect(250, after: "EHLO \(name)")
        return Array(reply.lines.dropFirst())
    }

    /// Sends `command` (nil: nothing, to read the greeting) and checks the reply's code.
    @discardableResult
    func expect(_ code: Int, after command: String?, shown: String? = nil) async throws -> SMTPReply {
        try await expect([code], after: command, shown: shown)
    }

    @discardableResult
    func expect(_ codes: Set<Int>, after command: String?, shown: String? = nil) async throws -> SMTPReply {
        if let command { try await send(command) }
        return try await check(codes, what: shown ?? command ?? "the greeting")
    }

    /// Sends text that already ends in CRLF (the message body) and checks the reply.
    func expect(_ code: Int, afterRaw text: String, shown: String) async throws {
        try await write(text)
        _ = try await check([code], what: shown)
    }

    func send(_ command: String) async throws {
        try await write(command + "\r\n")
    }

    /// Adds TLS under the reply decoder after the server agreed to STARTTLS. Anything the server sent
    /// before the handshake would be unauthenticated plaintext posing as part of the secure session, so
    /// that aborts the delivery.
    func startTLS(settings: SMTPSettings) async throws {
        let context = try Self.tlsContext(settings)
        let serverName = Self.serverHostname(settings.host)
        let consumed = consumed
        try await channel.eventLoop.submit { [channel] in
            let handler = try channel.pipeline.syncOperations.handler(type: SMTPReplyHandler.self)
            guard handler.isIdle(consumed: consumed) else {
                throw MailDeliveryError(
                    "the SMTP server \(settings.host) sent data before the TLS handshake; delivery stopped")
            }
            try channel.pipeline.syncOperations.addHandler(
                NIOSSLClientHandler(context: context, serverHostname: serverName), position: .first)
        }.get()
    }

    func close() async {
        try? await channel.close()
    }

    private func write(_ text: String) async throws {
        do {
            try await channel.writeAndFlush(ByteBuffer(string: text))
        } catch {
            throw MailDeliveryError("the connection to the SMTP server \(host) broke: \(Self.describe(error))")
        }
    }

    private func check(_ codes: Set<Int>, what: String) async throws -> SMTPReply {
        let reply: SMTPReply?
        do {
            reply = try await replies.next()
        } catch let error as MailDeliveryError {
            throw error
        } catch {
            throw MailDeliveryError(
                "the connection to the SMTP server \(host) failed after \(what): \(Self.describe(error))")
        }
        guard let reply else {
            throw MailDeliveryError("the SMTP server \(host) closed the connection after \(what)")
        }
        consumed += 1
        guard codes.contains(reply.code) else {
            throw MailDeliveryError("the SMTP server \(host) answered \(what) with \(reply.code) \(reply.text)")
        }
        return reply
    }

    private static func tlsContext(_ settings: SMTPSettings) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        if let file = settings.trustedCertificateFile {
            configuration.additionalTrustRoots = [.file(file.path)]
        }
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw MailDeliveryError("cannot set up TLS for the SMTP server: \(describe(error))")
        }
    }

    /// SNI takes names, not IP literals; for an address NIOSSL checks the certificate against the peer's IP.
    private static func serverHostname(_ host: String) -> String? {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let isAddress = bare.contains(":") || bare.split(separator: ".").allSatisfy { Int($0) != nil }
        return isAddress ? nil : bare
    }

    fileprivate static func describe(_ error: any Error) -> String {
        if let error = error as? NIOSSLError { return "TLS failed (\(error))" }
        if let error = error as? BoringSSLError { return "TLS failed (\(error))" }
        return String(describing: error)
    }
}

/// Splits the server's bytes into lines and lines into replies (`250-first`, …, `250 last`), handing each
/// complete reply to the connection.
final class SMTPReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation
    private var buffer = ByteBuffer()
    private var pendingLines: [String] = []
    private var delivered = 0

    init(continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation) {
        self.continuation = continuation
    }

    /// Whether every reply was read by the connection and nothing more has arrived.
    func isIdle(consumed: Int) -> Bool {
        delivered == consumed && buffer.readableBytes == 0 && pendingLines.isEmpty
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        buffer.writeBuffer(&incoming)
        while let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - buffer.readerIndex
            var line = buffer.readString(length: length) ?? ""
            buffer.moveReaderIndex(forwardBy: 1)
            if line.hasSuffix("\r") { line.removeLast() }
            guard line.count >= 3, let code = Int(line.prefix(3)) else {
                fail(
                    context, MailDeliveryError("the SMTP server sent something that is not a reply: \(line.prefix(80))")
                )
                return
            }
            let separator = line.dropFirst(3).first
            pendingLines.append(String(line.dropFirst(4)))
            if separator != "-" {
                delivered += 1
                continuation.yield(SMTPReply(code: code, lines: pendingLines))
                pendingLines = []
            }
        }
        buffer.discardReadBytes()
        if buffer.readableBytes > 64 * 1024 {
            fail(context, MailDeliveryError("the SMTP server sent an overlong line"))
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            fail(context, MailDeliveryError("the SMTP server did not answer in time"))
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context, MailDeliveryError("the SMTP connection failed: \(SMTPConnection.describe(error))"))
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }

    private func fail(_ context: ChannelHandlerContext, _ error: MailDeliveryError) {
        continuation.finish(throwing: error)
        context.close(promise: nil)
    }
}
