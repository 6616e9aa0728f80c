import Vapor

/// An RFC 9457 problem details document: every API error leaves the server as one of these, with
/// `Content-Type: application/problem+json`.
public struct Problem: Error, Content, Equatable {
    /// A URI naming the kind of problem; `about:blank` when the status says it all.
    public var type: String
    public var title: String
    public var status: Int
    /// What went wrong, in words a person can act on.
    public var detail: String
    /// For validation failures: each offending field with its message, so a form can show it next to the field.
    public var errors: [FieldError]?
    /// Seconds after which a rate-limited client may retry; sent as `Retry-After` too.
    public var retryAfterSeconds: Int?

    public struct FieldError: Codable, Sendable, Equatable {
        /// The request member at fault, as the client named it (`distance_km`, `email`).
        public var field: String
        public var detail: String

        public init(field: String, detail: String) {
            self.field = field
            self.detail = detail
        }
    }

    public init(
        status: HTTPResponseStatus, detail: String, type: String = "about:blank", errors: [FieldError]? = nil,
        retryAfterSeconds: Int? = nil
    ) {
        self.type = type
        self.title = status.reasonPhrase
        self.status = Int(status.code)
        self.detail = detail
        self.errors = errors
        self.retryAfterSeconds = retryAfterSeconds
    }

    enum CodingKeys: String, CodingKey {
        case type, title, status, detail, errors
        case retryAfterSeconds = "retry_after_seconds"
    }

    /// 422 for one or more invalid fields; `detail` joins their messages.
    public static func invalid(_ errors: [FieldError]) -> Problem {
        Problem(status: .unprocessableEntity, detail: errors.map(\.detail).joined(separator: " "), errors: errors)
    }

    /// 422 for one invalid field.
    public static func invalid(field: String, _ detail: String) -> Problem {
        invalid([FieldError(field: field, detail: detail)])
    }

    public static func notFound(_ detail: String) -> Problem { Problem(status: .notFound, detail: detail) }
}

/// Implemented by each module's error type to say, in one place, how it looks over HTTP.
public protocol ProblemConvertible: Error {
    var problem: Problem { get }
}

extension Problem: ProblemConvertible {
    public var problem: Problem { self }
}
