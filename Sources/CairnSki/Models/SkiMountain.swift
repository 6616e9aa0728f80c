import CairnAPI
import CairnAccounts
import CairnPlatform
import Fluent
import Foundation
import Geo

/// One ski area: where it is, its altitudes and how its region marks piste difficulty.
final class SkiMountain: Model, SpatialModel, @unchecked Sendable {
    static let schema = "ski_mountains"
    /// A mountain is stored as its base point.
    static let maxPlaceSpanDegrees = 0.01

    @ID(key: .id) var id: UUID?
    /// Where the row came from and what keeps it unique: `demo:willard-mountain`, `osm:way/123`, `admin:…`.
    @Field(key: "source") var source: String
    @Field(key: "name") var name: String
    /// `name` folded for search (`SkiNameSearch.fold`: lower case, no accents, punctuation as spaces, "Mt" as "mount").
    @Field(key: "search_name") var searchName: String
    @Field(key: "address") var address: String
    /// ISO 3166-1 alpha-2.
    @Field(key: "country") var country: String
    @Field(key: "lat") var latitude: Double
    @Field(key: "lon") var longitude: Double
    @Group(key: "place") var place: SpatialBox
    /// Metres; nil when not known (OpenStreetMap often lacks it).
    @OptionalField(key: "base_altitude_m") var baseAltitudeMeters: Int?
    @OptionalField(key: "summit_altitude_m") var summitAltitudeMeters: Int?
    @OptionalField(key: "website") var website: String?
    @Field(key: "piste_convention") var pisteConvention: String
    @Field(key: "demo") var demo: Bool
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    var position: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    var convention: SkiPisteConvention { SkiPisteConvention(rawValue: pisteConvention) ?? .europe }
}

/// A ticket price of a mountain.
final class SkiTicketPriceRecord: Model, @unchecked Sendable {
    static let schema = "ski_ticket_prices"

    @ID(key: .id) var id: UUID?
    @Parent(key: "mountain_id") var mountain: SkiMountain
    @Field(key: "kind") var kind: String
    @Field(key: "amount_minor") var amountMinor: Int
    @Field(key: "currency") var currency: String
    @Field(key: "season") var season: String
    /// `YYYY-MM-DD`.
    @Field(key: "as_of") var asOf: String
    @Field(key: "source") var source: String
    @Field(key: "demo") var demo: Bool

    init() {}

    init(
        mountainID: UUID, kind: String, amountMinor: Int, currency: String, season: String, asOf: String,
        source: String, demo: Bool
    ) {
        id = UUID()
        $mountain.id = mountainID
        self.kind = kind
        self.amountMinor = amountMinor
        self.currency = currency
        self.season = season
        self.asOf = asOf
        self.source = source
        self.demo = demo
    }
}

/// A downhill piste of a mountain.
final class SkiPisteRecord: Model, @unchecked Sendable {
    static let schema = "ski_pistes"

    @ID(key: .id) var id: UUID?
    @Parent(key: "mountain_id") var mountain: SkiMountain
    @Field(key: "name") var name: String
    @Field(key: "difficulty") var difficulty: String
    @Field(key: "length_m") var lengthMeters: Int
    @Field(key: "open") var open: Bool
    @OptionalField(key: "grooming") var grooming: String?
    @Field(key: "demo") var demo: Bool

    init() {}

    init(
        mountainID: UUID, name: String, difficulty: String, lengthMeters: Int, open: Bool, grooming: String?,
        demo: Bool
    ) {
        id = UUID()
        $mountain.id = mountainID
        self.name = name
        self.difficulty = difficulty
        self.lengthMeters = lengthMeters
        self.open = open
        self.grooming = grooming
        self.demo = demo
    }
}

/// A lift of a mountain.
final class SkiLiftRecord: Model, @unchecked Sendable {
    static let schema = "ski_lifts"

    @ID(key: .id) var id: UUID?
    @Parent(key: "mountain_id") var mountain: SkiMountain
    @Field(key: "name") var name: String
    @Field(key: "kind") var kind: String
    @Field(key: "open") var open: Bool
    /// Along its line; nil when not known.
    @OptionalField(key: "length_m") var lengthMeters: Int?
    /// Persons per hour; nil when not known.
    @OptionalField(key: "capacity_per_hour") var capacityPerHour: Int?
    @Field(key: "demo") var demo: Bool

    init() {}

    init(
        mountainID: UUID, name: String, kind: String, open: Bool, lengthMeters: Int?, capacityPerHour: Int?,
        demo: Bool
    ) {
        id = UUID()
        $mountain.id = mountainID
        self.name = name
        self.kind = kind
        self.open = open
        self.lengthMeters = lengthMeters
        self.capacityPerHour = capacityPerHour
        self.demo = demo
    }
}

/// A mountain someone keeps among their favourites.
final class SkiFavourite: Model, @unchecked Sendable {
    static let schema = "ski_favourites"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Parent(key: "mountain_id") var mountain: SkiMountain
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(userID: UUID, mountainID: UUID, at date: Date) {
        id = UUID()
        $user.id = userID
        $mountain.id = mountainID
        createdAt = date
    }
}

/// One skier's report of a piste's condition on one day (the mountain's day, `SkiDay`).
final class SkiConditionReport: Model, @unchecked Sendable {
    static let schema = "ski_condition_reports"

    /// The client's id: sending the same report again changes nothing.
    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Parent(key: "mountain_id") var mountain: SkiMountain
    @Parent(key: "piste_id") var piste: SkiPisteRecord
    @Field(key: "condition") var condition: String
    @OptionalField(key: "note") var note: String?
    /// `YYYY-MM-DD` at the mountain.
    @Field(key: "day") var day: String
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
