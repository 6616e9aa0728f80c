import Geo

/// How a sensitive species' observation is shown to the public, as iNaturalist obscures threatened taxa: the
/// true point's cell of a 0.2° grid is found, and a point drawn at random inside that cell once, when the
/// observation is stored, stands for it. Asking again gives the same point, so repeated requests cannot be
/// averaged back to the truth; the uncertainty covers the whole cell from the shown point.
public enum Generalization {
    /// The grid's step, degrees of latitude and longitude (about 22 × 17 km on Niwot Ridge).
    public static let cellDegrees = 0.2

    /// What `dataGeneralizations` says of a generalised record.
    public static let note =
        "Coordinates generalised to a random point within the 0.2 degree grid cell of the true location (sensitive species)."

    public struct Result: Sendable, Equatable {
        public var coordinate: Coordinate
        /// From the shown point to the farthest corner of the cell, metres.
        public var uncertaintyMeters: Double
    }

    /// The shown point for `coordinate`; `unit` gives two numbers in 0..<1 (the generator of the caller).
    public static func generalize(_ coordinate: Coordinate, unit: (Double, Double)) -> Result {
        let south = (coordinate.latitude / cellDegrees).rounded(.down) * cellDegrees
        let west = (coordinate.longitude / cellDegrees).rounded(.down) * cellDegrees
        let shown = Coordinate(
            latitude: min(90, south + unit.0 * cellDegrees), longitude: min(180, west + unit.1 * cellDegrees))
        let corners = [
            Coordinate(latitude: south, longitude: west),
            Coordinate(latitude: min(90, south + cellDegrees), longitude: west),
            Coordinate(latitude: south, longitude: min(180, west + cellDegrees)),
            Coordinate(latitude: min(90, south + cellDegrees), longitude: min(180, west + cellDegrees)),
        ]
        let far = corners.map { shown.haversineDistance(to: $0) }.max() ?? 0
        return Result(coordinate: shown, uncertaintyMeters: far.rounded(.up))
    }
}
