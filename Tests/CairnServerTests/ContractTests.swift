import CairnAPI
import CairnPlatform
import CairnTestSupport
import CairnWeather
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnServer

/// The API's contract: the merged OpenAPI document says what each route takes (`required` members, how it is
/// authenticated, every status it answers) and the routes answer what it says. Goldens: one JSON response per
/// endpoint and answer kind, recorded from the in-process API into Tests/CairnServerTests/Goldens and checked
/// against the document; a changed response shape fails `responsesMatchTheirGoldensAndTheDocument` until the
/// golden and the document are changed together (`CAIRN_RECORD_GOLDENS=1` re-records the goldens).
@Suite struct ContractTests {
    static let goldens = repositoryRoot.appendingPathComponent("Tests/CairnServerTests/Goldens")

    private static func contract(_ cairn: CairnApp) throws -> OpenAPIContract {
        try OpenAPIContract(json: try cairn.openAPIDocument().json)
    }

    @Test func everyReferenceResolvesAndEverySchemaIsWellFormed() async throws {
        try await withComposedCairn { _, cairn in
            let contract = try Self.contract(cairn)

            #expect(contract.unresolvedReferences.isEmpty, "\(contract.unresolvedReferences)")
            #expect(contract.schemasWithUnknownKeywords.isEmpty, "\(contract.schemasWithUnknownKeywords)")
        }
    }

    @Test func everyOperationSaysHowItIsAuthenticated() async throws {
        try await withComposedCairn { _, cairn in
            let contract = try Self.contract(cairn)
            guard case .object(let components)? = contract.document["components"],
                case .object(let schemes)? = components["securitySchemes"]
            else {
                Issue.record("components.securitySchemes is missing")
                return
            }

            #expect(Set(schemes.keys) == ["sessionCookie", "bearerToken"])
            for (method, path, operation) in contract.operations {
                guard case .array(let requirements)? = operation["security"] else {
                    Issue.record("\(method) \(path) has no security")
                    continue
                }
                for case .object(let requirement) in requirements {
                    #expect(Set(requirement.keys).isSubset(of: Set(schemes.keys)), "\(method) \(path)")
                }
                let signedIn = requirements.contains { $0 != .object([:]) }
                let documents401 = Self.statuses(of: operation).contains(401)
                if signedIn && !requirements.contains(.object([:])) {
                    #expect(documents401, "\(method) \(path) needs a session but documents no 401")
                }
            }
        }
    }

    @Test func everyJSONRequestBodyListsWhatItRequires() async throws {
        try await withComposedCairn { _, cairn in
            let contract = try Self.contract(cairn)
            for (method, path, operation) in contract.operations {
                guard let schema = Self.jsonBodySchema(of: operation, in: contract) else { continue }
                guard case .object(let rules) = schema, rules["required"] != nil else {
                    Issue.record("\(method) \(path): the request body schema has no required list")
                    continue
                }
                #expect(
                    rules["additionalProperties"] == .bool(false),
                    "\(method) \(path): unknown members are refused (422), so the body schema says additionalProperties: false"
                )
            }
        }
    }

    @Test func anEmptyBodyIsRefusedForExactlyTheDocumentedRequiredMembers() async throws {
        try await withContractHarness { cairn, harness in
            let contract = try Self.contract(cairn)
            let user = try await harness.register("emma")
            for (method, path, operation) in contract.operations {
                guard case .object(let rules)? = Self.jsonBodySchema(of: operation, in: contract),
                    case .array(let required)? = rules["required"]
                else { continue }
                let concrete = path.replacingOccurrences(of: "{id}", with: user.id.uuidString)
                let response = try await harness.send(
                    HTTPMethod(rawValue: method), concrete, json: [:], token: user.token, client: "10.9.9.9")
                guard response.status == .unprocessableEntity else { continue }
                let documented = Set(required.compactMap { if case .string(let name) = $0 { name } else { nil } })
                let refused = Set(response.invalidFields.map { String($0.prefix { $0 != "." }) })

                #expect(
                    refused.isSubset(of: documented), "\(method) \(path): refused \(refused), documented \(documented)")
            }
        }
    }

    @Test func everyRouteThatMayRefuseWithTooManyRequestsDocumentsIt() async throws {
        try await withComposedCairn(TestStreets.onHelsinki) { app, cairn in
            let contract = try Self.contract(cairn)
            let limited = app.routes.all.filter { !$0.rateLimitPolicies.isEmpty }

            #expect(limited.count >= 8, "weather, runs and the account limits are declared on their routes")
            for route in limited {
                let path =
                    OpenAPIDocument.operation(method: route.method, path: route.path)
                    .split(separator: " ").last.map(String.init) ?? ""
                let operation = try #require(contract.operation(route.method.rawValue, path), "\(path)")
                #expect(Self.statuses(of: operation).contains(429), "\(route.method) \(path) documents no 429")
            }
        }
    }

    @Test func unsupportedMethodsOnAKnownPathAre405WithAllow() async throws {
        try await withCairn(TestStreets.onHelsinki) { app in
            let delete = try await app.testing().sendRequest(.DELETE, "/api/runs/plan")
            let post = try await app.testing().sendRequest(.POST, "/api/runs/planned/\(UUID())")
            let options = try await app.testing().sendRequest(.OPTIONS, "/api/account")
            let unknown = try await app.testing().sendRequest(.DELETE, "/api/nothing-here")

            #expect(delete.status == .methodNotAllowed)
            #expect(delete.headers.first(name: .allow) == "POST")
            #expect(delete.headers.contentType?.subType == "problem+json")
            #expect(delete.problem?.detail == "/api/runs/plan does not take DELETE; it takes POST.")
            #expect(post.status == .methodNotAllowed)
            #expect(post.headers.first(name: .allow) == "DELETE, GET, HEAD")
            #expect(options.status == .noContent)
            #expect(options.headers.first(name: .allow) == "DELETE, GET, HEAD, POST")
            #expect(unknown.status == .notFound)
        }
    }

    /// `Allow` lists the methods of the most specific documented path, as OpenAPI matches paths (a concrete
    /// segment before a template, `{id}.gpx` before `{id}`), not every route Vapor's router would hand the path to.
    @Test func allowNamesTheMethodsOfTheMostSpecificDocumentedPath() async throws {
        try await withCairn { app in
            let id = UUID()
            let cases: [(String, String)] = [
                ("/api/activities/import", "POST"), ("/api/activities/privacy", "GET, HEAD, PUT"),
                ("/api/activities/\(id).gpx", "GET, HEAD"), ("/api/activities/\(id)", "DELETE, GET, HEAD"),
                ("/api/friends/requests", "POST"),
            ]
            for (path, allow) in cases {
                let options = try await app.testing().sendRequest(.OPTIONS, path)

                #expect(options.status == .noContent, "\(path)")
                #expect(options.headers.first(name: .allow) == allow, "\(path)")
            }
            // Vapor's router would answer these from /api/activities/{id} (401 to a guest).
            for (method, path) in [(HTTPMethod.GET, "/api/activities/route"), (.DELETE, "/api/activities/import")] {
                let response = try await app.testing().sendRequest(method, path)

                #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                #expect(response.headers.first(name: .allow) == "POST", "\(method) \(path)")
            }
        }
    }

    /// Every golden: the recorded exchange of `ContractScenario`, compared with a fresh run and validated against
    /// the document; every documented operation has at least one.
    @Test func responsesMatchTheirGoldensAndTheDocument() async throws {
        let record = ProcessInfo.processInfo.environment["CAIRN_RECORD_GOLDENS"] == "1"
        try await withContractHarness { cairn, harness in
            let contract = try Self.contract(cairn)
            let exchanges = try await ContractScenario.run(harness)
            if record {
                try FileManager.default.createDirectory(at: Self.goldens, withIntermediateDirectories: true)
                for file in try FileManager.default.contentsOfDirectory(atPath: Self.goldens.path)
                where file.hasSuffix(".json") {
                    try FileManager.default.removeItem(at: Self.goldens.appendingPathComponent(file))
                }
            }
            var names = Set<String>()
            for exchange in exchanges {
                #expect(names.insert(exchange.name).inserted, "two goldens named \(exchange.name)")
                let file = Self.goldens.appendingPathComponent("\(exchange.name).json")
                let golden = exchange.golden
                if record {
                    try Self.encode(golden).write(to: file)
                } else {
                    let recorded = try? JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: file))
                    let now = String(decoding: try Self.encode(golden), as: UTF8.self)
                    #expect(
                        recorded == golden,
                        "\(exchange.name): the response differs from Goldens/\(exchange.name).json (re-record with CAIRN_RECORD_GOLDENS=1 after updating the OpenAPI document):\n\(now)"
                    )
                }
                let problems = try Self.validate(exchange, against: contract)
                #expect(problems.isEmpty, "\(exchange.name) (\(exchange.method) \(exchange.path)): \(problems)")
            }
            let covered = Set(
                exchanges.compactMap { exchange in
                    contract.template(for: exchange.path).map { "\(exchange.method) \($0)" }
                })
            let documented = Set(contract.operations.map { "\($0.method) \($0.path)" })
            #expect(
                documented.subtracting(covered).isEmpty, "no golden for \(documented.subtracting(covered).sorted())")
            if !record {
                let files = try FileManager.default.contentsOfDirectory(atPath: Self.goldens.path)
                    .filter { $0.hasSuffix(".json") }
                let stale = Set(files.map { String($0.dropLast(5)) }).subtracting(names)
                #expect(stale.isEmpty, "goldens no test records: \(stale.sorted())")
            }
        }
    }

    @Test func theValidatorRefusesWhatASchemaDoesNotAllow() throws {
        let contract = try OpenAPIContract(
            json: Data(
                #"{"components": {"schemas": {"Point": {"type": "object", "required": ["lat"], "additionalProperties": false, "properties": {"lat": {"type": "number", "minimum": -90, "maximum": 90}, "kind": {"enum": ["a", "b"]}, "at": {"type": "string", "format": "date-time"}, "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2}}}}}}"#
                    .utf8))
        let point: JSONValue = .object(["$ref": "#/components/schemas/Point"])

        let good = contract.problems(with: ["lat": 60, "kind": "a", "at": "2026-05-01T12:07:00Z"], against: point)
        let bad = contract.problems(
            with: ["lat": 91, "kind": "c", "at": "noon", "tags": ["x", 1, "z"], "extra": true], against: point)
        let missing = contract.problems(with: ["kind": "a"], against: point)
        let wrongType = contract.problems(with: ["lat": "60"], against: point)
        let unresolved = contract.problems(with: 1, against: .object(["$ref": "#/components/schemas/Nothing"]))
        let stray = contract.problems(with: 1, against: .object(["type": "number", " rounded": .null]))

        #expect(good.isEmpty, "\(good)")
        #expect(bad.count == 6, "\(bad)")
        #expect(missing == ["$: the required member lat is missing"])
        #expect(wrongType == ["$.lat: \"60\" is not of type number"])
        #expect(unresolved == ["$: $ref #/components/schemas/Nothing does not resolve"])
        #expect(stray == ["$: the schema has unknown keywords [\" rounded\"]"])
    }

    // MARK: Helpers

    static func validate(_ exchange: ContractExchange, against contract: OpenAPIContract) throws -> [String] {
        guard let template = contract.template(for: exchange.path) else { return ["the path is not documented"] }
        let schema = try contract.responseSchema(
            exchange.method, template, status: exchange.status, mediaType: exchange.mediaType)
        guard let body = exchange.body else {
            return schema == .null || !exchange.mediaType.hasSuffix("json") ? [] : ["the response has no JSON body"]
        }
        return contract.problems(with: body, against: schema)
    }

    static func statuses(of operation: [String: JSONValue]) -> Set<Int> {
        guard case .object(let responses)? = operation["responses"] else { return [] }
        return Set(responses.keys.compactMap(Int.init))
    }

    static func jsonBodySchema(of operation: [String: JSONValue], in contract: OpenAPIContract) -> JSONValue? {
        guard let body = operation["requestBody"], case .object(let members) = contract.dereferenced(body),
            case .object(let content)? = members["content"], case .object(let media)? = content["application/json"],
            let schema = media["schema"]
        else { return nil }
        return contract.dereferenced(schema)
    }

    static func encode(_ value: JSONValue) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value) + Data("\n".utf8)
    }
}

/// The app as the contract tests drive it: accounts with captured mail and a test clock, the Helsinki street
/// network, demo weather, trusted proxy headers (so tests play several clients).
func withContractHarness(_ test: (CairnApp, AccountsHarness) async throws -> Void) async throws {
    let mail = CapturingMailTransport()
    let clock = TestClock()
    let adjust: (inout CairnConfig) -> Void = { config in
        TestStreets.onHelsinki(&config)
        config.trustProxy = true
    }
    try await withComposedCairn(
        adjust, services: .test(mail: mail, now: clock.read, weather: WeatherProviders(DemoWeatherProvider()))
    ) { app, cairn in
        try await test(cairn, AccountsHarness(app: app, mail: mail, clock: clock, cairn: cairn))
    }
}
