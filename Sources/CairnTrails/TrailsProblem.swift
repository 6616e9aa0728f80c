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

    var problem: Problem {
        switch self {
        case .trailNotFound: Problem.notFound("There is no such trail.")
        case .focalPointNotFound: Problem.notFound("This trail has no such scavenger-hunt focal point.")
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
