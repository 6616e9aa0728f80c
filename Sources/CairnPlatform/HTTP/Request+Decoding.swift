import CairnAPI
import Vapor

extension Request {
    /// The JSON body as `T`. A member of the wrong type becomes a 422 naming it, like any other invalid
    /// field; a body that is not JSON at all stays a 400.
    package func decodeBody<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        do {
            return try content.decode(T.self)
        } catch let error as DecodingError {
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context):
                guard !context.codingPath.isEmpty else { throw error }
                let field = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
                    .joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
                throw Problem.invalid(field: field, "\(field) has the wrong type.")
            default:
                throw error
            }
        }
    }

    /// Refuses (422, naming each) members of the JSON body that are not in `allowed`: a client cannot
    /// slip `role`, `id` or `email_verified` into a profile update.
    package func refuseUnknownFields(allowed: Set<String>) throws {
        guard let object = try? content.decode([String: IgnoredValue].self) else { return }
        let unknown = object.keys.filter { !allowed.contains($0) }.sorted()
        guard !unknown.isEmpty else { return }
        throw Problem.invalid(unknown.map { .init(field: $0, detail: "\($0) cannot be set here.") })
    }
}

/// Decodes any JSON value and keeps nothing.
package struct IgnoredValue: Decodable {
    package init(from decoder: any Decoder) throws {}
}
