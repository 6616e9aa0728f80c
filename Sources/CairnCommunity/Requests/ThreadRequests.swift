import CairnPlatform
import Foundation
import Vapor

/// `POST /api/threads`: `{"id": UUID made on the device, "members": [user ids], "text"?: first message}`.
struct ThreadForm {
    static let fields: Set<String> = ["id", "members"]
    static let maxMembers = 50

    let id: UUID
    let members: [UUID]

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let id = input.id("id")
        var members: [UUID]?
        switch input.json("members") {
        case .array(let values)? where !values.isEmpty && values.count <= Self.maxMembers:
            let ids = values.compactMap { value -> UUID? in
                if case .string(let text) = value { return UUID(uuidString: text) }
                return nil
            }
            if ids.count == values.count {
                members = Array(Set(ids))
            } else {
                input.fail("members", "members must be a list of people's ids.")
            }
        default:
            input.fail("members", "Choose from 1 to \(Self.maxMembers) friends to write to.")
        }
        (self.id, self.members) = try input.finish(id, members)
    }
}

/// `POST /api/threads/{id}/members`: `{"members": [user ids]}`.
struct MembersForm {
    static let fields: Set<String> = ["members"]
    let members: [UUID]

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        var members: [UUID]?
        if case .array(let values)? = input.json("members"), !values.isEmpty, values.count <= ThreadForm.maxMembers {
            let ids = values.compactMap { value -> UUID? in
                if case .string(let text) = value { return UUID(uuidString: text) }
                return nil
            }
            if ids.count == values.count { members = Array(Set(ids)) }
        }
        if members == nil { input.fail("members", "Choose from 1 to \(ThreadForm.maxMembers) friends to invite.") }
        self.members = try input.finish(members)
    }
}

/// `POST /api/threads/{id}/messages`: `{"id": UUID made on the device, "text": …}`.
struct MessageForm {
    static let fields: Set<String> = ["id", "text"]
    static let maxLength = 4_000

    let id: UUID
    let text: String

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let id = input.id("id")
        let text = input.text("text", label: "a message", length: 1...Self.maxLength, multiline: true)
        (self.id, self.text) = try input.finish(id, text)
    }
}

/// `PATCH /api/threads/{id}/messages/{messageID}`: `{"text": …}`.
struct MessageEditForm {
    static let fields: Set<String> = ["text"]
    let text: String

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let text = input.text("text", label: "a message", length: 1...MessageForm.maxLength, multiline: true)
        self.text = try input.finish(text)
    }
}

/// `GET /api/threads/{id}/messages?after=SEQ&limit=`: what came after message `after` (0: from the start), or
/// with `before=SEQ` the page before it (scrolling back).
struct MessagePageRequest {
    let after: Int64?
    let before: Int64?
    let limit: Int

    init(_ req: Request) throws {
        var input = RequestInput(query: req)
        after = input.integer("after", in: 0...Int(Int32.max), required: false).map(Int64.init)
        before = input.integer("before", in: 1...Int(Int32.max), required: false).map(Int64.init)
        limit = input.integer("limit", in: 1...200, default: 50)
        if after != nil && before != nil { input.fail("before", "Ask for messages after or before one, not both.") }
        try input.finish()
    }
}

/// `POST /api/threads/{id}/read`: `{"seq": the newest message seen}`.
struct ReadForm {
    static let fields: Set<String> = ["seq"]
    let seq: Int64

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let seq = input.integer("seq", in: 0...Int(Int32.max))
        let value: Int = try input.finish(seq)
        self.seq = Int64(value)
    }
}
