import CairnAPI
import Foundation
import Geo

extension PlannedRun {
    /// Stores the lines of a validated form.
    convenience init(_ form: PlannedRunForm, userID: UUID, landmarkName: String?, now: Date) throws {
        let segments = form.shelteredSegments.map { Polyline.encode($0, precision: Self.polylinePrecision) }
        self.init(
            userID: userID, createdAt: now, distanceKm: form.distanceKm, mode: form.mode, landmarkID: form.landmarkID,
            landmarkName: landmarkName, lengthMeters: form.lengthMeters, shelteredMeters: form.shelteredMeters,
            startLatitude: form.geometry[0].latitude, startLongitude: form.geometry[0].longitude,
            geometry: Polyline.encode(form.geometry, precision: Self.polylinePrecision),
            shelteredSegments: String(decoding: try JSONEncoder().encode(segments), as: UTF8.self))
    }

    static let polylinePrecision = 6

    var summary: PlannedRunSummary {
        get throws {
            PlannedRunSummary(
                id: try requireID(), createdAt: createdAt, distanceKm: distanceKm, sheltered: mode == .sheltered,
                landmark: landmarkID.map { PlannedRunLandmark(id: $0, name: landmarkName) },
                lengthM: lengthMeters, shelteredM: shelteredMeters,
                shelteredShare: RunPlanPresenter.share(lengthMeters > 0 ? shelteredMeters / lengthMeters : 0),
                start: LatLon(lat: startLatitude, lon: startLongitude))
        }
    }

    /// The kept route with its lines, as GeoJSON.
    var detail: PlannedRunDetail {
        get throws {
            let line = try Polyline.decode(geometry, precision: Self.polylinePrecision)
            let encodedSegments = try JSONDecoder().decode([String].self, from: Data(shelteredSegments.utf8))
            let segments = try encodedSegments.map { try Polyline.decode($0, precision: Self.polylinePrecision) }
            return PlannedRunDetail(
                summary: try summary, geometry: RunPlanPresenter.lineString(line),
                shelteredSegments: RunPlanPresenter.multiLineString(segments))
        }
    }
}
