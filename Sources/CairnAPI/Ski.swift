import Foundation

/// The ski mountains (`/api/ski/…`, GoSki, issue 21): ski areas with their address, position, altitudes, ticket
/// prices, pistes and lifts; nearby and name search; favourites per person. Members are snake_case; lengths and
/// altitudes in metres, prices in the currency's minor units.

/// A piste's difficulty as OpenStreetMap's `piste:difficulty` names it; the web app shows it in the mountain's
/// local convention (`SkiPisteConvention`).
public enum SkiPisteDifficulty: String, Codable, Sendable, CaseIterable {
    case novice, easy, intermediate, advanced, expert, extreme, freeride
    /// Not tagged in OpenStreetMap (or with a value outside its scale): shown as not known, never guessed.
    case unknown
}

/// How a region marks piste difficulty: North America's green circle, blue square, black diamond and double
/// black diamond, or Europe's green, blue, red and black.
public enum SkiPisteConvention: String, Codable, Sendable, CaseIterable {
    case northAmerica = "north_america"
    case europe
}

/// What a ticket is for: the one list of kinds the API, the price sheet (`SkiPriceSheet`), the admin editor and
/// the database share, in the order a price list shows them.
public enum SkiTicketKind: String, Codable, Sendable, CaseIterable, Hashable {
    case adultDay = "adult_day"
    case youthDay = "youth_day"
    case childDay = "child_day"
    case seniorDay = "senior_day"
    case studentDay = "student_day"
    case halfDay = "half_day"
    case night
    case multiDay = "multi_day"
    case season

    /// The kind in words: "Adult day", "Season pass".
    public var label: String {
        if self == .season { return "Season pass" }
        let words = rawValue.replacingOccurrences(of: "_", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}

/// One ticket price: `amount_minor` in the currency's minor units (cents), `amount` the same in major units.
public struct SkiTicketPrice: Codable, Sendable, Equatable {
    /// What an admin edits and deletes it by (`PUT`/`DELETE /api/ski/mountains/{id}/prices/{price}`).
    public var id: UUID
    public var kind: SkiTicketKind
    public var amountMinor: Int
    public var amount: Double
    /// ISO 4217: "USD", "EUR", "CHF", "JPY".
    public var currency: String
    /// "2025/26".
    public var season: String
    /// The day the price was known to be right, `YYYY-MM-DD`.
    public var asOf: String
    public var source: String
    /// True for the demo's plausible prices, which are not the resort's.
    public var demo: Bool

    public init(
        id: UUID, kind: SkiTicketKind, amountMinor: Int, amount: Double, currency: String, season: String,
        asOf: String, source: String, demo: Bool
    ) {
        self.id = id
        self.kind = kind
        self.amountMinor = amountMinor
        self.amount = amount
        self.currency = currency
        self.season = season
        self.asOf = asOf
        self.source = source
        self.demo = demo
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, amount, currency, season, source, demo
        case amountMinor = "amount_minor"
        case asOf = "as_of"
    }
}

/// One row of a mountain list: where it is, how far (with `near`), and its adult day ticket (null when no price
/// is known).
public struct SkiMountainSummary: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var address: String
    public var country: String
    public var lat: Double
    public var lon: Double
    /// Metres above sea level; null when not known (OpenStreetMap often lacks it).
    public var baseAltitudeM: Int?
    /// Metres above sea level; null when not known.
    public var summitAltitudeM: Int?
    public var pisteConvention: SkiPisteConvention
    public var demo: Bool
    /// Metres from `near`; null without it.
    public var distanceM: Double?
    /// The adult day ticket, the price the list sorts by; null when none is known.
    public var price: SkiTicketPrice?
    public var favourite: Bool

    public init(
        id: UUID, name: String, address: String, country: String, lat: Double, lon: Double, baseAltitudeM: Int?,
        summitAltitudeM: Int?, pisteConvention: SkiPisteConvention, demo: Bool, distanceM: Double?,
        price: SkiTicketPrice?, favourite: Bool
    ) {
        self.id = id
        self.name = name
        self.address = address
        self.country = country
        self.lat = lat
        self.lon = lon
        self.baseAltitudeM = baseAltitudeM
        self.summitAltitudeM = summitAltitudeM
        self.pisteConvention = pisteConvention
        self.demo = demo
        self.distanceM = distanceM
        self.price = price
        self.favourite = favourite
    }

    enum CodingKeys: String, CodingKey {
        case id, name, address, country, lat, lon, demo, price, favourite
        case baseAltitudeM = "base_altitude_m"
        case summitAltitudeM = "summit_altitude_m"
        case pisteConvention = "piste_convention"
        case distanceM = "distance_m"
    }
}

/// `GET /api/ski/mountains` and `GET /api/ski/favourites`.
public struct SkiMountainList: Codable, Sendable, Equatable {
    public var mountains: [SkiMountainSummary]
    /// How many matched before `limit`.
    public var total: Int

    public init(mountains: [SkiMountainSummary], total: Int) {
        self.mountains = mountains
        self.total = total
    }
}

/// A piste (a run): OSM `piste:type=downhill`.
public struct SkiPiste: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var difficulty: SkiPisteDifficulty
    public var lengthM: Int
    public var open: Bool
    /// OSM `piste:grooming`: classic, mogul, backcountry…; null when unknown.
    public var grooming: String?
    public var demo: Bool
    /// What skiers reported today.
    public var today: SkiPisteToday

    public init(
        id: UUID, name: String, difficulty: SkiPisteDifficulty, lengthM: Int, open: Bool, grooming: String?,
        demo: Bool, today: SkiPisteToday
    ) {
        self.id = id
        self.name = name
        self.difficulty = difficulty
        self.lengthM = lengthM
        self.open = open
        self.grooming = grooming
        self.demo = demo
        self.today = today
    }

    enum CodingKeys: String, CodingKey {
        case id, name, difficulty, open, grooming, demo, today
        case lengthM = "length_m"
    }
}

/// A lift: OSM `aerialway=*` (chair_lift, gondola, drag_lift, t-bar, magic_carpet…).
public struct SkiLift: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var kind: String
    public var open: Bool
    /// Along the lift's line, in metres; null when not known.
    public var lengthM: Int?
    /// Persons per hour (OSM `aerialway:capacity`); null when not known.
    public var capacityPerHour: Int?
    public var demo: Bool

    public init(id: UUID, name: String, kind: String, open: Bool, lengthM: Int?, capacityPerHour: Int?, demo: Bool) {
        self.id = id
        self.name = name
        self.kind = kind
        self.open = open
        self.lengthM = lengthM
        self.capacityPerHour = capacityPerHour
        self.demo = demo
    }

    enum CodingKeys: String, CodingKey {
        case id, name, kind, open, demo
        case lengthM = "length_m"
        case capacityPerHour = "capacity_per_hour"
    }
}

/// `GET /api/ski/mountains/{id}`: everything the mountain page shows, with the weather now at the mountain.
public struct SkiMountainDetail: Codable, Sendable, Equatable {
    public var mountain: SkiMountainSummary
    public var website: String?
    public var prices: [SkiTicketPrice]
    public var pistes: [SkiPiste]
    public var lifts: [SkiLift]
    /// The platform's current weather at the mountain's position (temperature and humidity), as
    /// `GET /api/weather/current` answers it.
    public var weather: WeatherResponse<CurrentWeatherReport>

    public init(
        mountain: SkiMountainSummary, website: String?, prices: [SkiTicketPrice], pistes: [SkiPiste],
        lifts: [SkiLift], weather: WeatherResponse<CurrentWeatherReport>
    ) {
        self.mountain = mountain
        self.website = website
        self.prices = prices
        self.pistes = pistes
        self.lifts = lifts
        self.weather = weather
    }
}

/// A piste's condition as skiers report it.
public enum SkiPisteCondition: String, Codable, Sendable, CaseIterable {
    case groomed, powder, icy, moguls, closed
}

/// How many skiers reported one condition today.
public struct SkiConditionCount: Codable, Sendable, Equatable {
    public var condition: SkiPisteCondition
    public var count: Int

    public init(condition: SkiPisteCondition, count: Int) {
        self.condition = condition
        self.count = count
    }
}

/// What skiers reported about a piste today (the mountain's day): each condition with how many reported it,
/// most reported first, and the latest notes.
public struct SkiPisteToday: Codable, Sendable, Equatable {
    public var reports: Int
    public var conditions: [SkiConditionCount]
    public var notes: [String]

    public init(reports: Int, conditions: [SkiConditionCount], notes: [String]) {
        self.reports = reports
        self.conditions = conditions
        self.notes = notes
    }
}

/// The answer to `POST /api/ski/mountains/{id}/conditions`: the report as kept and the piste's day now.
public struct SkiConditionReportResult: Codable, Sendable, Equatable {
    public var id: UUID
    public var pisteID: UUID
    public var condition: SkiPisteCondition
    public var note: String?
    public var day: String
    public var today: SkiPisteToday

    public init(id: UUID, pisteID: UUID, condition: SkiPisteCondition, note: String?, day: String, today: SkiPisteToday)
    {
        self.id = id
        self.pisteID = pisteID
        self.condition = condition
        self.note = note
        self.day = day
        self.today = today
    }

    enum CodingKeys: String, CodingKey {
        case id, condition, note, day, today
        case pisteID = "piste_id"
    }
}
