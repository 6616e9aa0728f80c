import CairnAPI
import CairnPlatform
import Foundation
import Geo
import Vapor

/// "Which of these observations are in this box", the one box query of the field guide, on the points each
/// viewer may see (the true point or the generalised one), with its `bbox` parameter read in one place. The
/// test runs in Swift on each viewer's point rather than as the platform's spatial query (`within`), because
/// what lies in the box depends on who looks: a generalised point may fall outside the box its true point is in.
struct ObservationArea {
    let box: BoundingBox?

    /// `bbox=west,south,east,north`, optional.
    init(_ req: Request) throws {
        var query = RequestInput(query: req)
        box = query.box("bbox", required: false)
        try query.finish()
    }

    func contains(_ coordinate: Coordinate) -> Bool {
        box?.contains(coordinate) ?? true
    }
}
