import CairnAPI
import CairnAccounts
import Flora
import Foundation
import Geo

/// Observations as each viewer may see them: the observer and researchers get the true point, everyone else
/// the public one (generalised for sensitive species).
struct ObservationPresenter {
    /// Who is looking.
    struct Viewer {
        var userID: UUID?
        var isResearcher: Bool

        static let guest = Viewer(userID: nil, isResearcher: false)

        init(userID: UUID?, isResearcher: Bool) {
            self.userID = userID
            self.isResearcher = isResearcher
        }

        init(_ user: User?) {
            userID = user?.id
            isResearcher = user.map { $0.role == .researcher || $0.role == .admin } ?? false
        }
    }

    let viewer: Viewer

    func seesTruePoint(_ observation: Observation) -> Bool {
        viewer.isResearcher || (viewer.userID != nil && observation.$user.id == viewer.userID)
    }

    func coordinate(_ observation: Observation) -> (Coordinate, accuracy: Double?, generalised: Bool) {
        if seesTruePoint(observation) || !observation.generalised {
            return (
                Coordinate(latitude: observation.latitude, longitude: observation.longitude),
                observation.accuracyMeters, false
            )
        }
        return (
            Coordinate(latitude: observation.publicLatitude, longitude: observation.publicLongitude),
            observation.publicUncertaintyMeters, true
        )
    }

    func present(_ observation: Observation, species: SpeciesRecord) -> FloraObservation {
        let (point, accuracy, generalised) = coordinate(observation)
        let id = observation.id ?? UUID()
        let base = "/api/flora/observations/\(id.uuidString.lowercased())"
        return FloraObservation(
            id: id, speciesId: species.id ?? "", speciesCommonName: species.commonName,
            speciesScientificName: species.scientificName, latitude: point.latitude, longitude: point.longitude,
            accuracyM: accuracy, generalised: generalised, observedAt: observation.observedAt,
            comment: observation.comment, status: observation.status.rawValue,
            rejectionReason: observation.rejectionReason, verifiedBy: observation.verifiedBy,
            verifiedAt: observation.verifiedAt, recordedBy: observation.recordedBy,
            mine: viewer.userID != nil && observation.$user.id == viewer.userID,
            photoUrl: observation.photoFormat == nil ? nil : base + "/photo",
            thumbnailUrl: observation.photoFormat == nil ? nil : base + "/thumbnail", createdAt: observation.createdAt)
    }
}
