/// An RFC 9457 problem details document: the body of every error response from the Cairn API
/// (`Content-Type: application/problem+json`).
public struct Problem: Codable, Sendable, Equatable {
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
        type: String = "about:blank", title: String, status: Int, detail: String, errors: [FieldError]? = nil,
        retryAfterSeconds: Int? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.errors = errors
        self.retryAfterSeconds = retryAfterSeconds
    }

    enum CodingKeys: String, CodingKey {
        case type, title, status, detail, errors
        case retryAfterSeconds = "retry_after_seconds"
    }
}
