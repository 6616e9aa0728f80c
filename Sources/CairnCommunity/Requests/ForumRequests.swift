import CairnAPI
import CairnPlatform
import Foundation
import Geo
import Vapor

/// `GET /api/forums/{KIND:ID}/topics?offset=&limit=`: 20 topics at a time by default.
struct ForumTopicListRequest {
    let offset: Int
    let limit: Int

    init(_ req: Request) throws {
        var input = RequestInput(query: req)
        offset = input.integer("offset", in: 0...100_000, default: 0)
        limit = input.integer("limit", in: 1...50, default: 20)
        try input.finish()
    }
}

/// `GET /api/forum-topics/{id}?offset=&limit=`: 50 comments at a time by default.
struct ForumTopicRequest {
    let offset: Int
    let limit: Int

    init(_ req: Request) throws {
        var input = RequestInput(query: req)
        offset = input.integer("offset", in: 0...100_000, default: 0)
        limit = input.integer("limit", in: 1...100, default: 50)
        try input.finish()
    }
}

/// A post's content: text, an optional photo (base64, a `data:` URL allowed) and an optional dropped pin. A post
/// needs text or a photo.
struct ForumPostContent {
    static let maxTextLength = 5_000
    /// The largest photo accepted, before it is sanitised: a phone's full-size JPEG.
    static let maxPhotoBytes = 8 << 20
    /// Room in a request body for the photo in base64 (4/3 of its bytes) and the rest.
    static let bodyLimit = maxPhotoBytes * 4 / 3 + 64 * 1024

    let text: String
    let photo: [UInt8]?
    let pin: Coordinate?

    init(_ input: inout RequestInput, textRequired: Bool) {
        text = input.text(
            "text", label: "your post", length: 0...Self.maxTextLength, multiline: true, default: "")
        photo = input.picture("photo", label: "the photo", maxBytes: Self.maxPhotoBytes, required: false)
        pin = input.point("pin", required: false)
        if textRequired, text.isEmpty, photo == nil, input.isValid {
            input.fail("text", "Write something or add a photo.")
        }
    }
}

/// `POST /api/forums/{KIND:ID}/topics`: `{"id", "title", "text", "photo"?, "pin"?}`; `id` is made on the device.
struct ForumTopicForm {
    static let fields: Set<String> = ["id", "title", "text", "photo", "pin"]
    static let maxTitleLength = 120

    let id: UUID
    let title: String
    let content: ForumPostContent

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let id = input.id("id")
        let title = input.text("title", label: "a title", length: 1...Self.maxTitleLength)
        content = ForumPostContent(&input, textRequired: false)
        (self.id, self.title) = try input.finish(id, title)
    }
}

/// `POST /api/forum-topics/{id}/posts`: a comment, `{"id", "text", "photo"?, "pin"?}`.
struct ForumCommentForm {
    static let fields: Set<String> = ["id", "text", "photo", "pin"]

    let id: UUID
    let content: ForumPostContent

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let id = input.id("id")
        content = ForumPostContent(&input, textRequired: true)
        self.id = try input.finish(id)
    }
}
