import CairnAPI
import CairnPlatform
import Crypto
import Flora
import Fluent
import Foundation
import Geo

/// How observations are stored: the public point (generalised once for a sensitive species), the status a
/// new observation starts with, and the upload hash that recognises a retried upload.
enum ObservationWriter {
    /// Sets where the observation is (true and public point).
    static func place(_ observation: Observation, at coordinate: Coordinate, accuracy: Double?, sensitive: Bool) {
        observation.latitude = coordinate.latitude
        observation.longitude = coordinate.longitude
        observation.accuracyMeters = accuracy
        if sensitive {
            var random = SystemRandomNumberGenerator()
            let shown = Generalization.generalize(
                coordinate, unit: (Double.random(in: 0..<1, using: &random), Double.random(in: 0..<1, using: &random)))
            observation.publicLatitude = shown.coordinate.latitude
            observation.publicLongitude = shown.coordinate.longitude
            observation.publicUncertaintyMeters = shown.uncertaintyMeters
            observation.generalised = true
        } else {
            observation.publicLatitude = coordinate.latitude
            observation.publicLongitude = coordinate.longitude
            observation.publicUncertaintyMeters = accuracy
            observation.generalised = false
        }
    }

    /// Copies an imported row onto `observation`.
    static func apply(_ row: ImportedObservation, to observation: Observation, sensitive: Bool) {
        observation.$species.id = row.speciesID
        observation.$user.id = nil
        observation.recordedBy = row.recordedBy
        place(observation, at: row.coordinate, accuracy: row.accuracyMeters, sensitive: sensitive)
        observation.observedAt = row.observedAt
        observation.comment = row.comment
        observation.status = row.status
        observation.rejectionReason = nil
        observation.verifiedBy = row.status == .verified ? row.recordedBy : nil
        observation.verifiedAt = row.status == .verified ? row.observedAt : nil
        observation.photoFormat = nil
    }

    /// SHA-256 of an imported row, so importing it again is recognised as unchanged.
    static func hash(of row: ImportedObservation) -> String {
        let canonical = [
            "import", row.speciesID, String(row.coordinate.latitude), String(row.coordinate.longitude),
            row.accuracyMeters.map { String($0) } ?? "", String(row.observedAt.timeIntervalSince1970), row.recordedBy,
            row.status.rawValue, row.comment,
        ].joined(separator: "\u{1F}")
        return SHA256.hash(data: Data(canonical.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
