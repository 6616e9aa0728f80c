import Foundation
import Geo

/// The merged OpenAPI 3.1 document as the contract tests read it: every `$ref` resolved, operations looked up
/// by method and path template, and a small JSON Schema (2020-12 subset) validator for response bodies — the
/// keywords Cairn's documents use: `$ref`, `type` (one or a list, `null` included), `enum`, `const`,
/// `properties`, `required`, `additionalProperties`, `items`, `minItems`, `maxItems`, `minimum`, `maximum`,
/// `minLength`, `maxLength`, `allOf`, `oneOf`, `anyOf`, `format` (`date-time`, `uuid`). A schema with any
/// other keyword is reported (a YAML flow mapping split by a comma in a description makes one).
package struct OpenAPIContract {
    package let document: [String: JSONValue]

    package init(json: Data) throws {
        guard case .object(let document) = try JSONDecoder().decode(JSONValue.self, from: json) else {
            throw ContractError("the OpenAPI document is not a JSON object")
        }
        self.document = document
    }

    static let schemaKeywords: Set<String> = [
        "$ref", "type", "enum", "const", "properties", "required", "additionalProperties", "items", "minItems",
        "maxItems", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "allOf",
        "oneOf", "anyOf", "format", "description", "default", "examples", "example", "title", "pattern",
        "deprecated", "readOnly", "writeOnly", "uniqueItems", "prefixItems", "contentMediaType",
    ]

    static let parameterKeywords: Set<String> = [
        "$ref", "name", "in", "required", "description", "schema", "example", "examples", "deprecated", "style",
        "explode", "allowEmptyValue", "content",
    ]

    // MARK: References

    /// Every `$ref` of the document that does not name something in it.
    package var unresolvedReferences: [String] {
        var found: [String] = []
        func walk(_ value: JSONValue) {
            switch value {
            case .object(let members):
                if case .string(let ref)? = members["$ref"], resolve(ref) == nil { found.append(ref) }
                members.values.forEach(walk)
            case .array(let items): items.forEach(walk)
            default: break
            }
        }
        walk(.object(document))
        return found.sorted()
    }

    /// The value a local `$ref` (`#/components/schemas/Problem`) names.
    package func resolve(_ ref: String) -> JSONValue? {
        guard ref.hasPrefix("#/") else { return nil }
        var value = JSONValue.object(document)
        for part in ref.dropFirst(2).split(separator: "/") {
            let key = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard case .object(let members) = value, let next = members[key] else { return nil }
            value = next
        }
        return value
    }

    /// `value` with a `$ref` at its top followed (repeatedly).
    package func dereferenced(_ value: JSONValue) -> JSONValue {
        var value = value
        var hops = 0
        while case .object(let members) = value, case .string(let ref)? = members["$ref"], hops < 20,
            let target = resolve(ref)
        {
            value = target
            hops += 1
        }
        return value
    }

    // MARK: Operations

    /// Every operation: `(method, path template, operation object)`.
    package var operations: [(method: String, path: String, operation: [String: JSONValue])] {
        guard case .object(let paths)? = document["paths"] else { return [] }
        var result: [(String, String, [String: JSONValue])] = []
        for (path, item) in paths.sorted(by: { $0.key < $1.key }) {
            guard case .object(let methods) = item else { continue }
            for method in ["get", "put", "post", "delete", "patch"] {
                if case .object(let operation)? = methods[method] {
                    result.append((method.uppercased(), path, operation))
                }
            }
        }
        return result
    }

    /// The operation for `method` and a path template (`/api/runs/planned/{id}`).
    package func operation(_ method: String, _ path: String) -> [String: JSONValue]? {
        operations.first { $0.method == method && $0.path == path }?.operation
    }

    /// The path template a concrete path (`/api/runs/planned/3f25…`, a query string ignored) belongs to.
    package func template(for path: String) -> String? {
        guard case .object(let paths)? = document["paths"] else { return nil }
        let parts = path.prefix { $0 != "?" }.split(separator: "/")
        let matching = paths.keys.filter { template in
            let templateParts = template.split(separator: "/")
            return templateParts.count == parts.count && zip(templateParts, parts).allSatisfy(Self.matches)
        }
        // The most literal template wins: `/api/activities/{id}.gpx` before `/api/activities/{id}`.
        return matching.sorted { (Self.literalLength($0), $1) > (Self.literalLength($1), $0) }.first
    }

    /// Whether a template's segment (`runs`, `{id}`, `{id}.gpx`) matches a path's.
    private static func matches(_ template: Substring, _ part: Substring) -> Bool {
        guard template.hasPrefix("{"), let close = template.firstIndex(of: "}") else { return template == part }
        let suffix = template[template.index(after: close)...]
        return part.hasSuffix(suffix) && part.count > suffix.count
    }

    /// How many of a template's characters are not parameters.
    private static func literalLength(_ template: String) -> Int {
        var inside = false
        return template.reduce(0) { count, character in
            if character == "{" { inside = true }
            defer { if character == "}" { inside = false } }
            return inside || character == "}" ? count : count + 1
        }
    }

    /// The response schema documented for `status` (or `default`) of an operation and a media type; `.null`
    /// when the response has no body.
    package func responseSchema(_ method: String, _ path: String, status: Int, mediaType: String) throws -> JSONValue {
        guard let operation = operation(method, path) else {
            throw ContractError("\(method) \(path) is not documented")
        }
        guard case .object(let responses)? = operation["responses"],
            let response = responses[String(status)] ?? responses["default"]
        else { throw ContractError("\(method) \(path) does not document a \(status) response") }
        guard case .object(let members) = dereferenced(response) else {
            throw ContractError("\(method) \(path) \(status): the response is not an object")
        }
        guard case .object(let content)? = members["content"] else { return .null }
        guard case .object(let media)? = content[mediaType] else {
            throw ContractError(
                "\(method) \(path) \(status) documents \(content.keys.sorted()) but the response is \(mediaType)")
        }
        return media["schema"] ?? .object([:])
    }

    // MARK: Validation

    /// Why `value` does not match `schema` (empty when it does); each line names where (`$.profile.age`).
    package func problems(with value: JSONValue, against schema: JSONValue, at path: String = "$") -> [String] {
        guard case .object(let rules) = schema else {
            if case .bool(false) = schema { return ["\(path): nothing is allowed here"] }
            return []
        }
        var problems: [String] = []
        let unknown = Set(rules.keys).subtracting(Self.schemaKeywords)
        if !unknown.isEmpty { problems.append("\(path): the schema has unknown keywords \(unknown.sorted())") }
        if case .string(let ref)? = rules["$ref"] {
            guard let target = resolve(ref) else { return problems + ["\(path): $ref \(ref) does not resolve"] }
            problems += self.problems(with: value, against: target, at: path)
        }
        if let type = rules["type"] {
            let allowed: [String]
            switch type {
            case .string(let name): allowed = [name]
            case .array(let names): allowed = names.compactMap { if case .string(let n) = $0 { n } else { nil } }
            default: allowed = []
            }
            if !allowed.contains(where: { Self.value(value, is: $0) }) {
                return problems + [
                    "\(path): \(Self.describe(value)) is not of type \(allowed.joined(separator: " or "))"
                ]
            }
        }
        if case .array(let choices)? = rules["enum"], !choices.contains(value) {
            problems.append("\(path): \(Self.describe(value)) is not one of the enum's values")
        }
        if let constant = rules["const"], constant != value {
            problems.append("\(path): \(Self.describe(value)) is not \(Self.describe(constant))")
        }
        switch value {
        case .object(let members):
            if case .array(let required)? = rules["required"] {
                for case .string(let name) in required where members[name] == nil {
                    problems.append("\(path): the required member \(name) is missing")
                }
            }
            var properties: [String: JSONValue] = [:]
            if case .object(let declared)? = rules["properties"] { properties = declared }
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                if let schema = properties[name] {
                    problems += self.problems(with: member, against: schema, at: "\(path).\(name)")
                } else if let additional = rules["additionalProperties"] {
                    if case .bool(false) = additional {
                        problems.append("\(path): the member \(name) is not documented")
                    } else {
                        problems += self.problems(with: member, against: additional, at: "\(path).\(name)")
                    }
                }
            }
        case .array(let items):
            if let itemSchema = rules["items"] {
                for (index, item) in items.enumerated() {
                    problems += self.problems(with: item, against: itemSchema, at: "\(path)[\(index)]")
                }
            }
            if case .number(let minimum)? = rules["minItems"], Double(items.count) < minimum {
                problems.append("\(path): \(items.count) items, fewer than \(Int(minimum))")
            }
            if case .number(let maximum)? = rules["maxItems"], Double(items.count) > maximum {
                problems.append("\(path): \(items.count) items, more than \(Int(maximum))")
            }
        case .number(let number):
            if case .number(let minimum)? = rules["minimum"], number < minimum {
                problems.append("\(path): \(number) is below the minimum \(minimum)")
            }
            if case .number(let maximum)? = rules["maximum"], number > maximum {
                problems.append("\(path): \(number) is above the maximum \(maximum)")
            }
        case .string(let text):
            if case .number(let minimum)? = rules["minLength"], Double(text.count) < minimum {
                problems.append("\(path): \"\(text)\" is shorter than \(Int(minimum))")
            }
            if case .number(let maximum)? = rules["maxLength"], Double(text.count) > maximum {
                problems.append("\(path): \"\(text)\" is longer than \(Int(maximum))")
            }
            if case .string(let format)? = rules["format"], !Self.text(text, hasFormat: format) {
                problems.append("\(path): \"\(text)\" is not a \(format)")
            }
        default:
            break
        }
        if case .array(let all)? = rules["allOf"] {
            for schema in all { problems += self.problems(with: value, against: schema, at: path) }
        }
        if case .array(let any)? = rules["anyOf"],
            !any.contains(where: { self.problems(with: value, against: $0, at: path).isEmpty })
        {
            problems.append("\(path): \(Self.describe(value)) matches none of anyOf")
        }
        if case .array(let one)? = rules["oneOf"] {
            let matching = one.filter { self.problems(with: value, against: $0, at: path).isEmpty }.count
            if matching != 1 {
                problems.append("\(path): \(Self.describe(value)) matches \(matching) of oneOf's schemas, not 1")
            }
        }
        return problems
    }

    /// Schemas and parameters anywhere in the document with keywords they do not have (a description split by a
    /// comma in a YAML flow mapping makes `{description: "a", " b": null}`).
    package var schemasWithUnknownKeywords: [String] {
        var found: [String] = []
        func walkSchema(_ value: JSONValue, at path: String) {
            guard case .object(let rules) = value else { return }
            let unknown = Set(rules.keys).subtracting(Self.schemaKeywords)
            if !unknown.isEmpty { found.append("\(path): \(unknown.sorted())") }
            if case .object(let properties)? = rules["properties"] {
                for (name, schema) in properties { walkSchema(schema, at: "\(path).properties.\(name)") }
            }
            for key in ["items", "additionalProperties"] {
                if let schema = rules[key] { walkSchema(schema, at: "\(path).\(key)") }
            }
            for key in ["allOf", "oneOf", "anyOf"] {
                if case .array(let schemas)? = rules[key] {
                    for (index, schema) in schemas.enumerated() { walkSchema(schema, at: "\(path).\(key)[\(index)]") }
                }
            }
        }
        func walk(_ value: JSONValue, at path: String) {
            switch value {
            case .object(let members):
                for (key, member) in members {
                    if key == "schema" {
                        walkSchema(member, at: "\(path).schema")
                        continue
                    }
                    if key == "parameters", case .array(let parameters) = member {
                        for case .object(let parameter) in parameters {
                            let unknown = Set(parameter.keys).subtracting(Self.parameterKeywords)
                            if !unknown.isEmpty { found.append("\(path).parameters: \(unknown.sorted())") }
                        }
                    }
                    walk(member, at: "\(path).\(key)")
                }
            case .array(let items):
                for (index, item) in items.enumerated() { walk(item, at: "\(path)[\(index)]") }
            default: break
            }
        }
        if case .object(let components)? = document["components"], case .object(let schemas)? = components["schemas"] {
            for (name, schema) in schemas { walkSchema(schema, at: "components.schemas.\(name)") }
        }
        walk(document["paths"] ?? .null, at: "paths")
        return found.sorted()
    }

    private static func value(_ value: JSONValue, is type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array),
            ("object", .object):
            return true
        case ("integer", .number(let number)):
            return number == number.rounded()
        default:
            return false
        }
    }

    private static func text(_ text: String, hasFormat format: String) -> Bool {
        switch format {
        case "date-time":
            return text.wholeMatch(
                of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/) != nil
        case "uuid":
            return UUID(uuidString: text) != nil
        default:
            return true
        }
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let bool): "\(bool)"
        case .number(let number): "\(number)"
        case .string(let text): "\"\(text.prefix(60))\""
        case .array(let items): "an array of \(items.count)"
        case .object: "an object"
        }
    }
}

package struct ContractError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
