import Geo

/// Something a person may type to say where to go: a street, an address, a named place. The import keeps
/// every one of them in `StreetNetwork.places` for the suggestions index; see docs/streets.md, "Places".
public struct Place: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A named street: one place per stretch of connected edges sharing the name.
        case street
        /// A house number on a street (`addr:housenumber` + `addr:street` or `addr:place`).
        case address
        /// A named shop, amenity, station, office… that is not a landmark.
        case poi
        /// A named landmark, also listed in `StreetNetwork.landmarks`.
        case landmark
    }

    /// What to show: the street name, "Street 12", or the place's name.
    public var name: String
    public var kind: Kind
    /// For a POI the OSM tag it was found by (`amenity=cafe`, `shop=bakery`); for a landmark its
    /// `LandmarkCategory` raw value; for a street its highway class; nil for an address.
    public var category: String?
    public var coordinate: Coordinate
    /// The OSM element; nil for streets, which are made from many ways.
    public var source: OSMElementID?
    /// Address parts from `addr:*`, when the element has them.
    public var street: String?
    public var houseNumber: String?
    public var postcode: String?
    public var city: String?

    public init(
        name: String, kind: Kind, category: String? = nil, coordinate: Coordinate, source: OSMElementID? = nil,
        street: String? = nil, houseNumber: String? = nil, postcode: String? = nil, city: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.category = category
        self.coordinate = coordinate
        self.source = source
        self.street = street
        self.houseNumber = houseNumber
        self.postcode = postcode
        self.city = city
    }
}
