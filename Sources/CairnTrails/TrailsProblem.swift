import CairnAPI
import CairnPlatform
import Trails
import Vapor

/// The trail catalogue's errors and how they look over HTTP.
enum TrailsProblem: ProblemConvertible {
    case trailNotFound
    case focalPointNotFound
    case file(TrailFileError)
    case geometry(name: String, reason: String)
    case photoPlaceNotFound(TrailPhotoPlace)
    case photoNotFound
    /// A photo address of this server in an edit that the trail does not already have.
    case photoNotUploaded(field: String)

    var problem: Problem {
        switch self {
        case .trailNotFound: Problem.notFound("There is no such trail.")
        case .focalPointNotFound: Problem.notFound("This trail has no such scavenger-hunt focal point.")
        case .photoPlaceNotFound(let place):
            Problem.notFound(
                "This trail has no \(place): a photo goes at trailhead, safety.N, points_of_interest.N (N from 0) or focal_points.ID."
            )
        case .photoNotFound: Problem.notFound("There is no such trail photo.")
        case .photoNotUploaded(let field):
            Problem.invalid(
                field: field,
                "A photo on this server is added with PUT /api/trails/{id}/photos/{place}; an edit may only keep the photos the trail has."
            )
        case .file(.tooLarge(let bytes, let maxBytes)):
            Problem(
                status: .payloadTooLarge, detail: TrailFileError.tooLarge(bytes: bytes, maxBytes: maxBytes).description,
                errors: [
                    .init(field: "file", detail: TrailFileError.tooLarge(bytes: bytes, maxBytes: maxBytes).description)
                ])
        case .file(let error):
            Problem(
                status: .unprocessableEntity, detail: error.description, type: "/problems/trail-file-refused",
                errors: [.init(field: "file", detail: error.description)])
        case .geometry(let name, let reason):
            Problem(
                status: .unprocessableEntity, detail: "The trail “\(name)” cannot be kept: \(reason).",
                type: "/problems/trail-file-refused",
                errors: [.init(field: "file", detail: "The trail “\(name)” cannot be kept: \(reason).")])
        }
    }
}
