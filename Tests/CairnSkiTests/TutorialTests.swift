import CairnAPI
import CairnServer
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnSki

/// Tutorials on SQLite and PostgreSQL: the demo list by level for everyone; admins add (idempotent by the
/// client's id), edit, move and delete; every refusal (guest 401, non-admin 403, bad fields 422, unknown 404,
/// a reused id 409).
@Suite struct TutorialTests {
    func catalogue(_ cairn: AccountsHarness) async throws -> SkiTutorialCatalogue {
        try await cairn.send(.GET, "/api/ski/tutorials").decoded(SkiTutorialCatalogue.self)
    }

    func titles(_ cairn: AccountsHarness, _ level: SkiTutorialLevel) async throws -> [String] {
        let list = try await catalogue(cairn).levels.first { $0.level == level }
        return try #require(list).tutorials.map(\.title)
    }

    @Test func guestsSeeThreeLevelsOfTheDemoListInOrder() async throws {
        try await withSki { cairn in
            let list = try await catalogue(cairn)

            #expect(list.levels.map(\.level) == [.beginner, .intermediate, .advanced])
            for level in list.levels {
                #expect(level.tutorials.count == 4)
                #expect(level.tutorials.map(\.position) == [0, 1, 2, 3])
                #expect(level.tutorials.allSatisfy { $0.demo && $0.level == level.level })
            }
            let all = list.levels.flatMap(\.tutorials)
            #expect(Set(all.map(\.provider)) == [.youtube, .other])
            #expect(all.allSatisfy { ($0.provider == .other) == ($0.videoID == nil) })
            try await cairn.cairn.ski.seedDemo(on: cairn.app.db)
            #expect(try await catalogue(cairn) == list)
        }
    }

    @Test func adminsAddEditMoveAndDelete() async throws {
        try await withSki { cairn in
            let keeper = try await cairn.admin()
            let id = UUID()
            let body: [String: JSONValue] = [
                "id": .string(id.uuidString), "level": "beginner", "title": "  Getting up after a fall  ",
                "url": "https://youtu.be/q3JkB7fW2aX", "position": 1,
            ]

            let made = try await cairn.send(.POST, "/api/ski/tutorials", json: body, token: keeper.token)
            #expect(made.status == .created)
            let tutorial = try made.decoded(SkiTutorial.self)
            #expect(tutorial.title == "Getting up after a fall")
            #expect(tutorial.provider == .youtube && tutorial.videoID == "q3JkB7fW2aX")
            #expect(tutorial.position == 1 && !tutorial.demo)
            let again = try await cairn.send(.POST, "/api/ski/tutorials", json: body, token: keeper.token)
            #expect(again.status == .ok)
            #expect(try again.decoded(SkiTutorial.self) == tutorial)
            let beginner = try await catalogue(cairn).levels[0].tutorials
            #expect(beginner.count == 5)
            #expect(beginner[1].id == id)
            #expect(beginner.map(\.position) == [0, 1, 2, 3, 4])

            // Moved to the top of its level, then to another level (last there).
            let top = try await cairn.send(
                .PUT, "/api/ski/tutorials/\(id)",
                json: ["level": "beginner", "title": "Getting up", "url": "https://vimeo.com/76979871", "position": 0],
                token: keeper.token)
            #expect(top.status == .ok)
            #expect(try top.decoded(SkiTutorial.self).provider == .vimeo)
            #expect(try await titles(cairn, .beginner).first == "Getting up")
            let moved = try await cairn.send(
                .PUT, "/api/ski/tutorials/\(id)",
                json: ["level": "advanced", "title": "Getting up", "url": "https://example.org/getting-up"],
                token: keeper.token)
            let movedTutorial = try moved.decoded(SkiTutorial.self)
            #expect(movedTutorial.provider == .other && movedTutorial.videoID == nil)
            #expect(movedTutorial.level == .advanced && movedTutorial.position == 4)
            let levels = try await catalogue(cairn).levels
            #expect(levels[0].tutorials.map(\.position) == [0, 1, 2, 3])
            #expect(levels[2].tutorials.last?.id == id)

            // A demo entry moved down the list is the admin's now.
            let demo = levels[1].tutorials[0]
            let edited = try await cairn.send(
                .PUT, "/api/ski/tutorials/\(demo.id)",
                json: [
                    "level": "intermediate", "title": .string(demo.title), "url": .string(demo.url), "position": 99,
                ],
                token: keeper.token)
            #expect(try edited.decoded(SkiTutorial.self).position == 3)
            let intermediate = try await catalogue(cairn).levels[1].tutorials
            #expect(intermediate.last?.id == demo.id && intermediate.last?.demo == false)
            #expect(intermediate.map(\.position) == [0, 1, 2, 3])

            #expect(try await cairn.send(.DELETE, "/api/ski/tutorials/\(id)", token: keeper.token).status == .noContent)
            #expect(try await cairn.send(.DELETE, "/api/ski/tutorials/\(id)", token: keeper.token).status == .noContent)
            let advanced = try await catalogue(cairn).levels[2].tutorials
            #expect(!advanced.contains { $0.id == id })
            #expect(advanced.map(\.position) == [0, 1, 2, 3])
        }
    }

    @Test func guestsAndNonAdminsAreRefused() async throws {
        try await withSki { cairn in
            let ada = try await cairn.register("ada")
            let existing = try await catalogue(cairn).levels[0].tutorials[0]
            let body: [String: JSONValue] = [
                "id": .string(UUID().uuidString), "level": "advanced", "title": "Not allowed",
                "url": "https://example.org",
            ]
            let edit: [String: JSONValue] = ["level": "advanced", "title": "Not allowed", "url": "https://example.org"]

            let guestAdd = try await cairn.send(.POST, "/api/ski/tutorials", json: body)
            let guestEdit = try await cairn.send(.PUT, "/api/ski/tutorials/\(existing.id)", json: edit)
            let guestDelete = try await cairn.send(.DELETE, "/api/ski/tutorials/\(existing.id)")
            let userAdd = try await cairn.send(.POST, "/api/ski/tutorials", json: body, token: ada.token)
            let userEdit = try await cairn.send(
                .PUT, "/api/ski/tutorials/\(existing.id)", json: edit, token: ada.token)
            let userDelete = try await cairn.send(.DELETE, "/api/ski/tutorials/\(existing.id)", token: ada.token)

            for response in [guestAdd, guestEdit, guestDelete] {
                #expect(response.status == .unauthorized)
                #expect(response.problem?.type == "/problems/sign-in-required")
            }
            for response in [userAdd, userEdit, userDelete] { #expect(response.status == .forbidden) }
            #expect(try await catalogue(cairn).levels[0].tutorials[0] == existing)
            #expect(try await catalogue(cairn).levels[2].tutorials.count == 4)
        }
    }

    @Test func badFieldsUnknownTutorialsAndReusedIDsAreRefused() async throws {
        try await withSki { cairn in
            let keeper = try await cairn.admin()
            func add(_ body: [String: JSONValue]) async throws -> TestingHTTPResponse {
                try await cairn.send(.POST, "/api/ski/tutorials", json: body, token: keeper.token)
            }

            let everything = try await add([
                "id": "nope", "level": "expert", "title": .string(String(repeating: "a", count: 121)),
                "url": "http://www.youtube.com/watch?v=Cx8GJ0K1b4M", "position": -1,
            ])
            #expect(everything.status == .unprocessableEntity)
            #expect(Set(everything.invalidFields) == ["id", "level", "title", "url", "position"])
            #expect(everything.fieldError("level") == "level must be beginner, intermediate or advanced.")
            #expect(everything.fieldError("title") == "The title can be at most 120 characters long (now 121).")
            #expect(
                everything.fieldError("url")
                    == "Enter a web address starting with https://, such as https://www.youtube.com/watch?v=… .")
            let empty = try await add(["id": .string(UUID().uuidString), "level": "beginner", "title": " ", "url": ""])
            #expect(Set(empty.invalidFields) == ["title", "url"])
            #expect(empty.fieldError("title") == "Enter the title.")
            #expect(empty.fieldError("url") == "Enter the video's address.")
            let noVideo = try await add([
                "id": .string(UUID().uuidString), "level": "beginner", "title": "A channel",
                "url": "https://www.youtube.com/@skischool",
            ])
            #expect(noVideo.fieldError("url")?.hasPrefix("This YouTube address names no video") == true)
            let noVimeo = try await add([
                "id": .string(UUID().uuidString), "level": "beginner", "title": "A channel",
                "url": "https://vimeo.com/channels/staffpicks",
            ])
            #expect(noVimeo.fieldError("url")?.hasPrefix("This Vimeo address names no video") == true)
            let extra = try await add([
                "id": .string(UUID().uuidString), "level": "beginner", "title": "Sneaky", "url": "https://example.org",
                "demo": true,
            ])
            #expect(extra.invalidFields == ["demo"])

            let id = UUID()
            let body: [String: JSONValue] = [
                "id": .string(id.uuidString), "level": "beginner", "title": "Edges", "url": "https://example.org/edges",
            ]
            #expect(try await add(body).status == .created)
            var other = body
            other["title"] = "Something else"
            let reused = try await add(other)
            #expect(reused.status == .conflict)
            #expect(reused.problem?.detail.contains("already used for another tutorial") == true)

            let unknown = try await cairn.send(
                .PUT, "/api/ski/tutorials/\(UUID())",
                json: ["level": "beginner", "title": "Edges", "url": "https://example.org/edges"], token: keeper.token)
            #expect(unknown.status == .notFound)
            let badEdit = try await cairn.send(
                .PUT, "/api/ski/tutorials/\(id)", json: ["level": "beginner", "title": "Edges", "url": "ftp://x"],
                token: keeper.token)
            #expect(badEdit.invalidFields == ["url"])
            let idInEdit = try await cairn.send(
                .PUT, "/api/ski/tutorials/\(id)",
                json: ["id": .string(id.uuidString), "level": "beginner", "title": "Edges", "url": "https://x.org"],
                token: keeper.token)
            #expect(idInEdit.invalidFields == ["id"])
            #expect(try await titles(cairn, .beginner).last == "Edges")
        }
    }
}
