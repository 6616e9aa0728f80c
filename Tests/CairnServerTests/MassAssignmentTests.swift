import CairnAPI
import CairnPlatform
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnServer

/// Mass assignment (OWASP API3:2023), generated from the OpenAPI document: every operation that takes a JSON body
/// is sent, by someone allowed to use it (the owner of its object, else an administrator, a researcher, a sensor
/// gateway — the first whose answer is not 401, 403 or 404), a body with a member it does not document — `role`
/// (or another privileged name where `role` is documented) — and must refuse it with a 422 that names that
/// member. A route that quietly ignored or applied the member would answer otherwise; a new route is covered by
/// being documented.
@Suite struct MassAssignmentTests {
    /// Members a client must never set where they are not documented.
    static let probes: [(name: String, value: JSONValue)] = [
        ("role", "admin"), ("user_id", "00000000-0000-0000-0000-000000000001"), ("is_admin", true),
    ]

    /// Bodies in another system's format, whose extra members are read past by design, each with its reason.
    static let foreignFormats: [String: String] = [
        // The Things Network sends dozens of members (radio metadata, network ids) that Cairn does not read;
        // refusing them would refuse every real uplink. Only the device id, the payload and the time are read.
        "POST /api/parking/ttn": "The Things Network v3 uplink"
    ]

    @Test func everyJSONBodyRefusesAMemberItDoesNotDocument() async throws {
        try await withMatrixHarness { cairn, harness in
            let contract = try OpenAPIContract(json: try cairn.openAPIDocument().json)
            let people = try await MatrixPeople.make(harness)
            let recipes = MatrixRecipes.all
            let others = try await Self.privilegedCallers(harness)
            var checked = 0
            for (method, template, operation) in contract.operations {
                guard let documented = Self.jsonBodyMembers(operation, in: contract),
                    Self.foreignFormats["\(method) \(template)"] == nil
                else { continue }
                let probe = try #require(Self.probes.first { !documented.contains($0.name) })
                var path = template
                var owner: HTTPHeaders = [:]
                if template.contains("{") {
                    let recipe = try #require(recipes[template], "\(template) has no authorisation-matrix recipe")
                    let object = try await recipe.create(harness, people)
                    path = object.path
                    owner = object.ownerHeaders
                }
                var answer: TestingHTTPResponse?
                for (token, headers) in [(Optional(people.a.token), owner)] + others {
                    answer = try await harness.send(
                        HTTPMethod(rawValue: method), path, json: [probe.name: probe.value], token: token,
                        headers: headers)
                    if let answer, ![401, 403, 404].contains(answer.status.code) { break }
                }
                let response = try #require(answer)
                let named = Self.fieldErrors(response).contains(probe.name)
                #expect(
                    response.status == .unprocessableEntity && named,
                    "\(method) \(template) with \(probe.name) answered \(response.status.code): \(response.body.string)"
                )
                checked += 1
            }
            #expect(checked > 20, "only \(checked) operations take a JSON body")
        }
    }

    /// Who else may use a route A may not: an administrator, a researcher, a sensor gateway (by bearer secret and
    /// by The Things Network's header).
    static func privilegedCallers(_ harness: AccountsHarness) async throws -> [(String?, HTTPHeaders)] {
        var callers: [(String?, HTTPHeaders)] = []
        for (username, role) in [("mass-admin", AccountRole.admin), ("mass-researcher", .researcher)] {
            _ = try await harness.cairn.accounts.administration.create(
                .init(
                    username: username, email: "\(username)@example.org", firstName: "Mass", lastName: "Probe",
                    password: "Summit-Key-9!", role: role),
                on: harness.app.db)
            callers.append((try await harness.logIn(username, password: "Summit-Key-9!"), [:]))
        }
        let gateway = try await harness.cairn.parking.gateways.create(name: "mass", lots: ["P5"], on: harness.app.db)
        var bearer = HTTPHeaders()
        bearer.bearerAuthorization = BearerAuthorization(token: gateway.secret)
        callers.append((nil, bearer))
        callers.append((nil, ["X-Gateway-Secret": gateway.secret]))
        return callers
    }

    /// The members an operation's JSON body documents, or nil when it takes no JSON object.
    static func jsonBodyMembers(_ operation: [String: JSONValue], in contract: OpenAPIContract) -> Set<String>? {
        guard case .object(let body)? = operation["requestBody"].map(contract.dereferenced),
            case .object(let content)? = body["content"], let media = content["application/json"],
            case .object(let mediaMembers) = media, let schema = mediaMembers["schema"],
            case .object(let rules) = contract.dereferenced(schema)
        else { return nil }
        if case .string(let type)? = rules["type"], type != "object" { return nil }
        guard case .object(let properties)? = rules["properties"] else { return [] }
        return Set(properties.keys)
    }

    /// The fields a problem+json answer's `errors` name.
    static func fieldErrors(_ response: TestingHTTPResponse) -> Set<String> {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer: response.body)),
            case .object(let members) = value, case .array(let errors)? = members["errors"]
        else { return [] }
        return Set(
            errors.compactMap { error in
                if case .object(let fields) = error, case .string(let field)? = fields["field"] { return field }
                return nil
            })
    }
}
