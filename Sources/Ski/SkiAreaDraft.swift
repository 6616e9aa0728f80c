import Foundation
import Geo
import Routing

/// A ski area read from OpenStreetMap (a `landuse=winter_sports` way or multipolygon), with the pistes and
/// lifts assigned to it; what the server upserts as a mountain.
public struct SkiAreaDraft: Sendable, Hashable {
    /// The OSM element it comes from: `w123` or `r45`.
    public var osmID: OSMElementID
    public var name: String
    /// The centre of its outline (the area-weighted centroid of its largest outer ring).
    public var centre: Coordinate
    /// The box around its outline.
    public var bounds: BoundingBox
    public var website: String?
    public var address: SkiAddress
    /// The lowest lift station's `ele` inside the area, in metres; nil when no station has one.
    public var baseAltitudeMeters: Double?
    /// The highest `ele` of a peak or lift station inside the area, in metres; nil when none has one.
    public var summitAltitudeMeters: Double?
    public var pistes: [PisteDraft] = []
    public var lifts: [LiftDraft] = []

    /// The summed length of its pistes (those mapped as lines).
    public var pisteLengthMeters: Double { pistes.compactMap(\.lengthMeters).reduce(0, +) }
}

/// An address from `addr:*` tags; every part optional.
public struct SkiAddress: Sendable, Hashable, Codable {
    public var street: String?
    public var houseNumber: String?
    public var city: String?
    public var postcode: String?
    public var state: String?
    public var country: String?

    public init(
        street: String? = nil, houseNumber: String? = nil, city: String? = nil, postcode: String? = nil,
        state: String? = nil, country: String? = nil
    ) {
        self.street = street
        self.houseNumber = houseNumber
        self.city = city
        self.postcode = postcode
        self.state = state
        self.country = country
    }

    /// Reads `addr:street`, `addr:housenumber`, `addr:city`, `addr:postcode`, `addr:state`, `addr:country`.
    init(tags: [String: String]) {
        func tag(_ key: String) -> String? {
            guard let value = tags["addr:\(key)"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
                return nil
            }
            return value
        }
        self.init(
            street: tag("street"), houseNumber: tag("housenumber"), city: tag("city"), postcode: tag("postcode"),
            state: tag("state"), country: tag("country"))
    }

    public var isEmpty: Bool { oneLine.isEmpty }

    /// "1 Willard Mountain Rd, Greenwich, NY 12834, US": the parts there are, in the North American order
    /// OSM's `addr:*` tags are usually written for.
    public var oneLine: String {
        let streetLine = [houseNumber, street].compactMap { $0 }.joined(separator: " ")
        let region = [state, postcode].compactMap { $0 }.joined(separator: " ")
        return [streetLine, city ?? "", region, country ?? ""].filter { !$0.isEmpty }.joined(separator: ", ")
    }
}

/// A downhill piste: one OSM way, or several ways of one named piste of one difficulty in one area joined.
public struct PisteDraft: Sendable, Hashable {
    /// The ways it is made of, smallest id first.
    public var osmIDs: [OSMElementID]
    /// `piste:name`, else `name`; nil when neither is tagged.
    public var name: String?
    /// `piste:ref`, else `ref`.
    public var ref: String?
    public var difficulty: PisteDifficulty
    public var grooming: PisteGrooming?
    /// Length along its ways; nil for a piste mapped as an area (a closed way with `area=yes`), whose length
    /// the outline does not give.
    public var lengthMeters: Double?
    /// Its ways' lines (an area's outline).
    public var lines: [[Coordinate]]

    /// The name to show: the name, else "Piste <ref>", else "Unnamed piste".
    public var displayName: String { name ?? ref.map { "Piste \($0)" } ?? "Unnamed piste" }
}

/// How a downhill piste is prepared, from `piste:grooming`.
public enum PisteGrooming: String, CaseIterable, Sendable, Codable, Hashable {
    /// Groomed by snowcat.
    case classic
    /// Left with moguls.
    case mogul
    /// Not groomed.
    case backcountry

    /// nil for absent or other values (`skating` and `scooter` belong to nordic pistes).
    public init?(osmValue: String?) {
        guard let value = osmValue?.trimmingCharacters(in: .whitespaces).lowercased() else { return nil }
        self.init(rawValue: value == "classic+skating" ? "classic" : value)
    }
}

/// A lift: one `aerialway=*` way.
public struct LiftDraft: Sendable, Hashable {
    public var osmID: OSMElementID
    public var name: String?
    public var kind: LiftKind
    public var lengthMeters: Double
    /// Seats per chair or cabin (`aerialway:occupancy`).
    public var occupancy: Int?
    /// People per hour (`aerialway:capacity`).
    public var capacityPerHour: Int?
    public var line: [Coordinate]

    /// The name to show: the name, else the kind ("Chair lift").
    public var displayName: String { name ?? kind.label }
}

/// The kinds of `aerialway` that carry skiers (https://wiki.openstreetmap.org/wiki/Key:aerialway); zip lines,
/// goods lifts, pylons and stations are not lifts.
public enum LiftKind: String, CaseIterable, Sendable, Codable, Hashable {
    case cableCar = "cable_car"
    case gondola
    case mixedLift = "mixed_lift"
    case chairLift = "chair_lift"
    case dragLift = "drag_lift"
    case tBar = "t-bar"
    case jBar = "j-bar"
    case platter
    case ropeTow = "rope_tow"
    case magicCarpet = "magic_carpet"

    public var label: String {
        switch self {
        case .cableCar: "Cable car"
        case .gondola: "Gondola"
        case .mixedLift: "Chair and gondola"
        case .chairLift: "Chair lift"
        case .dragLift: "Drag lift"
        case .tBar: "T-bar"
        case .jBar: "J-bar"
        case .platter: "Platter lift"
        case .ropeTow: "Rope tow"
        case .magicCarpet: "Magic carpet"
        }
    }
}

/// What one import found: the ski areas, and the pistes and lifts farther than `maxAssignMeters` from every
/// area (reported, not lost).
public struct SkiImport: Sendable, Hashable {
    public var areas: [SkiAreaDraft]
    public var unassignedPistes: [PisteDraft]
    public var unassignedLifts: [LiftDraft]
}
