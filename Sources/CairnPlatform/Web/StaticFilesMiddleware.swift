import Foundation
import NIOCore
import Vapor

/// Serves files from folders mounted at URL prefixes: the web app at `/`, Leaflet at `/vendor/leaflet/`.
///
/// Only GET and HEAD of existing regular files are answered here; anything else falls through to the
/// routes (and so to a 404 problem). Paths that climb out of their folder are refused. `/` serves
/// `index.html`. Responses carry ETags, so revisits cost a 304.
///
/// Every request passes here, so those that cannot name a file go on without touching the disk: requests a
/// route answers (the API, `/healthz`), and paths whose last segment has no extension (every file served has
/// one; a folder ending in `/` still gets its `index.html`).
struct StaticFilesMiddleware: Middleware {
    struct Mount: Sendable {
        /// URL prefix, starting and ending with `/`.
        var prefix: String
        var directory: URL
        var cacheControl: String
    }

    let mounts: [Mount]

    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        guard request.method == .GET || request.method == .HEAD, request.route == nil else {
            return next.respond(to: request)
        }
        let path = request.url.path
        guard Self.mayNameAFile(path), let file = resolve(path) else {
            return next.respond(to: request)
        }
        return request.eventLoop.makeFutureWithTask {
            let response = try await request.fileio.asyncStreamFile(
                at: file.path, mediaType: mediaType(of: file.path))
            response.headers.replaceOrAdd(name: .cacheControl, value: file.cacheControl)
            if file.path.hasSuffix("sw.js") {
                response.headers.replaceOrAdd(name: "Service-Worker-Allowed", value: "/")
            }
            return response
        }
    }

    /// False for paths that are never files: the API's, and those ending in a segment without extension.
    static func mayNameAFile(_ path: String) -> Bool {
        if path.hasPrefix("/api/") { return false }
        guard let lastSegment = path.split(separator: "/", omittingEmptySubsequences: false).last else { return true }
        return lastSegment.isEmpty || lastSegment.contains(".")
    }

    private func resolve(_ rawPath: String) -> (path: String, cacheControl: String)? {
        guard let path = rawPath.removingPercentEncoding, !path.contains("\0") else { return nil }
        for mount in mounts where path.hasPrefix(mount.prefix) {
            var relative = String(path.dropFirst(mount.prefix.count))
            if relative.isEmpty || relative.hasSuffix("/") { relative += "index.html" }
            let components = relative.split(separator: "/")
            guard !components.contains(where: { $0 == ".." || $0.hasPrefix(".") }) else { return nil }
            let candidate = mount.directory.appendingPathComponent(relative).path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue {
                return (candidate, mount.cacheControl)
            }
        }
        return nil
    }

    private func mediaType(of path: String) -> HTTPMediaType? {
        let ext = (path as NSString).pathExtension.lowercased()
        switch ext {
        case "js", "mjs": return HTTPMediaType(type: "text", subType: "javascript", parameters: ["charset": "utf-8"])
        case "webmanifest": return HTTPMediaType(type: "application", subType: "manifest+json")
        case "svg": return HTTPMediaType(type: "image", subType: "svg+xml")
        default: return HTTPMediaType.fileExtension(ext)
        }
    }
}
