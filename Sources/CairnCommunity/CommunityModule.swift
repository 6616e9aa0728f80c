import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Vapor

/// Community and social, shared by every app (issue 19): people and their public profiles, friends and blocks,
/// reviews of anything a module registers as a subject kind, and message threads in real time. The Trails and
/// Ski modules build on it through `reviewSubjects` (docs/community.md).
package struct CommunityModule: CairnModule {
    private let context: CommunityContext
    /// The kinds of things people may review; modules register theirs at start-up.
    package let reviewSubjects: ReviewSubjects

    package init(
        identity: Identity, platform: PlatformServices, push: any PushNotifier = SilentPushNotifier(),
        reviewSubjects: ReviewSubjects = ReviewSubjects()
    ) throws {
        self.reviewSubjects = reviewSubjects
        reviewSubjects.register(ReviewSubjects.community)
        context = CommunityContext(
            identity: identity, writer: platform.writer, now: platform.now, hub: platform.realtime,
            subjects: reviewSubjects, logger: platform.logger, userFiles: platform.userFiles,
            heavyWork: platform.heavyWork, fileWork: platform.fileWork, rateLimited: { platform.rateLimited($0) },
            push: push)
        try context.registerTopics()
    }

    package var openAPIFragment: URL? { OpenAPIDocument.fragment("community", in: .module) }

    package func boot(api: any RoutesBuilder) throws {
        try api.register(collection: FriendsController(context: context))
        try api.register(collection: ReviewsController(context: context))
        try api.register(collection: ThreadsController(context: context))
        try api.register(collection: ForumsController(context: context))
        try api.register(collection: ModerationController(context: context))
        try api.register(collection: LocationController(context: context))
        try api.register(collection: GroupsController(context: context))
    }

    /// A deleted person leaves no friends, requests, blocks, reviews, votes, reports or memberships; the
    /// messages they wrote stay in their threads as "deleted user" (author set to null), and their own
    /// realtime topic's stored events go.
    package func deleteUserData(_ userID: UUID, on db: any Database, files: UserFileDeletions) async throws {
        try await FriendLink.query(on: db).group(.or) { $0.filter(\.$userID == userID).filter(\.$friendID == userID) }
            .delete()
        try await FriendRequest.query(on: db).group(.or) { $0.filter(\.$fromID == userID).filter(\.$toID == userID) }
            .delete()
        try await Block.query(on: db).group(.or) { $0.filter(\.$blockerID == userID).filter(\.$blockedID == userID) }
            .delete()
        let reviews = try await Review.query(on: db).filter(\.$authorID == userID).all()
        for review in reviews {
            try await ContentReport.query(on: db).filter(\.$contentKind == "review")
                .filter(\.$contentID == review.requireID()).delete()
            try await ReviewVoteRecord.query(on: db).filter(\.$review.$id == review.requireID()).delete()
        }
        // The votes they cast leave the counts of the reviews they were on.
        for vote in try await ReviewVoteRecord.query(on: db).filter(\.$userID == userID).all() {
            if let review = try await Review.find(vote.$review.id, on: db) {
                if vote.accurate { review.accurateVotes -= 1 } else { review.notAccurateVotes -= 1 }
                review.score = review.accurateVotes - review.notAccurateVotes
                try await review.save(on: db)
            }
            try await vote.delete(on: db)
        }
        try await Review.query(on: db).filter(\.$authorID == userID).delete()
        try await ContentReport.query(on: db).filter(\.$reporterID == userID).delete()
        try await ThreadMember.query(on: db).filter(\.$userID == userID).delete()
        try await Message.query(on: db).filter(\.$authorID == userID).set(\.$authorID, to: nil).update()
        try await Message.query(on: db).filter(\.$aboutID == userID).set(\.$aboutID, to: nil).update()
        try await MessageThread.query(on: db).filter(\.$creatorID == userID).set(\.$creatorID, to: nil).update()
        // Forum posts stay as "deleted user", without their photos (the user's folder goes after the commit).
        try await ForumPost.query(on: db).filter(\.$authorID == userID).set(\.$photoFormat, to: nil)
            .set(\.$photoWidth, to: nil).set(\.$photoHeight, to: nil).set(\.$authorID, to: nil).update()
        try await ForumTopic.query(on: db).filter(\.$authorID == userID).set(\.$authorID, to: nil).update()
        // Their live location goes at once: the share, its audience and the last position.
        for share in try await LocationShare.query(on: db).filter(\.$sharerID == userID).all() {
            try await LiveLocationAccess.end(share, on: db)
        }
        try await LivePosition.query(on: db).filter(\.$userID == userID).delete()
        try await LocationShareAudience.query(on: db).filter(\.$viewerID == userID).delete()
        try await GroupMember.query(on: db).filter(\.$userID == userID).delete()
        try await FriendGroup.query(on: db).filter(\.$creatorID == userID).set(\.$creatorID, to: nil).update()
        try await context.hub.forget(topic: CommunityContext.personTopic(userID), on: db)
        try await context.hub.forget(topic: CommunityContext.locationTopic(userID), on: db)
    }

    package func sampleUserData(for userID: UUID, on db: any Database) async throws {
        let now = context.now()
        try await context.writer.transaction(on: db) { db in
            let review = Review(of: "community:general", by: userID, rating: 4, text: "Sample review", at: now)
            try await review.create(on: db)
            let vote = ReviewVoteRecord()
            vote.id = UUID()
            vote.$review.id = try review.requireID()
            vote.userID = userID
            vote.accurate = true
            vote.createdAt = now
            try await vote.create(on: db)
            try await ContentReport(.review, try review.requireID(), by: userID, reason: "Sample report", at: now)
                .create(on: db)
            try await FriendLink(user: userID, friend: userID, since: now).create(on: db)
            try await FriendRequest(from: userID, to: userID, at: now).create(on: db)
            try await Block(blocker: userID, blocked: userID, at: now).create(on: db)
            let thread = MessageThread()
            thread.id = UUID()
            thread.creatorID = userID
            thread.createdAt = now
            thread.lastSeq = 1
            thread.lastActivityAt = now
            try await thread.create(on: db)
            let member = ThreadMember()
            member.id = UUID()
            member.$thread.id = try thread.requireID()
            member.userID = userID
            member.joinedAt = now
            member.readSeq = 1
            try await member.create(on: db)
            let message = Message()
            message.id = UUID()
            message.$thread.id = try thread.requireID()
            message.seq = 1
            message.authorID = userID
            message.kind = "added"
            message.aboutID = userID
            message.text = ""
            message.sentAt = now
            try await message.create(on: db)
            let topic = ForumTopic()
            topic.id = UUID()
            topic.subject = "community:general"
            topic.authorID = userID
            topic.title = "Sample topic"
            topic.createdAt = now
            topic.lastPostAt = now
            topic.commentCount = 0
            topic.status = "visible"
            try await topic.create(on: db)
            let post = ForumPost()
            post.id = topic.id
            post.$topic.id = try topic.requireID()
            post.seq = 1
            post.authorID = userID
            post.text = "Sample post"
            post.createdAt = now
            post.deleted = false
            post.reportCount = 0
            post.status = "visible"
            try await post.create(on: db)
            let group = FriendGroup()
            group.id = UUID()
            group.name = "Sample group"
            group.creatorID = userID
            group.createdAt = now
            try await group.create(on: db)
            let groupMember = GroupMember()
            groupMember.id = UUID()
            groupMember.$group.id = try group.requireID()
            groupMember.userID = userID
            groupMember.status = "member"
            groupMember.since = now
            try await groupMember.create(on: db)
            let share = LocationShare()
            share.id = UUID()
            share.sharerID = userID
            share.startedAt = now
            share.endsAt = now.addingTimeInterval(900)
            try await share.create(on: db)
            let audience = LocationShareAudience()
            audience.id = UUID()
            audience.$share.id = try share.requireID()
            audience.viewerID = userID
            try await audience.create(on: db)
            let position = LivePosition()
            position.id = UUID()
            position.userID = userID
            position.latitude = 60.17
            position.longitude = 24.94
            position.recordedAt = now
            try await position.create(on: db)
        }
    }
}
