import CairnAPI
import Foundation
import Geo

/// One trail in the map's compact GeoJSON: its simplified line and what the map colours and labels it by.
struct TrailMapFeature: Encodable, Sendable {
    let type = "Feature"
    let id: String
    let geometry: Geometry
    let properties: Properties

    struct Properties: Encodable, Sendable {
        let name: String
        let difficulty: String
        let lengthMeters: Double
        let trailhead: [Double]
        /// Only when the map asked for points of interest (`pois=`): the trail's of those kinds.
        let pointsOfInterest: [MapPOI]?

        enum CodingKeys: String, CodingKey {
            case name, difficulty, trailhead
            case lengthMeters = "length_meters"
            case pointsOfInterest = "points_of_interest"
        }
    }

    /// A point of interest as the map draws it: its name, kind and `[lon, lat]`.
    struct MapPOI: Encodable, Sendable {
        let name: String
        let kind: String
        let position: [Double]
    }

    /// The feature as JSON, keys sorted: the same bytes every time, so one encoding can be kept and re-sent.
    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Array(try encoder.encode(self))
    }

    /// The FeatureCollection of already encoded features, keys sorted as `encoded()` sorts them; `truncated`
    /// says whether more trails were in view than the answer holds.
    static func collection(_ features: [[UInt8]], truncated: Bool) -> [UInt8] {
        var json = Array(#"{"features":["#.utf8)
        json.reserveCapacity(features.reduce(64) { $0 + $1.count + 1 })
        for (index, feature) in features.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(contentsOf: feature)
        }
        json.append(contentsOf: #"],"truncated":\#(truncated),"type":"FeatureCollection"}"#.utf8)
        return json
    }
}
