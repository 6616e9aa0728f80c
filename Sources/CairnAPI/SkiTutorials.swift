import Foundation

/// The ski app's tutorials (`/api/ski/tutorials`, GoSki story 3, UC7): technique videos in three levels, kept in
/// order by the admins. YouTube and Vimeo videos play embedded (privacy-enhanced, after the person presses play);
/// other links open outside.

/// A tutorial's skill level, from first days to the steepest terrain.
public enum SkiTutorialLevel: String, Codable, Sendable, CaseIterable {
    case beginner, intermediate, advanced
}

/// Where a tutorial plays: `youtube` and `vimeo` embedded by `video_id`, `other` outside Cairn.
public enum SkiTutorialProvider: String, Codable, Sendable, CaseIterable {
    case youtube, vimeo, other
}

/// One tutorial video or page.
public struct SkiTutorial: Codable, Sendable, Equatable {
    public var id: UUID
    public var level: SkiTutorialLevel
    public var title: String
    /// The https address as the admin gave it.
    public var url: String
    public var provider: SkiTutorialProvider
    /// The YouTube or Vimeo video id; absent for other links.
    public var videoID: String?
    /// Its place in its level, from 0.
    public var position: Int
    /// True for the demo list's entries, which are placeholders for the admin to replace.
    public var demo: Bool
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: UUID, level: SkiTutorialLevel, title: String, url: String, provider: SkiTutorialProvider,
        videoID: String?, position: Int, demo: Bool, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.level = level
        self.title = title
        self.url = url
        self.provider = provider
        self.videoID = videoID
        self.position = position
        self.demo = demo
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, level, title, url, provider, position, demo
        case videoID = "video_id"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

/// The tutorials of one level, in order.
public struct SkiTutorialLevelList: Codable, Sendable, Equatable {
    public var level: SkiTutorialLevel
    public var tutorials: [SkiTutorial]

    public init(level: SkiTutorialLevel, tutorials: [SkiTutorial]) {
        self.level = level
        self.tutorials = tutorials
    }
}

/// `GET /api/ski/tutorials`: every level, beginner first, each with its tutorials (possibly none).
public struct SkiTutorialCatalogue: Codable, Sendable, Equatable {
    public var levels: [SkiTutorialLevelList]

    public init(levels: [SkiTutorialLevelList]) {
        self.levels = levels
    }
}
