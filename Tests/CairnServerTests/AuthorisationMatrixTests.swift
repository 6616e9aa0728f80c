import CairnAPI
import CairnFlora
import CairnParking
import CairnPlatform
import CairnSki
import CairnTestSupport
import CairnTrails
import CairnWeather
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnServer

/// The authorisation matrix, generated from the OpenAPI document: for every documented path that takes an id,
/// the object is made as user A (ada), then every documented method of the path is replayed as user B (boris,
/// a stranger to ada) and as a guest, with the body A would send. Each answer must be a refusal (401, 403 or
/// 404) and A must read the object back unchanged. A path without a recipe fails the test, so a new route is
/// covered by being in the document. What is open by design (a public catalogue, avatars, a capability URL)
/// is declared with its reason, and read as B and as a guest all the same; what acts on the caller's own data (my
/// review of a subject, my friendship with someone) is replayed too and must leave A's data unchanged. No answer
/// to B or a guest may carry A's email or any password hash.
@Suite struct AuthorisationMatrixTests {
    @Test func everyRouteWithAnIdRefusesOtherPeopleAndGuestsAndChangesNothing() async throws {
        try await withMatrixHarness { cairn, harness in
            let contract = try OpenAPIContract(json: try cairn.openAPIDocument().json)
            var methodsByPath: [String: [String]] = [:]
            for (method, path, _) in contract.operations where path.contains("{") {
                methodsByPath[path, default: []].append(method.uppercased())
            }
            let people = try await MatrixPeople.make(harness)
            let recipes = MatrixRecipes.all

            for path in methodsByPath.keys.sorted() {
                guard let recipe = recipes[path] else {
                    Issue.record("\(path) takes an id but the authorisation matrix has no recipe for it")
                    continue
                }
                let object = try await recipe.create(harness, people)
                let before = try await object.readBack(harness, people)
                for method in methodsByPath[path]!.sorted() {
                    let openness = recipe.open[method]
                    for (who, token) in [("B", Optional(people.b.token)), ("a guest", nil)] {
                        let isOpen = openness == .everyone || (openness == .signedIn && token != nil)
                        // What is open by design is read too (never written), for what it must not show.
                        if isOpen && method != "GET" { continue }
                        let response = try await harness.send(
                            HTTPMethod(rawValue: method), object.path, json: object.bodies[method], token: token,
                            client: token == nil ? "10.9.9.9" : "10.8.8.8", headers: object.headers(method))
                        let status = Int(response.status.code)
                        if let leak = response.body.string.range(of: people.a.email) {
                            Issue.record("\(method) \(object.path) as \(who) shows A's email at \(leak)")
                        }
                        if response.body.string.contains(/\$2[aby]\$\d\d\$/) {
                            Issue.record("\(method) \(object.path) as \(who) shows a password hash")
                        }
                        if isOpen {
                            #expect(status < 500, "\(method) \(object.path) as \(who): \(status)")
                        } else if recipe.scopedToCaller.contains(method) && token != nil {
                            #expect(status < 500, "\(method) \(object.path) as \(who): \(status)")
                        } else {
                            // A PUT by a client-generated id may also say the id is taken (409), nothing more.
                            let refusals: Set<Int> = method == "PUT" ? [401, 403, 404, 409] : [401, 403, 404]
                            #expect(
                                refusals.contains(status),
                                "\(method) \(object.path) as \(who) answered \(status): \(response.body.string)")
                        }
                        if token == nil && openness == nil {
                            #expect(status != 403 || method != "GET", "\(method) \(object.path) as a guest")
                        }
                    }
                }
                let after = try await object.readBack(harness, people)
                #expect(before == after, "\(path): A's object changed after the replays")
            }
        }
    }
}

/// Who the matrix plays: A (ada) owns the objects, B (boris) is a stranger, C (cyril) is A's friend (threads and
/// friend requests need one), D (dora) is someone A blocked.
struct MatrixPeople {
    var a: TestUser
    var b: TestUser
    var c: TestUser
    var d: TestUser

    static func make(_ harness: AccountsHarness) async throws -> MatrixPeople {
        let a = try await harness.register("ada")
        let b = try await harness.register("boris")
        let c = try await harness.register("cyril")
        let d = try await harness.register("dora")
        let asked = try await harness.send(.POST, "/api/friends/requests", json: ["username": "cyril"], token: a.token)
        let request = try #require(try asked.decoded(FriendRequestOutcome.self).request?.id)
        let accepted = try await harness.send(.POST, "/api/friends/requests/\(request)/accept", token: c.token)
        try #require(accepted.status.code < 300, "\(accepted.body.string)")
        return MatrixPeople(a: a, b: b, c: c, d: d)
    }
}

/// One object made as A: the concrete path, the body each method is replayed with, and how A reads it back.
struct MatrixObject {
    var path: String
    var bodies: [String: [String: JSONValue]] = [:]
    /// Headers the replays carry besides the caller's (none: a replay never has A's credentials).
    var headers: (String) -> HTTPHeaders = { _ in [:] }
    /// The credentials besides a token that make A the owner (a guest's hold token), for tests that act as A.
    var ownerHeaders: HTTPHeaders = [:]
    /// A's view of the object (status and body, or the part of it that is A's).
    var readBack: (AccountsHarness, MatrixPeople) async throws -> String
}

/// How to make the object of one path, and which of its methods are open by design.
struct MatrixRecipe {
    enum Openness { case everyone, signedIn }

    var create: (AccountsHarness, MatrixPeople) async throws -> MatrixObject
    /// Methods open by design, each with its reason in the recipe's comment; not replayed.
    var open: [String: Openness] = [:]
    /// Methods that act on the caller's own data (B's request changes B's, never A's): any answer but a server
    /// error, and A's read-back unchanged.
    var scopedToCaller: Set<String> = []
}

/// A's read-back of `path` as status and body text, `keep` choosing the part that is A's.
func readBack(
    _ path: String, headers: HTTPHeaders = [:], keep: @escaping (JSONValue) -> JSONValue = { $0 }
) -> (AccountsHarness, MatrixPeople) async throws -> String {
    { harness, people in
        let response = try await harness.send(.GET, path, token: people.a.token, headers: headers)
        var text = response.body.string
        if let value = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer: response.body)) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            text = String(decoding: try encoder.encode(keep(value)), as: UTF8.self)
        }
        return "\(response.status.code) \(text)"
    }
}

enum MatrixRecipes {
    static let square: [Coordinate] = ContractScenario.square
    static let centre = ContractScenario.centre

    /// A mountain page without the weather (which is not A's, and may change between reads).
    static func skiPage(_ body: JSONValue) -> JSONValue {
        guard case .object(var members) = body else { return body }
        members["weather"] = nil
        return .object(members)
    }

    static func member(_ name: String) -> (JSONValue) -> JSONValue {
        { value in
            if case .object(let members) = value { return members[name] ?? .null }
            return .null
        }
    }

    static var all: [String: MatrixRecipe] {
        var recipes: [String: MatrixRecipe] = [:]

        // Accounts. An avatar is shown beside the person's name wherever it appears, to everyone.
        recipes["/api/users/{id}/avatar"] = MatrixRecipe(
            create: { _, people in
                MatrixObject(path: "/api/users/\(people.a.id)/avatar", readBack: readBack("/api/account"))
            }, open: ["GET": .everyone])
        recipes["/api/admin/users/{id}/role"] = MatrixRecipe(create: { _, people in
            MatrixObject(
                path: "/api/admin/users/\(people.a.id)/role", bodies: ["PUT": ["role": "admin"]],
                readBack: readBack("/api/account"))
        })

        // Runs.
        recipes["/api/runs/planned/{id}"] = MatrixRecipe(create: { harness, people in
            let body: [String: JSONValue] = [
                "distance_km": 4, "sheltered": false, "length_m": .number(square.pathLengthMeters), "sheltered_m": 0,
                "geometry": [
                    "type": "LineString",
                    "coordinates": .array(square.map { [.number($0.longitude), .number($0.latitude)] }),
                ],
            ]
            let saved = try await harness.send(.POST, "/api/runs/planned", json: body, token: people.a.token)
            let id = try saved.decoded(PlannedRunDetail.self).summary.id
            return MatrixObject(path: "/api/runs/planned/\(id)", readBack: readBack("/api/runs/planned/\(id)"))
        })

        // Activities: one activity, its GPX, its picture.
        let activity: (AccountsHarness, MatrixPeople) async throws -> String = { harness, people in
            let id = UUID().uuidString
            let body: [String: JSONValue] = [
                "id": .string(id), "kind": "run", "name": "Square loop", "started_at": "2026-04-30T07:30:00Z",
                "elapsed_s": 1_210, "moving_s": 1_200, "distance_m": .number(square.pathLengthMeters.rounded()),
                "steps": 3_600, "rating": 4, "outcome": "finished",
                "track": [
                    "polyline": .string(Polyline.encode(square, precision: 6)),
                    "times": [0, 3_000, 3_000, 3_000, 3_000],
                ],
            ]
            let saved = try await harness.send(.POST, "/api/activities", json: body, token: people.a.token)
            try #require(saved.status.code < 300, "\(saved.body.string)")
            return id
        }
        for suffix in ["", ".gpx", "/image"] {
            recipes["/api/activities/{id}\(suffix)"] = MatrixRecipe(create: { harness, people in
                let id = try await activity(harness, people)
                return MatrixObject(path: "/api/activities/\(id)\(suffix)", readBack: readBack("/api/activities/\(id)"))
            })
        }

        // Community. A profile is shown to people who are signed in (the replay checks it has no email).
        recipes["/api/people/{username}"] = MatrixRecipe(
            create: { _, people in
                MatrixObject(path: "/api/people/\(people.a.username)", readBack: readBack("/api/account"))
            }, open: ["GET": .signedIn])
        let friendRequest: (AccountsHarness, MatrixPeople, String) async throws -> MatrixObject = {
            harness, people, suffix in
            let addressee = try await harness.register("eve\(Int.random(in: 1000...9999))")
            let asked = try await harness.send(
                .POST, "/api/friends/requests", json: ["username": .string(addressee.username)], token: people.a.token)
            let id = try #require(try asked.decoded(FriendRequestOutcome.self).request?.id, "\(asked.body.string)")
            return MatrixObject(path: "/api/friends/requests/\(id)\(suffix)", readBack: readBack("/api/friends"))
        }
        recipes["/api/friends/requests/{id}"] = MatrixRecipe(create: { try await friendRequest($0, $1, "") })
        recipes["/api/friends/requests/{id}/accept"] = MatrixRecipe(create: {
            try await friendRequest($0, $1, "/accept")
        })
        // My friendship with someone, my block of someone: B's request is about B's own friends and blocks.
        recipes["/api/friends/{userID}"] = MatrixRecipe(
            create: { _, people in
                MatrixObject(path: "/api/friends/\(people.c.id)", readBack: readBack("/api/friends"))
            }, scopedToCaller: ["DELETE"])
        recipes["/api/blocks/{userID}"] = MatrixRecipe(
            create: { harness, people in
                _ = try await harness.send(
                    .POST, "/api/blocks", json: ["username": .string(people.d.username)], token: people.a.token)
                return MatrixObject(path: "/api/blocks/\(people.d.id)", readBack: readBack("/api/friends"))
            }, scopedToCaller: ["DELETE"])
        // My review of a subject: B's is B's own. Votes and reports on a review are what others do with it.
        let review: (AccountsHarness, MatrixPeople) async throws -> UUID = { harness, people in
            let saved = try await harness.send(
                .PUT, "/api/reviews/community:general", json: ["rating": 4, "text": "Well kept paths."],
                token: people.a.token)
            return try saved.decoded(ReviewInfo.self).id
        }
        recipes["/api/reviews/{subject}"] = MatrixRecipe(
            create: { harness, people in
                _ = try await review(harness, people)
                return MatrixObject(
                    path: "/api/reviews/community:general", bodies: ["PUT": ["rating": 1, "text": "Not A's words."]],
                    readBack: readBack("/api/reviews?subject=community:general", keep: member("mine")))
            }, scopedToCaller: ["PUT", "DELETE"])
        for (suffix, body) in [("votes", ["vote": JSONValue.string("accurate")]), ("reports", ["reason": "Spam"])] {
            recipes["/api/reviews/{id}/\(suffix)"] = MatrixRecipe(
                create: { harness, people in
                    let id = try await review(harness, people)
                    return MatrixObject(
                        path: "/api/reviews/\(id)/\(suffix)", bodies: ["POST": body],
                        readBack: readBack("/api/reviews?subject=community:general", keep: member("mine")))
                }, open: ["POST": .signedIn])
        }
        // A thread of A and C, with one message of A's.
        let thread: (AccountsHarness, MatrixPeople) async throws -> (UUID, UUID) = { harness, people in
            let made = try await harness.send(
                .POST, "/api/threads",
                json: ["id": .string(UUID().uuidString), "members": [.string(people.c.id.uuidString)]],
                token: people.a.token)
            try #require(made.status.code < 300, "\(made.body.string)")
            // A and C have one direct thread: asking again answers it.
            let threadID = try made.decoded(ThreadInfo.self).id
            let messageID = UUID()
            let sent = try await harness.send(
                .POST, "/api/threads/\(threadID)/messages",
                json: ["id": .string(messageID.uuidString), "text": "Lakeside loop at 9?"], token: people.a.token)
            try #require(sent.status.code < 300, "\(sent.body.string)")
            return (threadID, messageID)
        }
        let threadPaths: [(String, (UUID, UUID, MatrixPeople) -> (String, [String: [String: JSONValue]]))] = [
            (
                "/api/threads/{id}/messages",
                { t, _, _ in ("/api/threads/\(t)/messages", ["POST": ["id": .string(UUID().uuidString), "text": "Hi"]])
                }
            ),
            (
                "/api/threads/{id}/messages/{messageID}",
                { t, m, _ in ("/api/threads/\(t)/messages/\(m)", ["PATCH": ["text": "Not A's words"]]) }
            ),
            (
                "/api/threads/{id}/messages/{messageID}/reports",
                { t, m, _ in ("/api/threads/\(t)/messages/\(m)/reports", ["POST": ["reason": "Spam"]]) }
            ),
            (
                "/api/threads/{id}/members",
                { t, _, p in ("/api/threads/\(t)/members", ["POST": ["members": [.string(p.b.id.uuidString)]]]) }
            ),
            ("/api/threads/{id}/members/{userID}", { t, _, p in ("/api/threads/\(t)/members/\(p.c.id)", [:]) }),
            ("/api/threads/{id}/read", { t, _, _ in ("/api/threads/\(t)/read", ["POST": ["seq": 1]]) }),
        ]
        for (template, concrete) in threadPaths {
            recipes[template] = MatrixRecipe(create: { harness, people in
                let (threadID, messageID) = try await thread(harness, people)
                let (path, bodies) = concrete(threadID, messageID, people)
                return MatrixObject(
                    path: path, bodies: bodies, readBack: readBack("/api/threads/\(threadID)/messages?after=0"))
            })
        }

        // Forums. Reading a forum, a topic and a post's photo is open to everyone; posting a topic or a comment
        // and reporting a post is what any signed-in person does; deleting a post is its author's.
        let topic: (AccountsHarness, MatrixPeople) async throws -> UUID = { harness, people in
            let id = UUID()
            let made = try await harness.send(
                .POST, "/api/forums/community:general/topics",
                json: [
                    "id": .string(id.uuidString), "title": "Ridge in fog", "text": "Keep to the cairns.",
                    "photo": .string(Data(try TestImages.png(width: 8, height: 8)).base64EncodedString()),
                ], token: people.a.token)
            try #require(made.status.code < 300, "\(made.body.string)")
            return id
        }
        recipes["/api/forums/{subject}/topics"] = MatrixRecipe(
            create: { harness, people in
                let id = try await topic(harness, people)
                return MatrixObject(
                    path: "/api/forums/community:general/topics",
                    bodies: ["POST": ["id": .string(UUID().uuidString), "title": "B's topic", "text": "B's words."]],
                    readBack: readBack("/api/forum-topics/\(id)"))
            }, open: ["GET": .everyone, "POST": .signedIn])
        let forumPaths: [(String, (UUID) -> String, [String: [String: JSONValue]], [String: MatrixRecipe.Openness])] = [
            ("/api/forum-topics/{id}", { "/api/forum-topics/\($0)" }, [:], ["GET": .everyone]),
            (
                "/api/forum-topics/{id}/posts", { "/api/forum-topics/\($0)/posts" },
                ["POST": ["id": .string(UUID().uuidString), "text": "B's comment"]], ["POST": .signedIn]
            ),
            ("/api/forum-posts/{id}", { "/api/forum-posts/\($0)" }, [:], [:]),
            ("/api/forum-posts/{id}/photo", { "/api/forum-posts/\($0)/photo" }, [:], ["GET": .everyone]),
            (
                "/api/forum-posts/{id}/reports", { "/api/forum-posts/\($0)/reports" }, ["POST": ["reason": "Spam"]],
                ["POST": .signedIn]
            ),
        ]
        for (template, concrete, bodies, open) in forumPaths {
            recipes[template] = MatrixRecipe(
                create: { harness, people in
                    let id = try await topic(harness, people)
                    return MatrixObject(
                        path: concrete(id), bodies: bodies, readBack: readBack("/api/forum-topics/\(id)"))
                }, open: open)
        }
        // Moderation is the admins'.
        recipes["/api/moderation/{kind}/{id}/decision"] = MatrixRecipe(create: { harness, people in
            let id = try await topic(harness, people)
            return MatrixObject(
                path: "/api/moderation/post/\(id)/decision",
                bodies: ["POST": ["action": "hide", "reason": "Not B's call."]],
                readBack: readBack("/api/forum-topics/\(id)"))
        })
        // A group of A's with C invited: inviting, joining and removing are its members' and invitees'.
        let group: (AccountsHarness, MatrixPeople) async throws -> UUID = { harness, people in
            let id = UUID()
            let made = try await harness.send(
                .POST, "/api/groups",
                json: [
                    "id": .string(id.uuidString), "name": "Ridge walkers", "members": [.string(people.c.id.uuidString)],
                ],
                token: people.a.token)
            try #require(made.status.code < 300, "\(made.body.string)")
            return id
        }
        let groupPaths: [(String, (UUID, MatrixPeople) -> String, [String: [String: JSONValue]])] = [
            (
                "/api/groups/{id}/members", { g, _ in "/api/groups/\(g)/members" },
                ["POST": ["members": [.string(UUID().uuidString)]]]
            ),
            ("/api/groups/{id}/join", { g, _ in "/api/groups/\(g)/join" }, [:]),
            ("/api/groups/{id}/members/{userID}", { g, p in "/api/groups/\(g)/members/\(p.a.id)" }, [:]),
        ]
        for (template, concrete, bodies) in groupPaths {
            recipes[template] = MatrixRecipe(create: { harness, people in
                let id = try await group(harness, people)
                return MatrixObject(path: concrete(id, people), bodies: bodies, readBack: readBack("/api/groups"))
            })
        }

        // Trails. The catalogue, a trail's page and its GPX are public; editing and deleting are the admins';
        // a favourite and a scavenger tick are the caller's own.
        let trail: (AccountsHarness, MatrixPeople) async throws -> String = { harness, people in
            let token = try await administrator("root-\(Int.random(in: 1000...9999))", on: harness)
            var geoJSON = HTTPHeaders()
            geoJSON.contentType = HTTPMediaType(type: "application", subType: "geo+json")
            let file =
                #"{"type":"Feature","properties":{"name":"Seurasaari shore"},"geometry":"#
                + #"{"type":"LineString","coordinates":[[24.880,60.185],[24.884,60.187],[24.889,60.186]]}}"#
            let imported = try await harness.send(
                .POST, "/api/trails/import?demo=true", token: token, headers: geoJSON, body: ByteBuffer(string: file))
            let id = try imported.decoded(TrailImportResult.self).trails[0].id
            _ = try await harness.send(.PUT, "/api/trails/\(id)/favourite", token: people.a.token)
            return id.uuidString
        }
        let trailPaths: [(String, (String) -> String, [String: MatrixRecipe.Openness], Set<String>)] = [
            ("/api/trails/{id}", { "/api/trails/\($0)" }, ["GET": .everyone], []),
            ("/api/trails/{id}.gpx", { "/api/trails/\($0).gpx" }, ["GET": .everyone], []),
            ("/api/trails/{id}/favourite", { "/api/trails/\($0)/favourite" }, [:], ["PUT", "DELETE"]),
            (
                "/api/trails/{id}/scavenger/{point}", { "/api/trails/\($0)/scavenger/red-squirrel" }, [:],
                ["PUT", "DELETE"]
            ),
        ]
        for (template, concrete, open, scoped) in trailPaths {
            recipes[template] = MatrixRecipe(
                create: { harness, people in
                    let id = try await trail(harness, people)
                    return MatrixObject(
                        path: concrete(id), bodies: ["PATCH": ["name": "Not A's trail"]],
                        readBack: readBack("/api/trails/\(id)"))
                }, open: open, scopedToCaller: scoped)
        }

        // A trail's photos: uploading and removing are the admins'; the photos are public.
        let photoBody: () throws -> [String: JSONValue] = {
            ["photo": .string(Data(try TestImages.png(width: 8, height: 8)).base64EncodedString())]
        }
        let trailWithPhoto: (AccountsHarness, MatrixPeople) async throws -> (String, TrailPhoto) = { harness, people in
            let id = try await trail(harness, people)
            let token = try await administrator("photos-\(Int.random(in: 1000...9999))", on: harness)
            let uploaded = try await harness.send(
                .PUT, "/api/trails/\(id)/photos/trailhead", json: try photoBody(), token: token)
            try #require(uploaded.status == .ok, "\(uploaded.body.string)")
            return (id, try uploaded.decoded(TrailPhoto.self))
        }
        recipes["/api/trails/{id}/photos/{place}"] = MatrixRecipe(create: { harness, people in
            let (id, _) = try await trailWithPhoto(harness, people)
            return MatrixObject(
                path: "/api/trails/\(id)/photos/trailhead", bodies: ["PUT": try photoBody()],
                readBack: readBack("/api/trails/\(id)"))
        })
        for (template, thumbnail) in [
            ("/api/trails/photos/{photo}", false), ("/api/trails/photos/{photo}/thumbnail", true),
        ] {
            recipes[template] = MatrixRecipe(
                create: { harness, people in
                    let (id, photo) = try await trailWithPhoto(harness, people)
                    return MatrixObject(
                        path: thumbnail ? photo.thumbnailURL : photo.url, bodies: [:],
                        readBack: readBack("/api/trails/\(id)"))
                }, open: ["GET": .everyone])
        }

        // Ski mountains. A mountain's page is public; a favourite is the caller's own.
        let mountain: (AccountsHarness, MatrixPeople) async throws -> String = { harness, people in
            try await harness.cairn.ski.seedDemo(on: harness.app.db)
            let list = try await harness.send(.GET, "/api/ski/mountains?q=willard").decoded(SkiMountainList.self)
            let id = try #require(list.mountains.first?.id)
            _ = try await harness.send(.PUT, "/api/ski/mountains/\(id)/favourite", token: people.a.token)
            return id.uuidString
        }
        let skiPaths: [(String, (String) -> String, [String: MatrixRecipe.Openness], Set<String>)] = [
            ("/api/ski/mountains/{id}", { "/api/ski/mountains/\($0)" }, ["GET": .everyone], []),
            ("/api/ski/mountains/{id}/favourite", { "/api/ski/mountains/\($0)/favourite" }, [:], ["PUT", "DELETE"]),
            ("/api/ski/mountains/{id}/conditions", { "/api/ski/mountains/\($0)/conditions" }, [:], ["POST"]),
        ]
        // The mountain editor is the admins': B and guests are refused whatever they send.
        let skiAdminPaths: [(String, (SkiMountainDetail) -> String)] = [
            (
                "/api/ski/mountains/{id}/prices/{price}",
                { "/api/ski/mountains/\($0.mountain.id)/prices/\($0.prices[0].id)" }
            ),
            (
                "/api/ski/mountains/{id}/pistes/{piste}",
                { "/api/ski/mountains/\($0.mountain.id)/pistes/\($0.pistes[0].id)" }
            ),
            (
                "/api/ski/mountains/{id}/lifts/{lift}",
                { "/api/ski/mountains/\($0.mountain.id)/lifts/\($0.lifts[0].id)" }
            ),
        ]
        for (template, concrete) in skiAdminPaths {
            recipes[template] = MatrixRecipe(create: { harness, people in
                let id = try await mountain(harness, people)
                let page = try await harness.send(.GET, "/api/ski/mountains/\(id)").decoded(SkiMountainDetail.self)
                return MatrixObject(
                    path: concrete(page),
                    bodies: [
                        "PUT": [
                            "kind": "adult_day", "amount": "1", "currency": "USD", "season": "2025/26",
                            "as_of": "2025-11-01", "source": "B",
                        ],
                        "PATCH": ["open": false],
                    ],
                    readBack: readBack("/api/ski/mountains/\(id)", keep: skiPage))
            })
        }
        for (template, concrete, open, scoped) in skiPaths {
            recipes[template] = MatrixRecipe(
                create: { harness, people in
                    let id = try await mountain(harness, people)
                    let page = try await harness.send(.GET, "/api/ski/mountains/\(id)").decoded(SkiMountainDetail.self)
                    let report: [String: JSONValue] = [
                        "id": .string(UUID().uuidString), "piste_id": .string(page.pistes[0].id.uuidString),
                        "condition": "groomed",
                    ]
                    _ = try await harness.send(
                        .POST, "/api/ski/mountains/\(id)/conditions", json: report, token: people.a.token)
                    return MatrixObject(
                        path: concrete(id),
                        bodies: [
                            "POST": report,
                            "PUT": [
                                "name": "B's mountain", "country": "US", "lat": 43, "lon": -73,
                                "piste_convention": "europe",
                            ],
                        ],
                        readBack: readBack("/api/ski/mountains/\(id)", keep: skiPage))
                }, open: open, scopedToCaller: scoped)
        }

        // Ski tutorials: the list is public; changing one is the admins' (made here by an admin, since A is not one).
        recipes["/api/ski/tutorials/{id}"] = MatrixRecipe(create: { harness, _ in
            let token = try await administrator("root-tutor", on: harness)
            let id = UUID()
            let body: [String: JSONValue] = [
                "level": "beginner", "title": "Edges first", "url": "https://youtu.be/q3JkB7fW2aX",
            ]
            var add = body
            add["id"] = .string(id.uuidString)
            let made = try await harness.send(.POST, "/api/ski/tutorials", json: add, token: token)
            try #require(made.status == .created, "\(made.body.string)")
            return MatrixObject(
                path: "/api/ski/tutorials/\(id)",
                bodies: ["PUT": ["level": "advanced", "title": "Not A's", "url": "https://example.org"]],
                readBack: readBack("/api/ski/tutorials"))
        })

        // The field guide. The catalogue is public; observations are published (a sensitive species' place
        // generalised), so reading one, its photo and thumbnail is open; changing it is its recorder's.
        for suffix in ["", "/image", "/observations"] {
            recipes["/api/flora/species/{id}\(suffix)"] = MatrixRecipe(
                create: { _, _ in
                    MatrixObject(path: "/api/flora/species/silene-acaulis\(suffix)", readBack: readBack("/api/account"))
                }, open: ["GET": .everyone])
        }
        let observationBody: [String: JSONValue] = [
            "species_id": "silene-acaulis", "latitude": 40.0552, "longitude": -105.5905, "accuracy_m": 6,
            "observed_at": "2026-04-30T10:30:00Z", "comment": "Cushion in full bloom",
        ]
        for suffix in ["", "/photo", "/thumbnail", "/verification"] {
            recipes["/api/flora/observations/{id}\(suffix)"] = MatrixRecipe(
                create: { harness, people in
                    let id = UUID()
                    var body = observationBody
                    body["photo"] = .string(Data(try TestImages.png(width: 8, height: 8)).base64EncodedString())
                    let saved = try await harness.send(
                        .PUT, "/api/flora/observations/\(id)", json: body, token: people.a.token)
                    try #require(saved.status.code < 300, "\(saved.body.string)")
                    return MatrixObject(
                        path: "/api/flora/observations/\(id)\(suffix)",
                        bodies: [
                            "PUT": observationBody.merging(["comment": "Not A's words"]) { $1 },
                            "POST": ["status": "verified"],
                        ],
                        readBack: readBack("/api/flora/observations/\(id)"))
                }, open: ["GET": .everyone])
        }

        // Parking. Lots are public; anyone may hold a free spot (holds are a device's, by its hold token, not an
        // account's); a hold is its token holder's; the calendar address is itself the secret (a revocable
        // capability URL).
        for suffix in ["", "/typical"] {
            recipes["/api/parking/lots/{lot}\(suffix)"] = MatrixRecipe(
                create: { harness, _ in
                    let lot = try await parkingLot(harness)
                    return MatrixObject(
                        path: "/api/parking/lots/\(lot.id)\(suffix)", readBack: readBack("/api/account"))
                }, open: ["GET": .everyone])
        }
        recipes["/api/parking/spots/{spot}/hold"] = MatrixRecipe(
            create: { harness, _ in
                let spot = try await freeSpot(harness)
                return MatrixObject(path: "/api/parking/spots/\(spot)/hold", readBack: readBack("/api/account"))
            }, open: ["POST": .everyone])
        for suffix in ["", "/answer"] {
            recipes["/api/parking/holds/{hold}\(suffix)"] = MatrixRecipe(create: { harness, _ in
                let spot = try await freeSpot(harness)
                let held = try await harness.send(
                    .POST, "/api/parking/spots/\(spot)/hold", json: ["device": .string(UUID().uuidString)])
                let grant = try held.decoded(ParkingHoldGrant.self)
                var holder = HTTPHeaders()
                holder.replaceOrAdd(name: "X-Hold-Token", value: grant.token)
                return MatrixObject(
                    path: "/api/parking/holds/\(grant.hold.id)\(suffix)", bodies: ["POST": ["was_me": true]],
                    ownerHeaders: holder, readBack: readBack("/api/parking/holds/\(grant.hold.id)", headers: holder))
            })
        }
        recipes["/api/parking/calendar/{token}"] = MatrixRecipe(
            create: { harness, people in
                let feed = try await harness.send(.POST, "/api/parking/schedule/feed", token: people.a.token)
                let path = try #require(
                    try feed.decoded(ParkingCalendarFeed.self).url.flatMap { URL(string: $0)?.path })
                return MatrixObject(path: path, readBack: readBack("/api/parking/schedule/feed"))
            }, open: ["GET": .everyone])

        // Streets: the basemap's tiles are public.
        recipes["/api/streets/basemap/{version}/{z}/{x}/{y}"] = MatrixRecipe(
            create: { _, _ in
                MatrixObject(path: "/api/streets/basemap/v/16/37310/18970.mvt", readBack: readBack("/api/account"))
            },
            open: ["GET": .everyone])
        return recipes
    }

    static func parkingLot(_ harness: AccountsHarness) async throws -> ParkingLotSummary {
        let lots = try await harness.send(.GET, "/api/parking/lots").decoded(ParkingLotList.self)
        return try #require(lots.lots.first { $0.code == "P5" })
    }

    /// A spot of P5 that nobody holds now.
    static func freeSpot(_ harness: AccountsHarness) async throws -> UUID {
        let lot = try await parkingLot(harness)
        let detail = try await harness.send(.GET, "/api/parking/lots/\(lot.id)").decoded(ParkingLotDetail.self)
        var candidates = detail.spots.filter { $0.label.hasPrefix("P5-") }.map(\.id)
        candidates.shuffle()
        for spot in candidates {
            let probe = try await harness.send(
                .POST, "/api/parking/spots/\(spot)/hold", json: ["device": .string(UUID().uuidString)])
            if probe.status == .created || probe.status == .ok {
                let grant = try probe.decoded(ParkingHoldGrant.self)
                var holder = HTTPHeaders()
                holder.replaceOrAdd(name: "X-Hold-Token", value: grant.token)
                _ = try await harness.send(.DELETE, "/api/parking/holds/\(grant.hold.id)", headers: holder)
                return spot
            }
        }
        throw ContractError("no free spot in P5")
    }
}

/// The contract tests' harness (Helsinki streets, demo weather, captured mail, a test clock), with rate limits
/// off: the matrix sends hundreds of requests from a few addresses, and a 429 would hide the answer it checks.
func withMatrixHarness(_ test: (CairnApp, AccountsHarness) async throws -> Void) async throws {
    let mail = CapturingMailTransport()
    let clock = TestClock()
    let adjust: (inout CairnConfig) -> Void = { config in
        TestStreets.onHelsinki(&config)
        config.trustProxy = true
        config.rateLimits = .off
    }
    try await withComposedCairn(
        adjust, services: .test(mail: mail, now: clock.read, weather: WeatherProviders(DemoWeatherProvider()))
    ) { app, cairn in
        try await cairn.flora.seedDemo(on: app.db)
        try await cairn.parking.seedDemo(on: app.db)
        try await test(cairn, AccountsHarness(app: app, mail: mail, clock: clock, cairn: cairn))
    }
}

/// An administrator made through the accounts administration (A is no admin), logged in: the token.
private func administrator(_ username: String, on harness: AccountsHarness) async throws -> String {
    _ = try await harness.cairn.accounts.administration.create(
        .init(
            username: username, email: "\(username)@example.org", firstName: "Root", lastName: "Admin",
            password: "Summit-Key-9!", role: .admin),
        on: harness.app.db)
    return try await harness.logIn(username, password: "Summit-Key-9!")
}
