import Foundation
import Geo
import Navigation
import Routing

/// What Cairn works out about an activity beyond the device's figures: how hard it was, where it was, and
/// the keys its history is sorted by.
enum ActivityFigures {
    /// How hard an activity without a trail was, by its effort in "performance kilometres" (the Swiss hiking
    /// federation's Leistungskilometer, also DIN 33466's basis): kilometres plus one per 100 m climbed.
    /// Below 8 easy, below 16 moderate, else hard — about 2 and 4 hours of walking.
    static func difficulty(distanceMeters: Double, elevationGainMeters: Double?) -> Difficulty {
        let effort = distanceMeters / 1000 + (elevationGainMeters ?? 0) / 100
        return effort < 8 ? .easy : effort < 16 ? .moderate : .hard
    }

    /// A sort key that orders the same on SQLite (bytes) and PostgreSQL (any collation): the folded text
    /// (`TextFolding`: no case, no accents) written as hexadecimal digits, which every collation orders as
    /// their bytes.
    static func sortKey(_ text: String) -> String {
        TextFolding.folded(text).utf8.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined()
    }

    /// The region sort key: known regions first, alphabetically, then unknown ones.
    static func regionSortKey(_ region: String?) -> String {
        region.map { "0" + sortKey($0) } ?? "1"
    }

    /// `[west, south, east, north]` of `points`.
    static func boundingBox(of points: [Coordinate]) -> (west: Double, south: Double, east: Double, north: Double) {
        var west = 180.0, south = 90.0, east = -180.0, north = -90.0
        for point in points {
            west = min(west, point.longitude)
            east = max(east, point.longitude)
            south = min(south, point.latitude)
            north = max(north, point.latitude)
        }
        return (west, south, east, north)
    }
}

/// Where an activity was, by the street network's addresses: the city (`addr:city`) of the address nearest
/// the start, within `maxMeters`. Built once per network.
struct RegionFinder: Sendable {
    static let maxMeters = 3_000.0

    private let latitudes: [Double]
    private let longitudes: [Double]
    private let cities: [String]

    init(map: StreetMap?) {
        var latitudes: [Double] = [], longitudes: [Double] = [], cities: [String] = []
        for place in map?.network.places ?? [] {
            guard let city = place.city?.trimmingCharacters(in: .whitespaces), !city.isEmpty else { continue }
            latitudes.append(place.coordinate.latitude)
            longitudes.append(place.coordinate.longitude)
            cities.append(city)
        }
        self.latitudes = latitudes
        self.longitudes = longitudes
        self.cities = cities
    }

    /// The city of the nearest address within `maxMeters` of `point`, or nil.
    func region(near point: Coordinate) -> String? {
        let latitudeSpan = Self.maxMeters / 111_000
        let longitudeSpan = latitudeSpan / max(0.01, cos(point.latitude * .pi / 180))
        var best: (distance: Double, index: Int)?
        for index in latitudes.indices {
            guard abs(latitudes[index] - point.latitude) <= latitudeSpan,
                abs(longitudes[index] - point.longitude) <= longitudeSpan
            else { continue }
            let distance = point.haversineDistance(
                to: Coordinate(latitude: latitudes[index], longitude: longitudes[index]))
            if distance <= Self.maxMeters, distance < (best?.distance ?? .infinity) { best = (distance, index) }
        }
        return best.map { cities[$0.index] }
    }
}
