/// The kind of way an edge belongs to, from OSM's `highway=*` (plus a few walkable non-highway ways).
/// Stored as one byte per edge.
public enum HighwayClass: UInt8, Sendable, CaseIterable, Codable {
    case footway, path, pedestrian, steps, cycleway, track, bridleway, corridor, platform
    case livingStreet, residential, service, unclassified, road
    case tertiary, secondary, primary, trunk
    case other

    /// The class for an OSM `highway=*` value (`*_link` roads count as their road); nil for values that
    /// are not ways at all (`bus_stop`, `street_lamp`…) or not built (`proposed`, `construction`).
    public init?(osmValue: String) {
        let value = osmValue.hasSuffix("_link") ? String(osmValue.dropLast(5)) : osmValue
        switch value {
        case "footway": self = .footway
        case "path": self = .path
        case "pedestrian": self = .pedestrian
        case "steps": self = .steps
        case "cycleway": self = .cycleway
        case "track": self = .track
        case "bridleway": self = .bridleway
        case "corridor": self = .corridor
        case "platform": self = .platform
        case "living_street": self = .livingStreet
        case "residential": self = .residential
        case "service": self = .service
        case "unclassified": self = .unclassified
        case "road": self = .road
        case "tertiary": self = .tertiary
        case "secondary": self = .secondary
        case "primary": self = .primary
        case "trunk": self = .trunk
        default: return nil
        }
    }

    /// The OSM tag value, for display and GeoJSON properties.
    public var osmValue: String {
        switch self {
        case .livingStreet: "living_street"
        default: String(describing: self)
        }
    }
}
