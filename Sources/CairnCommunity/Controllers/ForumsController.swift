import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Geo
import Vapor

extension ForumTopicInfo: Content {}
extension ForumTopicPage: Content {}
extension ForumTopicDetail: Content {}
extension ForumPostInfo: Content {}

/// Forums on any subject a module registered (Trailz 3.2.6.6, GoSki story 9 / UC11): topics with an opening post,
/// then comments; each post has text, an optional photo (sanitised: EXIF, GPS and every other metadata dropped,
/// PNG redrawn at most 2,048 px a side) and an optional dropped pin. Everyone may read; posting needs an
/// account. A post's id is made by the posting device, so a post sent again is answered, never doubled; a
/// topic's id is its opening post's. A post reported by `hideAfterReports` people is hidden until a moderator
/// looks at it (its author still sees it, with why).
struct ForumsController: RouteCollection {
    let context: CommunityContext
    static let hideAfterReports = ReviewsController.hideAfterReports
    static let hiddenByReports = ReviewsController.hiddenByReports
    /// The longest side of a stored PNG photo (JPEG keeps its size, without its metadata).
    static let photoMaxSide = 2048

    func boot(routes: any RoutesBuilder) throws {
        routes.get("forums", ":subject", "topics", use: topics)
        routes.get("forum-topics", ":id", use: topic)
        routes.get("forum-posts", ":id", "photo", use: photo)
        let limited = routes.limited(by: context.rateLimited(CommunityRateLimits.forums))
        limited.on(.POST, "forums", ":subject", "topics", bodyLimit: ForumPostContent.bodyLimit, use: createTopic)
        limited.on(.POST, "forum-topics", ":id", "posts", bodyLimit: ForumPostContent.bodyLimit, use: comment)
        limited.delete("forum-posts", ":id", use: delete)
        limited.post("forum-posts", ":id", "reports", use: report)
    }

    // MARK: Reading

    /// A forum's topics, latest activity first; hidden ones only for their author.
    func topics(req: Request) async throws -> ForumTopicPage {
        let me = try await context.identity.currentUser(req)?.id
        let subject = try pathSubject(req)
        let query = try ForumTopicListRequest(req)
        guard let kind = context.subjects.kind(subject.kind), try await kind.exists(subject.id, req.db) else {
            throw CommunityProblem.subjectNotFound(subject.text)
        }
        let page = try await ForumTopic.query(on: req.db).filter(\.$subject == subject.text)
            .group(.or) { group in
                group.filter(\.$status == "visible")
                if let me { group.filter(\.$authorID == me) }
            }
            .sort(\.$lastPostAt, .descending).sort(\.$id)
            .range(query.offset..<(query.offset + query.limit + 1)).all()
        let shown = Array(page.prefix(query.limit))
        return ForumTopicPage(
            subject: subject.text, topics: try await present(topics: shown, for: me, on: req.db),
            nextOffset: page.count > query.limit ? query.offset + query.limit : nil)
    }

    /// A topic and a page of its comments, oldest first.
    func topic(req: Request) async throws -> ForumTopicDetail {
        let me = try await context.identity.currentUser(req)?.id
        let query = try ForumTopicRequest(req)
        let topic = try await visibleTopic(req, to: me, on: req.db)
        let page = try await ForumPost.query(on: req.db).filter(\.$topic.$id == topic.requireID())
            .filter(\.$seq > 1)
            .group(.or) { group in
                group.filter(\.$status == "visible")
                if let me { group.filter(\.$authorID == me) }
            }
            .sort(\.$seq).range(query.offset..<(query.offset + query.limit + 1)).all()
        let shown = Array(page.prefix(query.limit))
        guard let info = try await present(topics: [topic], for: me, on: req.db).first else {
            throw CommunityProblem.topicNotFound
        }
        return ForumTopicDetail(
            topic: info, comments: try await present(posts: shown, for: me, on: req.db),
            nextOffset: page.count > query.limit ? query.offset + query.limit : nil)
    }

    /// A post's photo, as stored: without its metadata.
    func photo(req: Request) async throws -> Response {
        let user = try await context.identity.currentUser(req)
        let me = user?.id
        let id = try req.pathID("id", missing: CommunityProblem.postNotFound)
        // Hidden photos: for their author and for the moderators deciding about them.
        guard let post = try await ForumPost.find(id, on: req.db),
            post.status == "visible" || post.authorID == me || user?.role.moderates == true,
            !post.deleted, let author = post.authorID,
            let format = post.photoFormat.flatMap(ImageSanitizer.Format.init)
        else { throw Problem.notFound("This post has no photo.") }
        let file = photoFile(of: id, author: author, format: format)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw Problem.notFound("This post has no photo.")
        }
        let response = try await req.fileio.asyncStreamFile(at: file.path, mediaType: format == .png ? .png : .jpeg)
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=86400")
        return response
    }

    // MARK: Writing

    /// Starts a topic (201), or answers the one this id made (200) when the same post comes again.
    func createTopic(req: Request) async throws -> Response {
        let me = try await context.requireUserID(req, to: "post in the forum")
        let subject = try pathSubject(req)
        let form = try ForumTopicForm(req)
        guard let kind = context.subjects.kind(subject.kind), try await kind.exists(subject.id, req.db) else {
            throw CommunityProblem.subjectNotFound(subject.text)
        }
        if let existing = try await ForumPost.find(form.id, on: req.db) {
            return try await resentTopic(existing, subject: subject.text, me: me, req: req)
        }
        let photo = try await sanitize(form.content.photo, me: me)
        let now = context.now()
        let created: Bool = try await storing(photo, of: form.id, author: me, on: req.db) { db in
            if try await ForumPost.find(form.id, on: db) != nil { return false }
            try await store(photo, of: form.id, author: me)
            let topic = ForumTopic()
            topic.id = form.id
            topic.subject = subject.text
            topic.authorID = me
            topic.title = form.title
            topic.createdAt = now
            topic.lastPostAt = now
            topic.commentCount = 0
            topic.status = "visible"
            try await topic.create(on: db)
            try await makePost(
                id: form.id, in: form.id, seq: 1, author: me, content: form.content, photo: photo, at: now
            )
            .create(on: db)
            return true
        }
        guard created else {
            guard let existing = try await ForumPost.find(form.id, on: req.db) else {
                throw CommunityProblem.postNotFound
            }
            return try await resentTopic(existing, subject: subject.text, me: me, req: req)
        }
        guard let topic = try await ForumTopic.find(form.id, on: req.db),
            let info = try await present(topics: [topic], for: me, on: req.db).first
        else { throw CommunityProblem.topicNotFound }
        req.logger.info("forum topic created", metadata: ["topic": "\(form.id)", "subject": "\(subject.text)"])
        await context.forumChanged(subject.text, topic: form.id, "topic")
        return try await info.encodeResponse(status: .created, for: req)
    }

    /// Comments on a topic (201), or answers the comment this id made (200).
    func comment(req: Request) async throws -> Response {
        let me = try await context.requireUserID(req, to: "post in the forum")
        let topic = try await visibleTopic(req, to: me, on: req.db)
        let topicID = try topic.requireID()
        let form = try ForumCommentForm(req)
        if let existing = try await ForumPost.find(form.id, on: req.db) {
            return try await resentComment(existing, topicID: topicID, me: me, req: req)
        }
        let photo = try await sanitize(form.content.photo, me: me)
        let now = context.now()
        let created: Bool = try await storing(photo, of: form.id, author: me, on: req.db) { db in
            if try await ForumPost.find(form.id, on: db) != nil { return false }
            guard let topic = try await ForumTopic.find(topicID, on: db) else { throw CommunityProblem.topicNotFound }
            try await store(photo, of: form.id, author: me)
            let last =
                try await ForumPost.query(on: db).filter(\.$topic.$id == topicID).sort(\.$seq, .descending)
                .first()?.seq ?? 0
            try await makePost(
                id: form.id, in: topicID, seq: last + 1, author: me, content: form.content, photo: photo, at: now
            ).create(on: db)
            topic.commentCount += 1
            topic.lastPostAt = now
            try await topic.save(on: db)
            return true
        }
        guard created, let post = try await ForumPost.find(form.id, on: req.db) else {
            guard let existing = try await ForumPost.find(form.id, on: req.db) else {
                throw CommunityProblem.postNotFound
            }
            return try await resentComment(existing, topicID: topicID, me: me, req: req)
        }
        await context.forumChanged(topic.subject, topic: topicID, "comment")
        let info = try await present(posts: [post], for: me, on: req.db)[0]
        return try await info.encodeResponse(status: .created, for: req)
    }

    /// The author deletes a post: a comment goes; an opening post goes with its topic when nobody commented,
    /// otherwise it stays in its place without text, photo or pin.
    func delete(req: Request) async throws -> HTTPStatus {
        let me = try await context.requireUserID(req, to: "delete a post")
        let id = try req.pathID("id", missing: CommunityProblem.postNotFound)
        let photo: (UUID, ImageSanitizer.Format)? = try await context.writer.transaction(on: req.db) { db in
            guard let post = try await ForumPost.find(id, on: db), !post.deleted,
                post.status == "visible" || post.authorID == me
            else { throw CommunityProblem.postNotFound }
            guard post.authorID == me else { throw CommunityProblem.notThePostAuthor }
            guard let topic = try await ForumTopic.find(post.$topic.id, on: db) else {
                throw CommunityProblem.topicNotFound
            }
            let photo = post.photoFormat.flatMap(ImageSanitizer.Format.init).map { (id, $0) }
            try await ContentReport.query(on: db).filter(\.$contentKind == "post").filter(\.$contentID == id).delete()
            if post.seq > 1 {
                try await post.delete(on: db)
                topic.commentCount = max(0, topic.commentCount - 1)
                try await topic.save(on: db)
            } else if topic.commentCount == 0 {
                try await topic.delete(on: db)
            } else {
                post.deleted = true
                post.text = ""
                post.photoFormat = nil
                post.photoWidth = nil
                post.photoHeight = nil
                post.pinLatitude = nil
                post.pinLongitude = nil
                try await post.save(on: db)
            }
            return photo
        }
        if case let (postID, format)? = photo {
            let file = photoFile(of: postID, author: me, format: format)
            try await context.fileWork.run { try? FileManager.default.removeItem(at: file) }
        }
        return .noContent
    }

    /// Reports someone else's post (once per person; again answers 200). Reported by several people, it is
    /// hidden until a moderator looks at it, and an opening post hides its topic.
    func report(req: Request) async throws -> Response {
        let me = try await context.requireUserID(req, to: "report posts")
        let id = try req.pathID("id", missing: CommunityProblem.postNotFound)
        let form = try ReportForm(req)
        let now = context.now()
        let (post, created): (ForumPost, Bool) = try await context.writer.transaction(on: req.db) { db in
            guard let post = try await ForumPost.find(id, on: db), !post.deleted,
                post.status == "visible" || post.authorID == me
            else { throw CommunityProblem.postNotFound }
            guard post.authorID != me else { throw CommunityProblem.ownPostReport }
            guard try await ContentReport.record(.post, id, by: me, reason: form.reason, at: now, on: db) else {
                return (post, false)
            }
            post.reportCount += 1
            if post.reportCount >= Self.hideAfterReports && post.status == "visible" {
                post.status = "hidden"
                post.hiddenReason = Self.hiddenByReports
                if post.seq == 1, let topic = try await ForumTopic.find(post.$topic.id, on: db) {
                    topic.status = "hidden"
                    try await topic.save(on: db)
                }
            }
            try await post.save(on: db)
            return (post, true)
        }
        let info = try await present(posts: [post], for: me, on: req.db)[0]
        return try await info.encodeResponse(status: created ? .created : .ok, for: req)
    }

    // MARK: Helpers

    private func makePost(
        id: UUID, in topicID: UUID, seq: Int, author: UUID, content: ForumPostContent,
        photo: ImageSanitizer.Sanitized?, at now: Date
    ) -> ForumPost {
        let post = ForumPost()
        post.id = id
        post.$topic.id = topicID
        post.seq = seq
        post.authorID = author
        post.text = content.text
        post.photoFormat = photo?.format.rawValue
        post.photoWidth = photo?.width
        post.photoHeight = photo?.height
        post.pinLatitude = content.pin?.latitude
        post.pinLongitude = content.pin?.longitude
        post.createdAt = now
        post.deleted = false
        post.reportCount = 0
        post.status = "visible"
        post.hiddenReason = nil
        return post
    }

    /// The photo without its metadata (on the heavy-work executor); a refusal names the `photo` field.
    private func sanitize(_ bytes: [UInt8]?, me: UUID) async throws -> ImageSanitizer.Sanitized? {
        guard let bytes else { return nil }
        do {
            try ImageSanitizer.refuseOversized(bytes)
            return try await context.heavyWork.run("reading pictures", client: "forum:\(me)", perClient: 1) {
                try ImageSanitizer.sanitize(bytes, maxSide: Self.photoMaxSide)
            }
        } catch ImageSanitizer.Refusal.unsupportedType {
            throw Problem.invalid(field: "photo", "The photo must be a JPEG or PNG picture.")
        } catch ImageSanitizer.Refusal.tooManyPixels {
            throw Problem.invalid(field: "photo", "The photo has too many pixels; at most 4096 × 4096.")
        } catch ImageSanitizer.Refusal.unreadable(let reason) {
            throw Problem.invalid(field: "photo", "The photo cannot be read: \(reason).")
        }
    }

    /// Runs a new post's write transaction, `body`, which stores its photo (`store`) once it knows the post is
    /// new. A post and its photo are saved together or not at all: when the transaction does not commit (a full
    /// disk refuses the row or the file), the photo file is removed again.
    private func storing(
        _ photo: ImageSanitizer.Sanitized?, of postID: UUID, author: UUID, on db: any Database,
        _ body: @escaping @Sendable (any Database) async throws -> Bool
    ) async throws -> Bool {
        do {
            return try await context.writer.transaction(on: db, body)
        } catch {
            if let photo, let stored = try? await ForumPost.query(on: db).filter(\.$id == postID).count(), stored == 0 {
                let file = photoFile(of: postID, author: author, format: photo.format)
                try? await context.fileWork.run { WholeFile.remove([file]) }
            }
            throw error
        }
    }

    /// Writes a new post's photo to its author's folder, whole or not at all, inside the post's transaction
    /// (`storing`): a post whose photo cannot be written is not saved.
    private func store(_ photo: ImageSanitizer.Sanitized?, of postID: UUID, author: UUID) async throws {
        guard let photo else { return }
        let userFiles = context.userFiles
        let name = Self.photoName(postID, photo.format)
        try await context.fileWork.run {
            let folder = try userFiles.folder(for: author, module: "community")
            try WholeFile.write(Data(photo.bytes), to: folder.appendingPathComponent(name))
        }
    }

    static func photoName(_ postID: UUID, _ format: ImageSanitizer.Format) -> String {
        "forum-\(postID.uuidString.lowercased()).\(format.fileExtension)"
    }

    private func photoFile(of postID: UUID, author: UUID, format: ImageSanitizer.Format) -> URL {
        context.userFiles.folder(for: author).appendingPathComponent("community")
            .appendingPathComponent(Self.photoName(postID, format))
    }

    private func resentTopic(_ existing: ForumPost, subject: String, me: UUID, req: Request) async throws -> Response {
        guard existing.authorID == me, existing.seq == 1, existing.$topic.id == existing.id,
            let topic = try await ForumTopic.find(existing.$topic.id, on: req.db), topic.subject == subject,
            let info = try await present(topics: [topic], for: me, on: req.db).first
        else { throw CommunityProblem.postIDTaken }
        return try await info.encodeResponse(status: .ok, for: req)
    }

    private func resentComment(_ existing: ForumPost, topicID: UUID, me: UUID, req: Request) async throws -> Response {
        guard existing.authorID == me, existing.seq > 1, existing.$topic.id == topicID else {
            throw CommunityProblem.postIDTaken
        }
        let info = try await present(posts: [existing], for: me, on: req.db)[0]
        return try await info.encodeResponse(status: .ok, for: req)
    }

    private func pathSubject(_ req: Request) throws -> ReviewSubject {
        let text = req.parameters.get("subject")?.removingPercentEncoding ?? ""
        guard let subject = ReviewSubject(text, kinds: context.subjects) else {
            throw CommunityProblem.subjectNotFound(text)
        }
        return subject
    }

    /// The topic named in the path, if the person may see it: visible ones, and their own.
    private func visibleTopic(_ req: Request, to me: UUID?, on db: any Database) async throws -> ForumTopic {
        let id = try req.pathID("id", missing: CommunityProblem.topicNotFound)
        guard let topic = try await ForumTopic.find(id, on: db), topic.status == "visible" || topic.authorID == me
        else { throw CommunityProblem.topicNotFound }
        return topic
    }

    private func present(topics: [ForumTopic], for me: UUID?, on db: any Database) async throws -> [ForumTopicInfo] {
        guard !topics.isEmpty else { return [] }
        let openings = try await ForumPost.query(on: db).filter(\.$topic.$id ~~ topics.compactMap(\.id))
            .filter(\.$seq == 1).all()
        let posts = try await present(posts: openings, for: me, on: db)
        let byTopic = Dictionary(posts.map { ($0.topicId, $0) }, uniquingKeysWith: { first, _ in first })
        return topics.compactMap { topic in
            guard let id = topic.id, let opening = byTopic[id] else { return nil }
            return ForumTopicInfo(
                id: id, subject: topic.subject, title: topic.title, author: opening.author, opening: opening,
                commentCount: topic.commentCount, createdAt: topic.createdAt, lastPostAt: topic.lastPostAt)
        }
    }

    private func present(posts: [ForumPost], for me: UUID?, on db: any Database) async throws -> [ForumPostInfo] {
        guard !posts.isEmpty else { return [] }
        let cards = try await PersonPresenter.cards(posts.compactMap(\.authorID), on: db)
        var reported: Set<UUID> = []
        if let me {
            reported = Set(
                try await ContentReport.query(on: db).filter(\.$contentKind == "post")
                    .filter(\.$contentID ~~ posts.compactMap(\.id)).filter(\.$reporterID == me).all().map(\.contentID))
        }
        return posts.compactMap { post in
            guard let id = post.id else { return nil }
            let mine = me != nil && post.authorID == me
            let pin: ForumPin? =
                if let lat = post.pinLatitude, let lon = post.pinLongitude { ForumPin(lat: lat, lon: lon) } else { nil }
            return ForumPostInfo(
                id: id, topicId: post.$topic.id, author: post.authorID.flatMap { cards[$0] } ?? .deleted,
                text: post.text,
                photoUrl: post.photoFormat == nil ? nil : "/api/forum-posts/\(id.uuidString.lowercased())/photo",
                photoWidth: post.photoWidth, photoHeight: post.photoHeight, pin: pin, createdAt: post.createdAt,
                deleted: post.deleted, isMine: mine, reportedByMe: reported.contains(id), status: post.status,
                hiddenReason: mine ? post.hiddenReason : nil)
        }
    }
}
