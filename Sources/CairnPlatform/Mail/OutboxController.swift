import CairnAPI
import Foundation
import Vapor

/// `GET /dev/outbox`: the messages in the outbox folder as a page, so a self-hoster without a mail server
/// still gets reset codes and confirmation links. Served only while mail goes to the outbox, only when
/// `CAIRN_DEV_OUTBOX=local` (the default), and only to clients on this machine; anyone else gets 404.
struct OutboxController: RouteCollection {
    let folder: URL?
    let clients: ClientAddresses

    func boot(routes: any RoutesBuilder) throws {
        routes.get("dev", "outbox", use: page)
    }

    func page(req: Request) async throws -> Response {
        guard let folder, clients.isLoopback(req) else {
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
