import CairnAPI
import Foundation
import Vapor

/// `GET /dev/outbox`: the messages in the outbox folder as a page, so a self-hoster without a mail server
/// still gets reset codes and confirmation links. Served only while mail goes to the outbox, only when
/// `CAIRN_DEV_OUTBOX=local` (the default), only while the server listens on loopback alone (bound to
/// 127.0.0.1 or ::1 — on any other address a proxy without forwarding headers would make every visitor look
/// local), and only to clients on this machine; anyone else gets 404.
struct OutboxController: RouteCollection {
    let folder: URL?
    let clients: ClientAddresses

    func boot(routes: any RoutesBuilder) throws {
        routes.get("dev", "outbox", use: page)
    }

    func page(req: Request) async throws -> Response {
        guard let folder, OutboxPage.listensOnLoopbackOnly(req.application), clients.isLoopback(req) else {
            throw Problem.notFound("There is nothing at \(req.method) \(req.url.path).")
        }
        let messages = OutboxMessage.list(in: folder)
        let items = messages.map { message in
            """
            <article>
              <h2>\(escape(message.subject))</h2>
              <p class="meta">To \(escape(message.to)) · \(escape(message.date)) · \(escape(message.file))</p>
              <pre>\(escape(message.text))</pre>
            </article>
            """
        }
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Outbox · Cairn</title>
            <style>
              body { font: 16px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 720px; padding: 16px; }
              article { border: 1px solid #d4cec2; border-radius: 12px; padding: 12px 16px; margin: 12px 0; }
              h2 { font-size: 18px; margin: 0; } .meta { color: #55605b; font-size: 14px; }
              pre { white-space: pre-wrap; font: inherit; }
            </style></head><body>
            <h1>Outbox</h1>
            <p>Mail this Cairn server would have sent (newest first). Only visitors on this machine see this page;
            set CAIRN_SMTP_URL to deliver mail for real.</p>
            \(items.isEmpty ? "<p>No messages yet.</p>" : items.joined(separator: "\n"))
            </body></html>
            """
        var headers = HTTPHeaders()
        headers.contentType = .html
        headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return Response(status: .ok, headers: headers, body: .init(string: html))
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// Where `/dev/outbox` may be served, and what start-up says about it.
package enum OutboxPage {
    /// Whether the running server's socket is bound to a loopback address only. True when no socket is open
    /// (requests handed in-process, as in tests), since nothing outside the process can reach it then.
    package static func listensOnLoopbackOnly(_ app: Application) -> Bool {
        let address = (app.server as? CairnHTTPServer)?.localAddress ?? (app.server as? HTTPServer)?.localAddress
        guard let address else { return true }
        switch address {
        case .v4(let v4): return v4.host.hasPrefix("127.")
        case .v6(let v6): return v6.host == "::1"
        case .unixDomainSocket: return true
        }
    }

    /// What start-up says about the outbox page: on, for visitors on this machine, or off because the server
    /// listens beyond loopback. Nil when mail goes to a real server or the page is turned off.
    package static func startupNote(_ app: Application, platform: PlatformServices) -> (text: String, refused: Bool)? {
        guard platform.config.mail.outboxPage, platform.mail is OutboxMailTransport else { return nil }
        guard listensOnLoopbackOnly(app) else {
            return (
                "/dev/outbox is refused (404): the server listens beyond loopback, where a proxy without "
                    + "forwarding headers would show reset codes to everyone. Set CAIRN_SMTP_URL to deliver mail, "
                    + "or serve on 127.0.0.1 to read the outbox there.", true
            )
        }
        return ("mail goes to the outbox; /dev/outbox shows it to visitors on this machine", false)
    }
}
