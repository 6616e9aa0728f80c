import CairnAPI
import Fluent
import Foundation

/// One tutorial of the ski app: a video or page at a skill level, in its level's order.
final class SkiTutorialRecord: Model, @unchecked Sendable {
    static let schema = "ski_tutorials"

    @ID(key: .id) var id: UUID?
    /// `SkiTutorialLevel`: beginner, intermediate or advanced.
    @Field(key: "level") var level: String
    @Field(key: "title") var title: String
    @Field(key: "url") var url: String
    /// `SkiTutorialProvider`, read from `url`: youtube, vimeo or other.
    @Field(key: "provider") var provider: String
    /// The YouTube or Vimeo video id; nil for other pages.
    @OptionalField(key: "video_id") var videoID: String?
    /// Its place in its level, from 0, without gaps.
    @Field(key: "position") var position: Int
    @Field(key: "demo") var demo: Bool
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    var tutorialLevel: SkiTutorialLevel { SkiTutorialLevel(rawValue: level) ?? .beginner }

    var wire: SkiTutorial {
        SkiTutorial(
            id: id!, level: tutorialLevel, title: title, url: url,
            provider: SkiTutorialProvider(rawValue: provider) ?? .other, videoID: videoID, position: position,
            demo: demo, createdAt: createdAt, updatedAt: updatedAt)
    }
}
