import CairnAPI
import Foundation
import Geo
import Vapor

/// The values of one request — its query string or its JSON body — read by typed readers that collect every
/// bad field, so that one 422 (`application/problem+json`, `errors: [{field, detail}]`) names them all.
///
/// Each endpoint has a request type whose throwing `init` reads everything with one `RequestInput` and ends
/// with `finish`, which throws the 422 when any field was bad and otherwise hands back every required value
/// unwrapped:
///
/// ```swift
/// struct LandmarksRequest {
///     let center: Coordinate
///     let radiusMeters: Double
///
///     init(_ req: Request) throws {
///         var input = RequestInput(query: req)
///         let center = input.location()
///         let radius = input.number("radius_m", in: 1...50_000, default: 1_000)
///         self.center = try input.finish(center)
///         radiusMeters = radius
///     }
/// }
/// ```
///
/// A reader returns nil only after recording an error (or, with `required: false`, when the field is absent),
/// and a reader with a `default` returns the default for an absent or bad value (recording the error for a bad
/// one). Each kind of field has one wording everywhere (ValidationWordingTests lists them). Readers never
/// throw; `finish` does.
package struct RequestInput {
    /// Where the values come from.
    enum Source {
        /// A query string's parameters, and the names given more than once (Vapor keeps only the last value).
        case query(URLQueryContainer, repeated: Set<String>)
        case json([String: JSONValue])
    }

    private let source: Source
    /// The dotted path of a nested object (`start.`), prefixed to field names in errors.
    private let prefix: String
    package private(set) var errors: [Problem.FieldError] = []

    /// The query string's parameters.
    package init(query request: Request) {
        var seen = Set<String>()
        var repeated = Set<String>()
        for pair in (request.url.query ?? "").split(separator: "&") {
            let name = String(pair.prefix { $0 != "=" }).removingPercentEncoding ?? ""
            if !seen.insert(name).inserted { repeated.insert(name) }
        }
        source = .query(request.query, repeated: repeated)
        prefix = ""
    }

    /// A JSON object's members (guest data, a nested object); `prefix` names where it sits (`"start."`).
    package init(json object: [String: JSONValue], prefix: String = "") {
        source = .json(object)
        self.prefix = prefix
    }

    /// The request's JSON body. An absent or empty body reads as `{}` (so the 422 names every required member);
    /// a body that is not JSON is 415, malformed JSON or anything but an object 400. Members not in `allowed`
    /// are refused at once, all named in one 422 (mass assignment: a client cannot slip `role` or
    /// `email_verified` into a profile).
    package init(body request: Request, allowed: Set<String>) throws {
        let object = try Self.jsonObject(of: request)
        let unknown = object.keys.filter { !allowed.contains($0) }.sorted()
        if !unknown.isEmpty {
            throw Problem.invalid(unknown.map { .init(field: $0, detail: Wording.notSettable($0)) })
        }
        self.init(json: object)
    }

    /// The body as a JSON object, or the 400/415 that says why it is not one.
    package static func jsonObject(of request: Request) throws -> [String: JSONValue] {
        guard let buffer = request.body.data, buffer.readableBytes > 0 else { return [:] }
        if let type = request.headers.contentType, !(type.type == "application" && Self.isJSON(type.subType)) {
            throw Problem(
                status: .unsupportedMediaType,
                detail: "Send the request body as JSON, with Content-Type: application/json.")
        }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(buffer: buffer))
        } catch {
            throw Problem(status: .badRequest, detail: "The request body is not valid JSON.")
        }
        guard case .object(let object) = value else {
            throw Problem(status: .badRequest, detail: "The request body must be a JSON object.")
        }
        return object
    }

    private static func isJSON(_ subType: String) -> Bool {
        let lowered = subType.lowercased()
        return lowered == "json" || lowered.hasSuffix("+json")
    }

    // MARK: Finishing

    /// Whether no field was bad so far.
    package var isValid: Bool { errors.isEmpty }

    /// The 422 naming every bad field.
    package var problem: Problem { Problem.invalid(errors) }

    /// Throws the 422 when any field was bad.
    package func finish() throws {
        if !errors.isEmpty { throw problem }
    }

    /// Throws the 422 when any field was bad; otherwise the values, unwrapped. A nil value always comes with
    /// an error (readers record one before returning nil), so after `finish` every value is there.
    package func finish<each Value>(_ value: repeat (each Value)?) throws -> (repeat each Value) {
        try finish()
        return (repeat try Self.present(each value))
    }

    private static func present<Value>(_ value: Value?) throws -> Value {
        guard let value else {
            // Unreachable while every reader records an error before answering nil (RequestInputTests).
            throw Problem.invalid(field: "", "The request is incomplete.")
        }
        return value
    }

    // MARK: Recording

    /// Records `detail` against `field` (named as the client names it), for rules only the endpoint knows.
    package mutating func fail(_ field: String, _ detail: String) {
        errors.append(.init(field: prefix + field, detail: detail))
    }

    /// Whether `field` already has an error.
    package func hasError(_ field: String) -> Bool {
        errors.contains { $0.field == prefix + field }
    }

    /// Adds the errors of a nested input (read with `object(_:)`).
    package mutating func merge(_ nested: RequestInput) {
        errors += nested.errors
    }

    // MARK: Raw values

    /// A value as sent: a query parameter's text, or a JSON member.
    package enum Raw: Equatable {
        case text(String)
        case json(JSONValue)
    }

    /// The value of `field`; nil when absent, JSON `null`, or an empty query parameter.
    package func raw(_ field: String) -> Raw? {
        switch source {
        case .query(let query, let repeated):
            // A parameter given more than once is not one value: the reader refuses it as the wrong kind.
            if repeated.contains(field) { return .json(.array([])) }
            guard let text = query[String.self, at: field], !text.isEmpty else { return nil }
            return .text(text)
        case .json(let object):
            guard let value = object[field], value != .null else { return nil }
            return .json(value)
        }
    }

    /// Whether the values come from a query string (texts) rather than a JSON object.
    package var readsQuery: Bool {
        if case .query = source { return true }
        return false
    }

    /// Whether `field` is present (and not null).
    package func has(_ field: String) -> Bool { raw(field) != nil }

    /// The JSON member `field` as sent (nil when absent or null, and for query strings).
    package func json(_ field: String) -> JSONValue? {
        if case .json(let value) = raw(field) { return value }
        return nil
    }

    /// The JSON object member `field`, as an input of its own whose errors are named `field.member`; nil
    /// (and an error, when `required`) when it is absent or not an object. Merge it back with `merge(_:)`.
    package mutating func object(_ field: String, required: Bool = true, missing: String) -> RequestInput? {
        switch json(field) {
        case .object(let members)?:
            return RequestInput(json: members, prefix: prefix + field + ".")
        case nil where !required && !has(field):
            return nil
        default:
            fail(field, missing)
            return nil
        }
    }

    /// The name of `field` as errors show it.
    package func path(_ field: String) -> String { prefix + field }
}
