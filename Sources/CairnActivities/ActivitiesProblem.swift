import CairnAPI
import CairnPlatform
import Foundation
import Geo
import Vapor

/// Everything the activities API refuses, mapped to HTTP in one place.
enum ActivitiesProblem: ProblemConvertible {
    /// No activity of the user's with this id (someone else's answers the same: it is not theirs to know).
    case notFound
    /// The client's id is already another user's activity's.
    case idTaken
    /// The user keeps as many activities as allowed.
    case tooManyActivities(limit: Int)
    /// A GPX upload that cannot be imported, with the reader's sentence.
    case gpx(GPXError)
    /// A GPX upload over the size limit.
    case gpxTooLarge(maxBytes: Int)
    /// A GPX upload that is not in the body at all.
    case emptyUpload

    var problem: Problem {
        switch self {
        case .notFound:
            return .notFound("There is no such activity among yours.")
        case .idTaken:
            return Problem(
                status: .conflict,
                detail: "This activity id is already in use. Record the activity again to give it a new one.")
        case .tooManyActivities(let limit):
            return Problem(
                status: .conflict,
                detail: "You keep \(limit) activities, the most there can be. Delete some before saving another.")
        case .gpx(.tooLarge(_, let maxBytes)):
            return Self.gpxTooLarge(maxBytes: maxBytes).problem
        case .gpx(let error):
            return Problem(
                status: .unprocessableEntity, detail: error.description, type: "/problems/gpx-not-imported",
                errors: [.init(field: "file", detail: error.description)])
        case .gpxTooLarge(let maxBytes):
            let detail =
                "The file is too large: GPX files of up to \(Self.size(maxBytes)) can be imported. "
                + "Split the track, or export it with fewer points."
            return Problem(status: .payloadTooLarge, detail: detail, errors: [.init(field: "file", detail: detail)])
        case .emptyUpload:
            let detail = "Choose a GPX file to import: the upload was empty."
            return Problem(status: .unprocessableEntity, detail: detail, errors: [.init(field: "file", detail: detail)])
        }
    }

    /// "16 MiB", "512 KiB".
    static func size(_ bytes: Int) -> String {
        bytes >= 1_048_576 && bytes % 1_048_576 == 0
            ? "\(bytes / 1_048_576) MiB"
            : bytes >= 1_048_576
                ? String(format: "%.1f MiB", Double(bytes) / 1_048_576) : "\((bytes + 1023) / 1024) KiB"
    }
}
