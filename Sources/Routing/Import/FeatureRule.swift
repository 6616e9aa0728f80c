import Geo

/// Turns a tagged node or closed way into landmarks and places; see docs/streets.md.
enum FeatureRule {
    /// Keys whose named elements are POIs, in order of preference for the category.
    static let poiKeys = [
        "amenity", "shop", "tourism", "leisure", "railway", "public_transport", "aerialway", "office", "craft",
        "healthcare", "sport", "place", "building",
    ]
    /// `railway=*` values that are places a person goes to (not track).
    static let railwayStops: Set<String> = ["station", "halt", "tram_stop", "subway_entrance"]

    /// Whether the tags describe anything kept, so a way's nodes are worth collecting for a centroid.
    static func isFeature(_ tags: OSMTags) -> Bool {
        hasAddress(tags) || (tags["name"] != nil && (LandmarkCategory(tags: tags) != nil || poiCategory(tags) != nil))
    }

    static func hasAddress(_ tags: OSMTags) -> Bool {
        tags["addr:housenumber"] != nil && (tags["addr:street"] != nil || tags["addr:place"] != nil)
    }

    static func poiCategory(_ tags: OSMTags) -> String? {
        for key in poiKeys {
            guard let value = tags[key], value != "no" else { continue }
            if key == "railway", !railwayStops.contains(value) { continue }
            if key == "public_transport", value != "station" { continue }
            return "\(key)=\(value)"
        }
        return nil
    }

    /// The landmark and places an element stands for.
    static func features(
        of element: OSMElementID, tags: OSMTags, at coordinate: Coordinate
    ) -> (landmark: Landmark?, places: [Place]) {
        var landmark: Landmark?
        var places: [Place] = []
        let street = tags["addr:street"] ?? tags["addr:place"]
        let houseNumber = tags["addr:housenumber"]
        let postcode = tags["addr:postcode"], city = tags["addr:city"]
        if let name = tags["name"]?.trimmed, !name.isEmpty {
            if let category = LandmarkCategory(tags: tags) {
                landmark = Landmark(id: element, name: name, category: category, coordinate: coordinate)
                places.append(
                    Place(
                        name: name, kind: .landmark, category: category.rawValue, coordinate: coordinate,
                        source: element, street: street, houseNumber: houseNumber, postcode: postcode, city: city))
            } else if let category = poiCategory(tags) {
                places.append(
                    Place(
                        name: name, kind: .poi, category: category, coordinate: coordinate, source: element,
                        street: street, houseNumber: houseNumber, postcode: postcode, city: city))
            }
        }
        if let street = street?.trimmed, let houseNumber = houseNumber?.trimmed, !street.isEmpty, !houseNumber.isEmpty {
            places.append(
                Place(
                    name: "\(street) \(houseNumber)", kind: .address, coordinate: coordinate, source: element,
                    street: street, houseNumber: houseNumber, postcode: postcode, city: city))
        }
        return (landmark, places)
    }
}

extension String {
    /// Without leading and trailing whitespace; cheap for the usual string that has none.
    fileprivate var trimmed: String {
        guard first?.isWhitespace == true || last?.isWhitespace == true else { return self }
        return String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
