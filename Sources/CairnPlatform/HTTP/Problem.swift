import CairnAPI
import Vapor

extension Problem: Error, Content {}

extension Problem {
    /// A problem for `status`, titled with its reason phrase.
    package init(
        status: HTTPResponseStatus, detail: String, type: String = "about:blank", errors: [FieldError]? = nil,
        retryAfterSeconds: Int? = nil
    ) {
        self.init(
            type: type, title: status.reasonPhrase, status: Int(status.code), detail: detail, errors: errors,
            retryAfterSeconds: retryAfterSeconds)
    }

    /// 422 for one or more invalid fields; `detail` joins their messages.
    package static func invalid(_ errors: [FieldError]) -> Problem {
        Problem(status: .unprocessableEntity, detail: errors.map(\.detail).joined(separator: " "), errors: errors)
    }

    /// 422 for one invalid field.
    package static func invalid(field: String, _ detail: String) -> Problem {
        invalid([FieldError(field: field, detail: detail)])
    }

    package static func notFound(_ detail: String) -> Problem { Problem(status: .notFound, detail: detail) }
}

/// Implemented by each module's error type to say, in one place, how it looks over HTTP.
package protocol ProblemConvertible: Error {
    var problem: Problem { get }
}

extension Problem: ProblemConvertible {
    package var problem: Problem { self }
}
