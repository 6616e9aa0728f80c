import Foundation

/// Live location sharing (`/api/location`) and groups (`/api/groups`): a person shares their latest position with
/// chosen friends and groups until a time they chose (15 minutes to 24 hours), or until they stop. The server
/// keeps only the latest position, and none once the share ends. Members are snake_case.

/// A group of friends who may share their location with each other.
public struct GroupInfo: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    /// Those who joined, by name.
    public var members: [PersonCard]
    /// Those invited who have not joined yet.
    public var invited: [PersonCard]
    /// The asker's place: `member` or `invited`.
    public var myStatus: String

    public init(id: UUID, name: String, members: [PersonCard], invited: [PersonCard], myStatus: String) {
        self.id = id
        self.name = name
        self.members = members
        self.invited = invited
        self.myStatus = myStatus
    }

    enum CodingKeys: String, CodingKey {
        case id, name, members, invited
        case myStatus = "my_status"
    }
}

/// `GET /api/groups`.
public struct GroupList: Codable, Sendable, Equatable {
    public var groups: [GroupInfo]

    public init(groups: [GroupInfo]) {
        self.groups = groups
    }
}

/// `GET`/`PUT /api/location/share`: whether the asker shares, with whom and until when.
public struct LocationShareInfo: Codable, Sendable, Equatable {
    public var sharing: Bool
    public var endsAt: Date?
    public var friends: [PersonCard]
    public var groups: [GroupInfo]
    /// The realtime topic the asker's positions go out on.
    public var topic: String

    public init(sharing: Bool, endsAt: Date?, friends: [PersonCard], groups: [GroupInfo], topic: String) {
        self.sharing = sharing
        self.endsAt = endsAt
        self.friends = friends
        self.groups = groups
        self.topic = topic
    }

    enum CodingKeys: String, CodingKey {
        case sharing, friends, groups, topic
        case endsAt = "ends_at"
    }
}

/// Someone's latest position as a person they share with sees it.
public struct FriendPosition: Codable, Sendable, Equatable {
    public var person: PersonCard
    public var lat: Double
    public var lon: Double
    public var accuracyM: Double?
    /// When the position was taken: older than a couple of minutes means the signal was lost.
    public var recordedAt: Date
    /// When the share ends.
    public var endsAt: Date
    /// Follow it for updates; refused once the share ends or stops.
    public var topic: String

    public init(
        person: PersonCard, lat: Double, lon: Double, accuracyM: Double?, recordedAt: Date, endsAt: Date, topic: String
    ) {
        self.person = person
        self.lat = lat
        self.lon = lon
        self.accuracyM = accuracyM
        self.recordedAt = recordedAt
        self.endsAt = endsAt
        self.topic = topic
    }

    enum CodingKeys: String, CodingKey {
        case person, lat, lon, topic
        case accuracyM = "accuracy_m"
        case recordedAt = "recorded_at"
        case endsAt = "ends_at"
    }
}

/// `GET /api/location/friends`: the positions shared with the asker now, and who shares without a position yet.
public struct FriendPositions: Codable, Sendable, Equatable {
    public var positions: [FriendPosition]
    /// People sharing with the asker whose first position has not arrived; each with its topic.
    public var waiting: [FriendShareStart]

    public init(positions: [FriendPosition], waiting: [FriendShareStart]) {
        self.positions = positions
        self.waiting = waiting
    }
}

/// A share that has no position yet.
public struct FriendShareStart: Codable, Sendable, Equatable {
    public var person: PersonCard
    public var endsAt: Date
    public var topic: String

    public init(person: PersonCard, endsAt: Date, topic: String) {
        self.person = person
        self.endsAt = endsAt
        self.topic = topic
    }

    enum CodingKeys: String, CodingKey {
        case person, topic
        case endsAt = "ends_at"
    }
}
