import Geo

/// A location rounded to 0.01° (about 1 km): the unit weather is cached by, and the only precision of a
/// user's position that Cairn passes on to a weather service.
struct WeatherCell: Hashable, Sendable {
    static let stepsPerDegree = 100.0

    let row: Int
    let column: Int

    init(_ location: Coordinate) {
        row = Int((location.latitude * Self.stepsPerDegree).rounded())
        column = Int((location.longitude * Self.stepsPerDegree).rounded())
    }

    /// The rounded location the cell stands for.
    var center: Coordinate {
        Coordinate(latitude: Double(row) / Self.stepsPerDegree, longitude: Double(column) / Self.stepsPerDegree)
    }
}
