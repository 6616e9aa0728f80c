import CairnAPI
import Foundation
import Geo
import Vapor

/// "Which of these observations are in this box", the one box query of the field guide, on the points each
/// viewer may see (the true point or the generalised one), with its `bbox` parameter read in one place. When
/// the platform's spatial pattern lands, this type is what changes.
struct ObservationArea {
    let box: BoundingBox?

    /// `bbox=west,south,east,north`, optional.
    init(_ req: Request) throws {
        guard let raw = req.query[String.self, at: "bbox"], !raw.isEmpty else {
            box = nil
            return
        }
        let detail = "bbox must be west,south,east,north in degrees, with west < east and south < north."
        let numbers = raw.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, let west = numbers[0], let south = numbers[1], let east = numbers[2],
            let north = numbers[3], west < east, south < north
        else { throw Problem.invalid(field: "bbox", detail) }
        let box = BoundingBox(south: south, west: west, north: north, east: east)
        guard box.isValid else { throw Problem.invalid(field: "bbox", detail) }
        self.box = box
    }

    func contains(_ coordinate: Coordinate) -> Bool {
        box?.contains(coordinate) ?? true
    }
}
