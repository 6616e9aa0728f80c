import CairnPlatform
import Foundation
import Vapor

/// `GET /api/people?q=…`: a part of a username or name.
struct PeopleSearchRequest {
    let text: String
    let limit: Int

    init(_ req: Request) throws {
        var input = RequestInput(query: req)
        let text = input.text("q", label: "a username or name to look for", length: 1...100)
        limit = input.integer("limit", in: 1...50, default: 20)
        self.text = try input.finish(text)
    }
}

/// `POST /api/friends/requests` and `POST /api/blocks`: `{"username": …}`.
struct UsernameRequest {
    static let fields: Set<String> = ["username"]

    let username: String

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let username = input.plainText("username", label: "a username")
        self.username = try input.finish(username)
    }
}

extension Request {
    /// The path's id parameter `name`; an id that is not one names nothing here (404 with `missing`).
    func pathID(_ name: String, missing: @autoclosure () -> any Error) throws -> UUID {
        guard let id = parameters.get(name, as: UUID.self) else { throw missing() }
        return id
    }
}
