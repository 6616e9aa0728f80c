import CairnAPI
import CairnAccounts
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

@testable import CairnActivities

/// `/api/activities`: saving a finished run or hike (run-route-planner 6, 9; Trailz 3.2.3.5), reading it
/// back, deleting it, and who may do what.
@Suite struct ActivitiesAPITests {
    @Test func everyActivityRouteNeedsAnAccount() async throws {
        try await withAccounts { cairn in
            let id = UUID()
            let attempts: [(HTTPMethod, String, String)] = [
                (.POST, "/api/activities", "save an activity"),
                (.GET, "/api/activities", "see your activities"),
                (.GET, "/api/activities/\(id)", "see your activities"),
                (.GET, "/api/activities/\(id).gpx", "see your activities"),
                (.GET, "/api/activities/\(id)/image", "see your activities"),
                (.DELETE, "/api/activities/\(id)", "delete an activity"),
                (.POST, "/api/activities/import", "import an activity"),
                (.GET, "/api/activities/privacy", "set a privacy zone"),
            ]
            for (method, path, action) in attempts {
                let response = try await cairn.send(
                    method, path, json: method == .POST ? ActivityBodies.body(id: id) : nil)

                #expect(response.status == .unauthorized, "\(method) \(path)")
                #expect(response.problem?.type == AccountError.signInRequiredType, "\(method) \(path)")
                #expect(response.problem?.detail.contains(action) == true, "\(method) \(path)")
            }
        }
    }

    @Test func aSavedRunIsReadBackWithItsFiguresAndTrack() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let track = RecordedTrack()
            let id = UUID()
            let body = ActivityBodies.body(id: id, track: track)

            let save = try await cairn.send(.POST, "/api/activities", json: body, token: ada.token)
            let read = try await cairn.send(.GET, "/api/activities/\(id)", token: ada.token)

            #expect(save.status == .created)
            #expect(save.headers.first(name: .location) == "/api/activities/\(id)")
            let saved = try save.decoded(ActivityDetail.self)
            #expect(read.status == .ok)
            let detail = try read.decoded(ActivityDetail.self)
            #expect(detail == saved)
            let summary = detail.summary
            #expect(summary.id == id && summary.kind == "run" && summary.name == "Morning run")
            #expect(summary.source == "recorded" && summary.outcome == "finished")
            #expect(summary.startedAt == ISO8601DateFormatter().date(from: ActivityBodies.startedAt))
            #expect(summary.elapsedS == track.durationSeconds + 5 && summary.movingS == track.durationSeconds)
            #expect(summary.distanceM == track.lengthMeters.rounded())
            #expect(abs(summary.averageSpeedMps - track.lengthMeters / track.durationSeconds) < 0.01)
            #expect(abs((summary.paceSPerKm ?? 0) - track.durationSeconds / track.lengthMeters * 1000) < 1)
            #expect(summary.steps == 1_200 && summary.kcal == 80)
            #expect(summary.difficulty == "easy")
            #expect(summary.start.lat == TestStreets.helsinkiCentre.latitude)
            #expect(summary.imageURL == "/api/activities/\(id)/image")
            #expect(summary.gpxURL == "/api/activities/\(id).gpx")
            #expect(detail.track == ActivityTrackData(from: track))
            #expect(detail.plannedRoute == Polyline.encode(track.coordinates, precision: 6))
        }
    }

    @Test func savingTheSameIdAgainKeepsItOnceAndAnswersTheFirstSave() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let id = UUID()

            let first = try await cairn.send(
                .POST, "/api/activities", json: ActivityBodies.body(id: id), token: ada.token)
            let again = try await cairn.send(
                .POST, "/api/activities", json: ActivityBodies.body(id: id, name: "Renamed on retry"), token: ada.token)

            #expect(first.status == .created)
            #expect(again.status == .ok)
            #expect(try again.decoded(ActivityDetail.self) == first.decoded(ActivityDetail.self))
            let history = try await cairn.history(token: ada.token)
            #expect(history.total == 1 && history.activities.first?.name == "Morning run")
        }
    }

    @Test func aRetryWithTheSameIdempotencyKeyGetsTheFirstAnswer() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let body = ActivityBodies.body()
            let headers: HTTPHeaders = ["Idempotency-Key": "\"outbox-1\""]

            let first = try await cairn.send(.POST, "/api/activities", json: body, token: ada.token, headers: headers)
            cairn.clock.advance(by: 30)
            let retry = try await cairn.send(.POST, "/api/activities", json: body, token: ada.token, headers: headers)
            let other = try await cairn.send(
                .POST, "/api/activities", json: ActivityBodies.body(), token: ada.token, headers: headers)

            #expect(first.status == .created && retry.status == .created)
            #expect(retry.body.string == first.body.string)
            #expect(other.status == .unprocessableEntity)
            #expect(other.problem?.type == "/problems/idempotency-key-reused")
            #expect(try await cairn.history(token: ada.token).total == 1)
        }
    }

    @Test func anIdAlreadyAnotherUsersIsRefused() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let bob = try await cairn.register("bob")
            let id = UUID()
            try await cairn.saved(ActivityBodies.body(id: id), token: ada.token)

            let taken = try await cairn.send(
                .POST, "/api/activities", json: ActivityBodies.body(id: id), token: bob.token)

            #expect(taken.status == .conflict)
            #expect(taken.problem?.detail.contains("already in use") == true)
            #expect(try await cairn.history(token: bob.token).total == 0)
        }
    }

    @Test func onlyTheOwnerSeesOrDeletesAnActivity() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let bob = try await cairn.register("bob")
            let id = UUID()
            try await cairn.saved(ActivityBodies.body(id: id), token: ada.token)

            let paths = ["/api/activities/\(id)", "/api/activities/\(id).gpx", "/api/activities/\(id)/image"]
            for path in paths {
                let response = try await cairn.send(.GET, path, token: bob.token)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.problem?.detail == "There is no such activity among yours.", "\(path)")
            }
            let delete = try await cairn.send(.DELETE, "/api/activities/\(id)", token: bob.token)
            let bobsHistory = try await cairn.history(token: bob.token)

            #expect(delete.status == .notFound)
            #expect(bobsHistory.total == 0 && bobsHistory.activities.isEmpty)
            #expect(try await cairn.send(.GET, "/api/activities/\(id)", token: ada.token).status == .ok)
        }
    }

    @Test func aMalformedOrUnknownIdIsNotFound() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")

            let malformed = try await cairn.send(.GET, "/api/activities/not-an-id", token: ada.token)
            let unknown = try await cairn.send(.GET, "/api/activities/\(UUID())", token: ada.token)
            let unknownGPX = try await cairn.send(.GET, "/api/activities/\(UUID()).gpx", token: ada.token)

            #expect(malformed.status == .notFound && unknown.status == .notFound && unknownGPX.status == .notFound)
            #expect(unknown.headers.contentType?.description.hasPrefix("application/problem+json") == true)
        }
    }

    @Test func deletingAnActivityRemovesItAndItsTrack() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let id = UUID()
            try await cairn.saved(ActivityBodies.body(id: id), token: ada.token)

            let delete = try await cairn.send(.DELETE, "/api/activities/\(id)", token: ada.token)
            let again = try await cairn.send(.DELETE, "/api/activities/\(id)", token: ada.token)
            let read = try await cairn.send(.GET, "/api/activities/\(id)", token: ada.token)

            #expect(delete.status == .noContent)
            #expect(again.status == .notFound && read.status == .notFound)
            #expect(try await ActivityTrack.query(on: cairn.app.db).count() == 0)
        }
    }

    @Test func everyBadMemberIsNamedInOneAnswer() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let body: [String: JSONValue] = [
                "id": "seven", "kind": "swim", "name": .string(String(repeating: "x", count: 81)),
                "started_at": "yesterday", "elapsed_s": -1,
                "moving_s": "long", "distance_m": .null, "steps": 1.5, "kcal": -3, "rating": 6, "outcome": "won",
                "planned_route": "not a polyline", "track": "none",
            ]

            let response = try await cairn.send(.POST, "/api/activities", json: body, token: ada.token)

            #expect(response.status == .unprocessableEntity)
            #expect(
                Set(response.invalidFields) == [
                    "id", "kind", "name", "started_at", "elapsed_s", "moving_s", "distance_m", "steps", "kcal",
                    "rating", "outcome", "planned_route", "track",
                ])
            #expect(response.fieldError("kind") == "kind must be run or hike.")
            #expect(response.fieldError("rating") == "rating must be a whole number from 1 to 5.")
            #expect(try await cairn.history(token: ada.token).total == 0)
        }
    }

    @Test func figuresThatCannotBeTrueTogetherAreRefused() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let track = RecordedTrack()
            let cases: [(String, [String: JSONValue], String)] = [
                ("moving_s", ["moving_s": 900, "elapsed_s": 600], "moving_s cannot be longer than elapsed_s"),
                ("distance_m", ["distance_m": 50_000], "faster than anyone moves on foot"),
                (
                    "distance_m",
                    ["distance_m": .number(3 * track.lengthMeters + 500), "moving_s": 3000, "elapsed_s": 3000],
                    "more than the track can carry"
                ),
                ("track.times", ["elapsed_s": 60, "moving_s": 60], "goes on after the activity ended"),
                ("started_at", ["started_at": "2031-01-01T00:00:00Z"], "between the year 2000 and now"),
                ("outcome", ["kind": "hike", "outcome": "finished"], "a hike has none"),
                ("custom", ["custom": 1], "custom"),
            ]
            for (field, changes, message) in cases {
                let body = ActivityBodies.body(track: track, changes: changes)

                let response = try await cairn.send(.POST, "/api/activities", json: body, token: ada.token)

                #expect(response.status == .unprocessableEntity, "\(field): \(response.body.string)")
                #expect(response.fieldError(field)?.contains(message) == true, "\(field): \(response.body.string)")
            }
            #expect(try await cairn.history(token: ada.token).total == 0)
        }
    }

    @Test func aTrackThatDoesNotHoldTogetherIsRefusedNamingItsMember() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let track = RecordedTrack(points: 5)
            let line = JSONValue.string(Polyline.encode(track.coordinates, precision: 6))
            let cases: [(JSONValue, String)] = [
                (["polyline": line, "times": [0, 10]], "track.times"),
                (["polyline": "@@@", "times": [0]], "track.polyline"),
                (["polyline": line, "times": [0, 10, 10, 10, -10]], "track.times"),
                (["polyline": line, "times": [0, 10, 10, 10, 10], "elevations": [1, 2]], "track.elevations"),
                (["polyline": line, "times": [0, 10, 10, 10, 10], "speeds": [1]], "track.speeds"),
                (["polyline": "", "times": []], "track"),
            ]
            for (value, field) in cases {
                let body = ActivityBodies.body(track: track, changes: ["track": value])

                let response = try await cairn.send(.POST, "/api/activities", json: body, token: ada.token)

                #expect(response.status == .unprocessableEntity, "\(field): \(response.body.string)")
                #expect(response.invalidFields.contains(field), "\(field): \(response.body.string)")
            }
        }
    }

    @Test func aHikeWithoutOptionalFiguresIsSavedWithTheDefaultName() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")
            let body = ActivityBodies.body(
                kind: "hike", track: RecordedTrack(secondsApart: 3, altitudeMeters: nil),
                changes: ["name": .null, "kcal": .null, "elevation_gain_m": .null, "rating": 4])

            let detail = try await cairn.saved(body, token: ada.token)

            #expect(detail.summary.name == "Hike" && detail.summary.kind == "hike")
            #expect(detail.summary.kcal == nil && detail.summary.elevationGainM == nil)
            #expect(detail.summary.rating == 4 && detail.summary.outcome == nil)
            #expect(detail.track.elevations == nil && detail.plannedRoute == nil)
        }
    }

    @Test func activitiesSavedAsAGuestJoinTheAccountAtSignUp() async throws {
        try await withAccounts { cairn in
            let kept = ActivityBodies.body(name: "Guest run")
            let broken = ActivityBodies.body(changes: ["kind": "swim"])

            let ada = try await cairn.register(
                "ada", extra: ["guest_data": ["activities": ["activities": [.object(kept), .object(broken)]]]])

            let history = try await cairn.history(token: ada.token)
            #expect(history.activities.map(\.name) == ["Guest run"])
        }
    }
}

extension ActivityTrackData {
    init(from track: RecordedTrack) {
        let tenths = Int((track.secondsApart * 10).rounded())
        self.init(
            polyline: Polyline.encode(track.coordinates, precision: 6),
            times: (0..<track.points).map { $0 == 0 ? 0 : tenths },
            elevations: track.altitudeMeters.map { altitude in
                (0..<track.points).map { _ in Int((altitude * 10).rounded()) }
            })
    }
}
