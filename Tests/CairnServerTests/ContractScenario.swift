import CairnAPI
import CairnFlora
import CairnParking
import CairnSki
import CairnTestSupport
import CairnTrails
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

/// One request of the contract scenario and what it got.
struct ContractExchange {
    var name: String
    var method: String
    var path: String
    var status: Int
    var mediaType: String
    /// The JSON body; nil for other media types (pictures, HTML) and empty bodies.
    var body: JSONValue?
    /// Whether the golden keeps the body (the OpenAPI document itself is only validated).
    var keepsBody = true

    /// What the golden file holds: the request, the status, the media type and the body with what changes from
    /// run to run (ids, tokens) replaced, and arrays of more than five items cut to their first three (the shape
    /// is the contract; every item is still validated against the document).
    var golden: JSONValue {
        var members: [String: JSONValue] = [
            "request": .string("\(method) \(Self.normalized(path))"), "status": .number(Double(status)),
            "media_type": .string(mediaType),
        ]
        if keepsBody, let body { members["body"] = Self.normalized(body, key: nil) }
        return .object(members)
    }

    /// Secrets, and keys made afresh on every run (the VAPID key of a new data folder).
    static let secretKeys: Set<String> = ["token", "reset_token", "public_key"]

    static func normalized(_ value: JSONValue, key: String?) -> JSONValue {
        switch value {
        case .string(let text):
            if let key, secretKeys.contains(key) { return "<token>" }
            return .string(normalized(text))
        case .array(let items):
            return .array((items.count > 5 ? Array(items.prefix(3)) : items).map { normalized($0, key: nil) })
        case .object(let members):
            return .object(members.reduce(into: [:]) { $0[$1.key] = normalized($1.value, key: $1.key) })
        default:
            return value
        }
    }

    /// UUIDs (alone or inside a text) as `<uuid>`.
    static func normalized(_ text: String) -> String {
        text.replacing(/[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}/, with: "<uuid>")
    }
}

/// The requests whose answers are the goldens: each endpoint's success and its main refusals, in the order a
/// person meets them (sign up, profile, picture, password reset, streets, runs, weather, administration, the
/// field guide, activities, leaving). Deterministic: a test clock, the Helsinki network, demo weather, fixed inputs.
enum ContractScenario {
    static let centre = TestStreets.helsinkiCentre
    static let square: [Coordinate] = [
        (60.1699, 24.9384), (60.1789, 24.9384), (60.1789, 24.9564), (60.1699, 24.9564), (60.1699, 24.9384),
    ].map { Coordinate(latitude: $0.0, longitude: $0.1) }

    static func run(_ harness: AccountsHarness) async throws -> [ContractExchange] {
        var exchanges: [ContractExchange] = []
        func record(
            _ name: String, _ method: HTTPMethod, _ path: String, json: [String: JSONValue]? = nil,
            token: String? = nil, client: String = "10.0.0.1", headers: HTTPHeaders = [:], body: ByteBuffer? = nil,
            keepsBody: Bool = true
        ) async throws -> TestingHTTPResponse {
            let response = try await harness.send(
                method, path, json: json, token: token, client: client, headers: headers, body: body)
            let mediaType = response.headers.contentType.map { "\($0.type)/\($0.subType)" } ?? ""
            var decoded: JSONValue?
            if mediaType.hasSuffix("json"), response.body.readableBytes > 0 {
                decoded = try JSONDecoder().decode(JSONValue.self, from: Data(buffer: response.body))
            }
            exchanges.append(
                ContractExchange(
                    name: name, method: method.rawValue, path: path, status: Int(response.status.code),
                    mediaType: mediaType, body: decoded, keepsBody: keepsBody))
            harness.clock.advance(by: 1)
            return response
        }
        let password = AccountsHarness.password
        let point: JSONValue = ["lat": .number(centre.latitude), "lon": .number(centre.longitude)]
        let lat = centre.latitude, lon = centre.longitude

        // Platform.
        _ = try await record("platform-health", .GET, "/healthz")
        _ = try await record("platform-openapi", .GET, "/openapi.json", keepsBody: false)
        _ = try await record("platform-client-config", .GET, "/api/client-config")
        _ = try await record("platform-dev-outbox-closed", .GET, "/dev/outbox")
        _ = try await record("platform-realtime-not-websocket", .GET, "/api/realtime")

        // Signing up, in and out.
        let registered = try await record(
            "account-register", .POST, "/api/account",
            json: [
                "first_name": "Ada", "last_name": "Lovelace", "username": "ada", "email": "ada@example.org",
                "password": .string(password), "password_confirmation": .string(password), "session": "token",
                "units": ["distance": "km", "temperature": "C", "elevation": "m"],
            ])
        let ada = try registered.decoded(SessionResponse.self)
        let token = try #require(ada.token)
        _ = try await record("account-register-invalid", .POST, "/api/account", json: ["role": "admin"])
        _ = try await record("account-register-incomplete", .POST, "/api/account", json: ["username": "a"])
        _ = try await record(
            "account-register-not-json", .POST, "/api/account", headers: ["Content-Type": "text/plain"],
            body: ByteBuffer(string: "ada"))
        _ = try await record(
            "account-email-verification-unknown", .POST, "/api/account/email-verification", json: ["token": "nope"])
        let login = try await record(
            "session-login", .POST, "/api/session",
            json: ["login": "ada", "password": .string(password), "session": "token"])
        let second = try #require(try login.decoded(SessionResponse.self).token)
        _ = try await record(
            "session-login-wrong", .POST, "/api/session", json: ["login": "ada", "password": "Wrong-Pass-1!"])
        _ = try await record("session-login-incomplete", .POST, "/api/session", json: [:])
        _ = try await record("session-logout", .DELETE, "/api/session", token: second)

        // The account and its profile.
        _ = try await record("account-show", .GET, "/api/account", token: token)
        _ = try await record("account-show-guest", .GET, "/api/account")
        _ = try await record(
            "account-profile", .PUT, "/api/account/profile",
            json: [
                "first_name": "Ada", "last_name": "King", "about_me": "Runs before work.", "age": 36,
                "weight_kg": 60.5, "height_cm": 168,
                "units": ["distance": "mi", "temperature": "F", "elevation": "ft"],
            ], token: token)
        _ = try await record(
            "account-profile-invalid", .PUT, "/api/account/profile",
            json: ["first_name": "", "last_name": "King", "age": 7, "units": "metric"], token: token)
        _ = try await record(
            "account-username", .PUT, "/api/account/username",
            json: ["username": "ada-k", "current_password": .string(password)], token: token)
        _ = try await record(
            "account-username-wrong-password", .PUT, "/api/account/username",
            json: ["username": "ada-l", "current_password": "Wrong-Pass-1!"], token: token)
        let newPassword = "Hill-Repeat-77!"
        _ = try await record(
            "account-password", .PUT, "/api/account/password",
            json: [
                "current_password": .string(password), "new_password": .string(newPassword),
                "new_password_confirmation": .string(newPassword),
            ], token: token)

        // The profile picture.
        var png = HTTPHeaders()
        png.contentType = .png
        let picture = try TestImages.png(width: 8, height: 8)
        _ = try await record(
            "account-avatar-upload", .PUT, "/api/account/avatar", token: token, headers: png,
            body: ByteBuffer(bytes: picture))
        _ = try await record(
            "account-avatar-upload-unsupported", .PUT, "/api/account/avatar", token: token, headers: png,
            body: ByteBuffer(string: "GIF89a not a picture we take"))
        _ = try await record("account-avatar-show", .GET, "/api/users/\(ada.account.id)/avatar")
        _ = try await record("account-avatar-remove", .DELETE, "/api/account/avatar", token: token)
        _ = try await record("account-avatar-show-none", .GET, "/api/users/\(ada.account.id)/avatar")

        // Forgotten password.
        _ = try await record("password-reset-request", .POST, "/api/password-reset", json: ["email": "ada@example.org"])
        _ = try await record("password-reset-request-invalid", .POST, "/api/password-reset", json: ["email": "ada"])
        let code = try harness.resetCode(for: "ada@example.org")
        let wrongCode = code == "000000" ? "111111" : "000000"
        _ = try await record(
            "password-reset-verify-wrong", .POST, "/api/password-reset/verify",
            json: ["email": "ada@example.org", "code": .string(wrongCode)])
        let verified = try await record(
            "password-reset-verify", .POST, "/api/password-reset/verify",
            json: ["email": "ada@example.org", "code": .string(code)])
        let resetToken = try verified.decoded(PasswordResetVerified.self).resetToken
        _ = try await record(
            "password-reset-complete-weak", .POST, "/api/password-reset/complete",
            json: [
                "reset_token": .string(resetToken), "new_password": "short", "new_password_confirmation": "short",
            ])
        _ = try await record(
            "password-reset-complete", .POST, "/api/password-reset/complete",
            json: [
                "reset_token": .string(resetToken), "new_password": .string(password),
                "new_password_confirmation": .string(password),
            ])
        _ = try await record(
            "password-reset-complete-used", .POST, "/api/password-reset/complete",
            json: [
                "reset_token": .string(resetToken), "new_password": .string(password),
                "new_password_confirmation": .string(password),
            ])
        let user = try await harness.logIn("ada-k", password: password)

        // Streets.
        _ = try await record("streets-extent", .GET, "/api/streets")
        _ = try await record("streets-layer", .GET, "/api/streets/layer?bbox=24.9370,60.1690,24.9400,60.1705")
        _ = try await record("streets-layer-invalid", .GET, "/api/streets/layer?bbox=25,60,24,61")
        _ = try await record(
            "streets-suggestions", .GET, "/api/streets/suggestions?q=aleksanterin&lat=\(lat)&lon=\(lon)")
        _ = try await record("streets-suggestions-invalid", .GET, "/api/streets/suggestions?limit=500")
        _ = try await record("streets-landmarks", .GET, "/api/streets/landmarks?lat=\(lat)&lon=\(lon)&radius_m=300")
        _ = try await record(
            "streets-route", .GET, "/api/streets/route?from=\(lat),\(lon)&to=60.1710,24.9450")
        _ = try await record("streets-route-invalid", .GET, "/api/streets/route?from=north")
        let basemap = try await record("streets-basemap", .GET, "/api/streets/basemap")
        let version = try basemap.decoded(BasemapInfo.self).version
        _ = try await record(
            "streets-basemap-tile", .GET, "/api/streets/basemap/\(version)/16/37310/18970.mvt",
            headers: ["Accept-Encoding": "gzip"])
        _ = try await record("streets-basemap-tile-gone", .GET, "/api/streets/basemap/0badc0de/3/4/2.mvt")
        _ = try await record("streets-basemap-tile-invalid", .GET, "/api/streets/basemap/\(version)/-1/x/2.mvt")

        // Runs.
        _ = try await record("runs-plan", .POST, "/api/runs/plan", json: ["start": point, "distance_km": 3, "seed": 7])
        _ = try await record("runs-plan-invalid", .POST, "/api/runs/plan", json: ["start": "here", "distance_km": 50])
        _ = try await record("runs-landmarks", .GET, "/api/runs/landmarks?lat=\(lat)&lon=\(lon)&distance_km=3")
        _ = try await record("runs-landmarks-invalid", .GET, "/api/runs/landmarks?lat=\(lat)")
        let body: [String: JSONValue] = [
            "distance_km": 4, "sheltered": false, "length_m": .number(square.pathLengthMeters), "sheltered_m": 0,
            "geometry": [
                "type": "LineString",
                "coordinates": .array(square.map { [.number($0.longitude), .number($0.latitude)] }),
            ],
        ]
        let saved = try await record("runs-planned-save", .POST, "/api/runs/planned", json: body, token: user)
        let runID = try saved.decoded(PlannedRunDetail.self).summary.id
        _ = try await record("runs-planned-save-guest", .POST, "/api/runs/planned", json: body)
        _ = try await record(
            "runs-planned-save-invalid", .POST, "/api/runs/planned", json: ["distance_km": 4], token: user)
        _ = try await record("runs-planned-list", .GET, "/api/runs/planned", token: user)
        _ = try await record("runs-planned-show", .GET, "/api/runs/planned/\(runID)", token: user)
        _ = try await record("runs-planned-delete", .DELETE, "/api/runs/planned/\(runID)", token: user)
        _ = try await record("runs-planned-show-gone", .GET, "/api/runs/planned/\(runID)", token: user)

        // Weather.
        _ = try await record("weather-nowcast", .GET, "/api/weather/nowcast?lat=\(lat)&lon=\(lon)")
        _ = try await record("weather-current", .GET, "/api/weather/current?lat=\(lat)&lon=\(lon)&temperature=F")
        _ = try await record("weather-forecast", .GET, "/api/weather/forecast?lat=\(lat)&lon=\(lon)&days=3")
        _ = try await record("weather-forecast-invalid", .GET, "/api/weather/forecast?lat=95&days=9")

        // Administration.
        _ = try await harness.cairn.accounts.administration.create(
            .init(
                username: "root-ann", email: "ann@example.org", firstName: "Ann", lastName: "Admin",
                password: "Summit-Key-9!", role: .admin),
            on: harness.app.db)
        let admin = try await harness.logIn("root-ann", password: "Summit-Key-9!")
        _ = try await record("admin-users", .GET, "/api/admin/users", token: admin)
        _ = try await record("admin-users-forbidden", .GET, "/api/admin/users", token: user)
        _ = try await record(
            "admin-role", .PUT, "/api/admin/users/\(ada.account.id)/role", json: ["role": "researcher"], token: admin)
        _ = try await record(
            "admin-role-invalid", .PUT, "/api/admin/users/\(ada.account.id)/role", json: ["role": "wizard"],
            token: admin)

        // The field guide, as a researcher: ada was made one above, so she signs in again.
        try await harness.cairn.flora.seedDemo(on: harness.app.db)
        let researcher = try await harness.logIn("ada-k", password: password)
        _ = try await record("flora-species", .GET, "/api/flora/species?filter=flower-color-pink&limit=2")
        _ = try await record("flora-species-invalid", .GET, "/api/flora/species?limit=0&offset=-1")
        _ = try await record("flora-species-show", .GET, "/api/flora/species/silene-acaulis")
        _ = try await record("flora-species-unknown", .GET, "/api/flora/species/no-such-plant")
        _ = try await record("flora-catalogue", .GET, "/api/flora/catalogue")
        let observationID = "6B1D4C8E-2F3A-4B5C-8D9E-0A1B2C3D4E5F"
        let observation: [String: JSONValue] = [
            "species_id": "silene-acaulis", "latitude": 40.0552, "longitude": -105.5905, "accuracy_m": 6,
            "observed_at": "2026-04-30T10:30:00Z", "comment": "Cushion in full bloom",
            "photo": .string(Data(try TestImages.png(width: 8, height: 8)).base64EncodedString()),
        ]
        _ = try await record(
            "flora-observation-upload", .PUT, "/api/flora/observations/\(observationID)", json: observation,
            token: researcher)
        _ = try await record(
            "flora-observation-upload-invalid", .PUT, "/api/flora/observations/\(observationID)",
            json: ["species_id": "no-such-plant", "latitude": 91, "observed_at": "yesterday"], token: researcher)
        _ = try await record("flora-observations-mine", .GET, "/api/flora/observations", token: researcher)
        _ = try await record("flora-observation-show", .GET, "/api/flora/observations/\(observationID)")
        _ = try await record(
            "flora-observation-photo", .GET, "/api/flora/observations/\(observationID)/photo", keepsBody: false)
        _ = try await record(
            "flora-observation-thumbnail", .GET, "/api/flora/observations/\(observationID)/thumbnail",
            keepsBody: false)
        _ = try await record("flora-species-image", .GET, "/api/flora/species/silene-acaulis/image", keepsBody: false)
        _ = try await record("flora-export", .GET, "/api/flora/export/dwca.zip", keepsBody: false)
        var csv = HTTPHeaders()
        csv.contentType = HTTPMediaType(type: "multipart", subType: "form-data", parameters: ["boundary": "cairn"])
        _ = try await record(
            "flora-import-unreadable", .POST, "/api/flora/import", token: researcher, headers: csv,
            body: ByteBuffer(string: "--cairn--\r\n"))
        _ = try await record("flora-review", .GET, "/api/flora/review", token: researcher)
        _ = try await record(
            "flora-verification", .POST, "/api/flora/observations/\(observationID)/verification",
            json: ["status": "verified"], token: researcher)
        _ = try await record(
            "flora-verification-invalid", .POST, "/api/flora/observations/\(observationID)/verification",
            json: ["status": "rejected"], token: researcher)
        _ = try await record(
            "flora-species-map", .GET, "/api/flora/species/silene-acaulis/observations?bbox=-105.7,39.9,-105.4,40.2")
        _ = try await record(
            "flora-species-map-invalid", .GET, "/api/flora/species/silene-acaulis/observations?bbox=1,2")
        _ = try await record(
            "flora-observation-delete", .DELETE, "/api/flora/observations/\(observationID)", token: researcher)

        // Activities: a run around the square, recorded on the phone.
        let activityID = "3F2E1D0C-9B8A-4765-8432-10FEDCBA9876"
        let activity: [String: JSONValue] = [
            "id": .string(activityID), "kind": "run", "name": "Square loop", "started_at": "2026-04-30T07:30:00Z",
            "elapsed_s": 1_210, "moving_s": 1_200, "distance_m": .number(square.pathLengthMeters.rounded()),
            "steps": 3_600, "rating": 4, "outcome": "finished",
            "track": [
                "polyline": .string(Polyline.encode(square, precision: 6)),
                "times": [0, 3_000, 3_000, 3_000, 3_000],
            ],
        ]
        _ = try await record("activities-save", .POST, "/api/activities", json: activity, token: researcher)
        _ = try await record("activities-save-again", .POST, "/api/activities", json: activity, token: researcher)
        _ = try await record("activities-save-guest", .POST, "/api/activities", json: activity)
        _ = try await record(
            "activities-save-invalid", .POST, "/api/activities",
            json: ["id": "nope", "kind": "swim", "elapsed_s": -1], token: researcher)
        _ = try await record("activities-list", .GET, "/api/activities?sort=name", token: researcher)
        _ = try await record("activities-list-invalid", .GET, "/api/activities?sort=speed&limit=0", token: researcher)
        _ = try await record("activities-show", .GET, "/api/activities/\(activityID)", token: researcher)
        _ = try await record(
            "activities-show-public", .GET, "/api/activities/\(activityID)?visibility=public", token: researcher)
        _ = try await record(
            "activities-gpx", .GET, "/api/activities/\(activityID).gpx", token: researcher, keepsBody: false)
        _ = try await record(
            "activities-image", .GET, "/api/activities/\(activityID)/image", token: researcher, keepsBody: false)
        var gpx = HTTPHeaders()
        gpx.contentType = HTTPMediaType(type: "application", subType: "gpx+xml")
        let gpxFile = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Cairn contract" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><name>Imported square</name><trkseg>
            \(square.enumerated().map { index, point in
                "<trkpt lat=\"\(point.latitude)\" lon=\"\(point.longitude)\"><time>2026-04-29T07:\(10 + 5 * index):00Z</time></trkpt>"
            }.joined(separator: "\n"))
            </trkseg></trk></gpx>
            """
        _ = try await record(
            "activities-import", .POST, "/api/activities/import?kind=run", token: researcher, headers: gpx,
            body: ByteBuffer(string: gpxFile))
        _ = try await record(
            "activities-import-invalid", .POST, "/api/activities/import", token: researcher, headers: gpx,
            body: ByteBuffer(string: "<gpx"))
        _ = try await record("activities-privacy", .GET, "/api/activities/privacy", token: researcher)
        _ = try await record(
            "activities-privacy-set", .PUT, "/api/activities/privacy", json: ["home": point, "radius_m": 300],
            token: researcher)
        _ = try await record(
            "activities-privacy-invalid", .PUT, "/api/activities/privacy", json: ["radius_m": 50], token: researcher)
        _ = try await record(
            "activities-route", .POST, "/api/activities/route",
            json: [
                "geometry": [
                    "type": "LineString",
                    "coordinates": .array(square.map { [.number($0.longitude), .number($0.latitude)] }),
                ]
            ])
        _ = try await record("activities-route-invalid", .POST, "/api/activities/route", json: ["geometry": "here"])
        _ = try await record("activities-delete", .DELETE, "/api/activities/\(activityID)", token: researcher)
        _ = try await record("activities-show-gone", .GET, "/api/activities/\(activityID)", token: researcher)

        // Community: people, friends, messages, reviews (docs/community.md).
        let bo = try await harness.register("boris")
        let cy = try await harness.register("cyril")
        _ = try await record("community-people-search", .GET, "/api/people?q=b", token: user)
        _ = try await record("community-people-search-invalid", .GET, "/api/people?q=", token: user)
        let asked = try await record(
            "community-friend-request", .POST, "/api/friends/requests", json: ["username": "boris"], token: user)
        let requestID = try #require(try asked.decoded(FriendRequestOutcome.self).request?.id)
        _ = try await record(
            "community-friend-request-incomplete", .POST, "/api/friends/requests", json: [:], token: user)
        _ = try await record("community-friends", .GET, "/api/friends", token: bo.token)
        _ = try await record(
            "community-friend-accept", .POST, "/api/friends/requests/\(requestID)/accept", token: bo.token)
        _ = try await record(
            "community-friend-accept-unknown", .POST, "/api/friends/requests/\(UUID())/accept", token: bo.token)
        _ = try await record("community-person", .GET, "/api/people/boris", token: user)
        _ = try await record("community-person-unknown", .GET, "/api/people/nobody", token: user)
        let cyAsked = try await harness.send(.POST, "/api/friends/requests", json: ["username": "cyril"], token: user)
        let cyRequest = try #require(try cyAsked.decoded(FriendRequestOutcome.self).request?.id)
        _ = try await harness.send(.POST, "/api/friends/requests/\(cyRequest)/accept", token: cy.token)
        let threadID = UUID(uuidString: "00000000-0000-4000-8000-000000000019")!
        _ = try await record(
            "community-thread-create", .POST, "/api/threads",
            json: ["id": .string(threadID.uuidString), "members": [.string(bo.id.uuidString)]], token: user)
        _ = try await record(
            "community-thread-create-invalid", .POST, "/api/threads", json: ["members": []], token: user)
        let messageID = UUID(uuidString: "00000000-0000-4000-8000-000000000020")!
        _ = try await record(
            "community-message-send", .POST, "/api/threads/\(threadID)/messages",
            json: ["id": .string(messageID.uuidString), "text": "Lakeside loop at 9?"], token: user)
        _ = try await record(
            "community-message-send-invalid", .POST, "/api/threads/\(threadID)/messages", json: [:], token: user)
        _ = try await record("community-threads", .GET, "/api/threads", token: bo.token)
        _ = try await record("community-messages", .GET, "/api/threads/\(threadID)/messages?after=0", token: bo.token)
        _ = try await record("community-messages-unknown", .GET, "/api/threads/\(UUID())/messages", token: bo.token)
        _ = try await record(
            "community-message-edit", .PATCH, "/api/threads/\(threadID)/messages/\(messageID)",
            json: ["text": "Lakeside loop at 10?"], token: user)
        _ = try await record(
            "community-message-edit-not-author", .PATCH, "/api/threads/\(threadID)/messages/\(messageID)",
            json: ["text": "No"], token: bo.token)
        _ = try await record(
            "community-message-report", .POST, "/api/threads/\(threadID)/messages/\(messageID)/reports",
            json: ["reason": "Testing the report"], token: bo.token)
        _ = try await record(
            "community-thread-read", .POST, "/api/threads/\(threadID)/read", json: ["seq": 1], token: bo.token)
        _ = try await record(
            "community-message-delete", .DELETE, "/api/threads/\(threadID)/messages/\(messageID)", token: user)
        _ = try await record(
            "community-thread-invite", .POST, "/api/threads/\(threadID)/members",
            json: ["members": [.string(cy.id.uuidString)]], token: user)
        _ = try await record(
            "community-thread-remove", .DELETE, "/api/threads/\(threadID)/members/\(cy.id)", token: user)
        _ = try await record(
            "community-thread-remove-last-other", .DELETE, "/api/threads/\(threadID)/members/\(bo.id)", token: user)
        let review = try await record(
            "community-review-save", .PUT, "/api/reviews/community:general",
            json: ["rating": 4, "text": "Friendly people, well kept paths."], token: user)
        let reviewID = try review.decoded(ReviewInfo.self).id
        _ = try await record(
            "community-review-save-invalid", .PUT, "/api/reviews/community:general", json: ["rating": 9], token: user)
        _ = try await record("community-reviews", .GET, "/api/reviews?subject=community:general", token: bo.token)
        _ = try await record("community-reviews-invalid", .GET, "/api/reviews?subject=nowhere")
        _ = try await record(
            "community-review-vote", .POST, "/api/reviews/\(reviewID)/votes", json: ["vote": "accurate"],
            token: bo.token)
        _ = try await record(
            "community-review-report", .POST, "/api/reviews/\(reviewID)/reports", json: ["reason": "Testing"],
            token: bo.token)
        _ = try await record("community-review-delete", .DELETE, "/api/reviews/community:general", token: user)
        let boAsked = try await harness.send(
            .POST, "/api/friends/requests", json: ["username": "cyril"], token: bo.token)
        let boRequest = try #require(try boAsked.decoded(FriendRequestOutcome.self).request?.id)
        _ = try await record("community-friend-decline", .DELETE, "/api/friends/requests/\(boRequest)", token: cy.token)
        _ = try await record("community-friend-remove", .DELETE, "/api/friends/\(bo.id)", token: user)
        _ = try await record("community-block", .POST, "/api/blocks", json: ["username": "cyril"], token: bo.token)
        _ = try await record("community-unblock", .DELETE, "/api/blocks/\(cy.id)", token: bo.token)
        // Forums: a topic with a photo and a pin, a comment, a report, deletions.
        let topicID = UUID()
        _ = try await record(
            "community-forum-topic-create", .POST, "/api/forums/community:best-moments/topics",
            json: [
                "id": .string(topicID.uuidString), "title": "First snow on the ridge", "text": "Taken this morning.",
                "photo": .string(Data(TestImages.jpegWithMetadata()).base64EncodedString()),
                "pin": ["lat": 60.1699, "lon": 24.9384],
            ], token: user)
        _ = try await record(
            "community-forum-topic-create-invalid", .POST, "/api/forums/community:best-moments/topics",
            json: ["title": ""], token: user)
        _ = try await record("community-forum-topics", .GET, "/api/forums/community:best-moments/topics")
        _ = try await record("community-forum-topics-unknown", .GET, "/api/forums/community:nowhere/topics")
        let forumComment = try await record(
            "community-forum-comment", .POST, "/api/forum-topics/\(topicID)/posts",
            json: ["id": .string(UUID().uuidString), "text": "Beautiful!"], token: bo.token)
        let commentID = try forumComment.decoded(ForumPostInfo.self).id
        _ = try await record(
            "community-forum-comment-invalid", .POST, "/api/forum-topics/\(topicID)/posts",
            json: ["id": .string(UUID().uuidString)], token: bo.token)
        _ = try await record("community-forum-topic", .GET, "/api/forum-topics/\(topicID)")
        _ = try await record("community-forum-topic-unknown", .GET, "/api/forum-topics/\(UUID())")
        _ = try await record(
            "community-forum-photo", .GET, "/api/forum-posts/\(topicID)/photo", keepsBody: false)
        _ = try await record(
            "community-forum-report", .POST, "/api/forum-posts/\(topicID)/reports", json: ["reason": "Testing"],
            token: bo.token)
        _ = try await record(
            "community-forum-delete-not-author", .DELETE, "/api/forum-posts/\(commentID)", token: user)
        _ = try await record("community-forum-delete", .DELETE, "/api/forum-posts/\(commentID)", token: bo.token)
        // Live location and groups: bo (already a friend of the user's) shares with the user, sends a position, stops.
        let userID = ada.account.id.uuidString
        _ = try await harness.send(.POST, "/api/friends/requests", json: ["username": "boris"], token: user)
        let boFriends = try await harness.send(.GET, "/api/friends", token: bo.token).decoded(FriendsOverview.self)
        if let waiting = boFriends.received.first?.id {
            _ = try await harness.send(.POST, "/api/friends/requests/\(waiting)/accept", token: bo.token)
        }
        _ = try await record("community-location-share-off", .GET, "/api/location/share", token: bo.token)
        _ = try await record(
            "community-location-position-not-sharing", .PUT, "/api/location/position",
            json: ["lat": 60.1699, "lon": 24.9384], token: bo.token)
        let groupID = UUID()
        _ = try await record(
            "community-group-create", .POST, "/api/groups",
            json: ["id": .string(groupID.uuidString), "name": "Weekend walkers", "members": [.string(userID)]],
            token: bo.token)
        _ = try await record("community-group-create-invalid", .POST, "/api/groups", json: [:], token: bo.token)
        _ = try await record("community-groups", .GET, "/api/groups", token: user)
        _ = try await record("community-group-join", .POST, "/api/groups/\(groupID)/join", token: user)
        _ = try await record(
            "community-group-invite-invalid", .POST, "/api/groups/\(groupID)/members", json: ["members": []],
            token: bo.token)
        _ = try await record(
            "community-location-share", .PUT, "/api/location/share",
            json: ["friends": [.string(userID)], "groups": [.string(groupID.uuidString)], "minutes": 60],
            token: bo.token)
        _ = try await record(
            "community-location-share-invalid", .PUT, "/api/location/share", json: ["minutes": 5], token: bo.token)
        _ = try await record(
            "community-location-position", .PUT, "/api/location/position",
            json: ["lat": 60.1699, "lon": 24.9384, "accuracy_m": 8], token: bo.token)
        _ = try await record("community-location-friends", .GET, "/api/location/friends", token: user)
        _ = try await record("community-location-stop", .DELETE, "/api/location/share", token: bo.token)
        _ = try await record(
            "community-group-leave", .DELETE, "/api/groups/\(groupID)/members/\(userID)", token: user)
        // Moderation: the admin's queue and a decision.
        _ = try await record("community-moderation-queue", .GET, "/api/moderation/reports", token: admin)
        _ = try await record("community-moderation-queue-forbidden", .GET, "/api/moderation/reports", token: user)
        _ = try await record(
            "community-moderation-decision", .POST, "/api/moderation/post/\(topicID)/decision",
            json: ["action": "hide", "reason": "Testing the queue."], token: admin)
        _ = try await record(
            "community-moderation-decision-invalid", .POST, "/api/moderation/post/\(topicID)/decision",
            json: ["action": "hide"], token: admin)
        // Campus parking: the demo campus, a gateway for lot P5, a guest holding a spot, a driver's permits and
        // schedule.
        try await harness.cairn.parking.seedDemo(on: harness.app.db)
        let gateway = try await harness.cairn.parking.gateways.create(
            name: "contract", lots: ["P5"], on: harness.app.db)
        var gatewayAuth = HTTPHeaders()
        gatewayAuth.bearerAuthorization = BearerAuthorization(token: gateway.secret)
        let lots = try await record("parking-lots", .GET, "/api/parking/lots")
        let lotList = try lots.decoded(ParkingLotList.self)
        let p5 = try #require(lotList.lots.first { $0.code == "P5" })
        let detail = try await record("parking-lot", .GET, "/api/parking/lots/\(p5.id)")
        _ = try await record("parking-lot-unknown", .GET, "/api/parking/lots/\(UUID())")
        _ = try await record("parking-typical", .GET, "/api/parking/lots/\(p5.id)/typical?weekday=2")
        _ = try await record("parking-typical-invalid", .GET, "/api/parking/lots/\(p5.id)/typical?weekday=9")
        _ = try await record("parking-gateway", .GET, "/api/parking/gateway", headers: gatewayAuth)
        let at = JSONValue.string(harness.clock.now.formatted(.iso8601))
        _ = try await record(
            "parking-events", .POST, "/api/parking/events",
            json: [
                "events": [
                    [
                        "id": "8E9A3C5B-1D2F-4A6B-9C8D-7E6F5A4B3C21", "sensor": "fresno-p5-001", "occupied": true,
                        "at": at,
                    ]
                ]
            ], headers: gatewayAuth)
        _ = try await record(
            "parking-events-refused", .POST, "/api/parking/events",
            json: [
                "events": [
                    [
                        "id": "1B2C3D4E-5F60-4718-8293-A4B5C6D7E8F9", "sensor": "fresno-p6-001", "occupied": true,
                        "at": at,
                    ],
                    [
                        "id": "2B2C3D4E-5F60-4718-8293-A4B5C6D7E8F9", "sensor": "nobody-knows", "occupied": true,
                        "at": at,
                    ],
                ]
            ], headers: gatewayAuth)
        _ = try await record("parking-events-invalid", .POST, "/api/parking/events", json: [:], headers: gatewayAuth)
        _ = try await record(
            "parking-events-unauthorized", .POST, "/api/parking/events", json: ["events": []],
            headers: ["Authorization": "Bearer pgw_wrong"])
        var ttnAuth = HTTPHeaders()
        ttnAuth.replaceOrAdd(name: "X-Gateway-Secret", value: gateway.secret)
        _ = try await record(
            "parking-ttn", .POST, "/api/parking/ttn",
            json: [
                "end_device_ids": ["device_id": "fresno-p5-002"], "received_at": at,
                "uplink_message": ["f_cnt": 7, "decoded_payload": ["occupied": true], "received_at": at],
            ], headers: ttnAuth)
        let spots = try detail.decoded(ParkingLotDetail.self).spots
        let free = try #require(spots.first { $0.label == "P5-010" })
        let held = try await record(
            "parking-hold", .POST, "/api/parking/spots/\(free.id)/hold",
            json: ["device": "0A1B2C3D-4E5F-4061-8273-94A5B6C7D8E9"])
        _ = try await record(
            "parking-hold-taken", .POST, "/api/parking/spots/\(free.id)/hold",
            json: ["device": "1A1B2C3D-4E5F-4061-8273-94A5B6C7D8E9"])
        _ = try await record("parking-live", .GET, "/api/parking/live")
        let grant = try held.decoded(ParkingHoldGrant.self)
        var holdAuth = HTTPHeaders()
        holdAuth.replaceOrAdd(name: "X-Hold-Token", value: grant.token)
        _ = try await record("parking-hold-show", .GET, "/api/parking/holds/\(grant.hold.id)", headers: holdAuth)
        _ = try await record(
            "parking-hold-answer-early", .POST, "/api/parking/holds/\(grant.hold.id)/answer", json: ["was_me": true],
            headers: holdAuth)
        _ = try await record("parking-hold-release", .DELETE, "/api/parking/holds/\(grant.hold.id)", headers: holdAuth)
        _ = try await record("parking-permits-guest", .GET, "/api/parking/permits")
        _ = try await record(
            "parking-permits-set", .PUT, "/api/parking/permits", json: ["permits": ["green", "black"]], token: user)
        _ = try await record("parking-permits", .GET, "/api/parking/permits", token: user)
        _ = try await record(
            "parking-permits-invalid", .PUT, "/api/parking/permits", json: ["permits": ["gold"]], token: user)
        _ = try await record(
            "parking-schedule-set", .PUT, "/api/parking/schedule",
            json: [
                "blocks": [
                    [
                        "id": "5C6D7E8F-9A0B-4C1D-8E2F-3A4B5C6D7E8F", "weekday": 1, "start_minute": 480,
                        "end_minute": 720, "lot_id": .string(p5.id.uuidString),
                    ]
                ]
            ], token: user)
        _ = try await record("parking-schedule", .GET, "/api/parking/schedule", token: user)
        _ = try await record(
            "parking-schedule-invalid", .PUT, "/api/parking/schedule",
            json: ["blocks": [["weekday": 8, "start_minute": 15, "end_minute": 10]]], token: user)
        _ = try await record("parking-feed-none", .GET, "/api/parking/schedule/feed", token: user)
        let feed = try await record(
            "parking-feed-create", .POST, "/api/parking/schedule/feed", token: user, keepsBody: false)
        let feedPath = try #require(try feed.decoded(ParkingCalendarFeed.self).url.flatMap { URL(string: $0)?.path })
        _ = try await record("parking-calendar", .GET, feedPath)
        // The address's secret changes from run to run.
        exchanges[exchanges.count - 1].path = "/api/parking/calendar/<secret>.ics"
        _ = try await record("parking-feed-revoke", .DELETE, "/api/parking/schedule/feed", token: user)
        _ = try await record("parking-calendar-revoked", .GET, feedPath)
        exchanges[exchanges.count - 1].path = "/api/parking/calendar/<secret>.ics"

        // Trails: an admin uploads two trails (GeoJSON with demo facts, then GPX), the catalogue, the map, a
        // trail's page and GPX, favourites, scavenger ticks, an admin's edit, and the refusals.
        let trailFile = """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"Seurasaari shore",
            "city":"Helsinki","region":"Uusimaa"},"geometry":{"type":"LineString","coordinates":[[24.880,60.185,5],
            [24.884,60.187,12],[24.889,60.186,8]]}}]}
            """
        var geoJSON = HTTPHeaders()
        geoJSON.contentType = HTTPMediaType(type: "application", subType: "geo+json")
        _ = try await record(
            "trails-import-forbidden", .POST, "/api/trails/import", token: user, headers: geoJSON,
            body: ByteBuffer(string: trailFile))
        let trailImport = try await record(
            "trails-import", .POST, "/api/trails/import?demo=true", token: admin, headers: geoJSON,
            body: ByteBuffer(string: trailFile))
        let trailID = try trailImport.decoded(TrailImportResult.self).trails[0].id
        _ = try await record(
            "trails-import-refused", .POST, "/api/trails/import", token: admin, headers: geoJSON,
            body: ByteBuffer(string: #"{"type":"LineString","coordinates":[[24.9,60.2]]}"#))
        _ = try await record("trails-list", .GET, "/api/trails?q=seurasaari&difficulty=easy")
        _ = try await record("trails-list-invalid", .GET, "/api/trails?difficulty=extreme&sort=distance")
        _ = try await record(
            "trails-map", .GET, "/api/trails?bbox=24.85,60.15,24.95,60.26&zoom=14&pois=scenic_overlook,waterfall")
        _ = try await record("trails-favourite", .PUT, "/api/trails/\(trailID)/favourite", token: user)
        _ = try await record("trails-favourite-guest", .PUT, "/api/trails/\(trailID)/favourite")
        _ = try await record("trails-favourites", .GET, "/api/trails/favourites", token: user)
        _ = try await record(
            "trails-scavenger-check", .PUT, "/api/trails/\(trailID)/scavenger/red-squirrel", token: user)
        _ = try await record("trails-scavenger-unknown", .PUT, "/api/trails/\(trailID)/scavenger/unicorn", token: user)
        _ = try await record("trails-detail", .GET, "/api/trails/\(trailID)", token: user)
        _ = try await record("trails-detail-unknown", .GET, "/api/trails/\(UUID())")
        _ = try await record("trails-gpx", .GET, "/api/trails/\(trailID).gpx", keepsBody: false)
        _ = try await record(
            "trails-edit", .PATCH, "/api/trails/\(trailID)",
            json: ["hunting_area": true, "hunting_notice": "Deer hunting in October.", "amenities": ["restrooms"]],
            token: admin)
        _ = try await record(
            "trails-edit-invalid", .PATCH, "/api/trails/\(trailID)", json: ["difficulty": "extreme"], token: admin)
        _ = try await record("trails-edit-forbidden", .PATCH, "/api/trails/\(trailID)", json: [:], token: user)
        let trailPhoto: [String: JSONValue] = [
            "photo": .string(Data(try TestImages.png(width: 8, height: 8)).base64EncodedString())
        ]
        let photoUpload = try await record(
            "trails-photo-upload", .PUT, "/api/trails/\(trailID)/photos/trailhead", json: trailPhoto, token: admin)
        let trailheadPhoto = try photoUpload.decoded(TrailPhoto.self)
        _ = try await record(
            "trails-photo-upload-forbidden", .PUT, "/api/trails/\(trailID)/photos/safety.0", json: trailPhoto,
            token: user)
        _ = try await record(
            "trails-photo-upload-invalid", .PUT, "/api/trails/\(trailID)/photos/safety.0",
            json: ["photo": .string(Data("GIF89a".utf8).base64EncodedString())], token: admin)
        _ = try await record(
            "trails-photo-upload-unknown-place", .PUT, "/api/trails/\(trailID)/photos/summit", json: trailPhoto,
            token: admin)
        _ = try await record("trails-photo", .GET, trailheadPhoto.url, keepsBody: false)
        _ = try await record("trails-photo-thumbnail", .GET, trailheadPhoto.thumbnailURL, keepsBody: false)
        _ = try await record("trails-photo-remove", .DELETE, "/api/trails/\(trailID)/photos/trailhead", token: admin)
        _ = try await record("trails-photo-removed", .GET, trailheadPhoto.url)
        _ = try await record(
            "trails-scavenger-uncheck", .DELETE, "/api/trails/\(trailID)/scavenger/red-squirrel", token: user)
        _ = try await record("trails-unfavourite", .DELETE, "/api/trails/\(trailID)/favourite", token: user)
        _ = try await record("trails-delete-forbidden", .DELETE, "/api/trails/\(trailID)", token: user)
        _ = try await record("trails-delete", .DELETE, "/api/trails/\(trailID)", token: admin)

        // Push notifications (last, so the clock of every exchange before stays as recorded): the key, a subscription (fixed keys: RFC 8291's example browser), switches.
        let pushSubscription: [String: JSONValue] = [
            "endpoint": "https://push.example.net/send/contract", "expirationTime": nil,
            "keys": [
                "p256dh": "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
                "auth": "BTBZMqHH6r4Tts7J_aSIgg",
            ],
        ]
        _ = try await record("push-key", .GET, "/api/push/key")
        _ = try await record("push-subscribe", .PUT, "/api/push/subscriptions", json: pushSubscription, token: user)
        _ = try await record(
            "push-subscribe-again", .PUT, "/api/push/subscriptions", json: pushSubscription, token: user)
        _ = try await record(
            "push-subscribe-invalid", .PUT, "/api/push/subscriptions",
            json: ["endpoint": "http://push.example.net/send/1", "keys": ["p256dh": "AAAA", "auth": "AAAA"]],
            token: user)
        _ = try await record("push-preferences", .GET, "/api/push/preferences", token: user)
        _ = try await record(
            "push-preferences-change", .PUT, "/api/push/preferences", json: ["kinds": ["messages": false]], token: user)
        _ = try await record(
            "push-preferences-invalid", .PUT, "/api/push/preferences", json: ["kinds": ["weather": true]], token: user)
        _ = try await record(
            "push-unsubscribe-unknown", .DELETE, "/api/push/subscriptions",
            json: ["endpoint": "https://push.example.net/send/nobody"], token: user)
        _ = try await record(
            "push-unsubscribe", .DELETE, "/api/push/subscriptions",
            json: ["endpoint": "https://push.example.net/send/contract"], token: user)

        // Ski mountains (after push, so the exchanges before keep their recorded clock): Nearby by distance and by
        // price, search, a mountain's page with the weather, favourites.
        try await harness.cairn.ski.seedDemo(on: harness.app.db)
        let skiNearby = try await record(
            "ski-mountains-nearby", .GET, "/api/ski/mountains?near=43.0226,-73.5437&radius_km=60")
        let mountainID = try #require(try skiNearby.decoded(SkiMountainList.self).mountains.first?.id)
        _ = try await record(
            "ski-mountains-by-price", .GET, "/api/ski/mountains?near=43.0226,-73.5437&radius_km=60&sort=price")
        _ = try await record("ski-mountains-search", .GET, "/api/ski/mountains?q=lard")
        _ = try await record("ski-mountains-search-none", .GET, "/api/ski/mountains?q=atlantis")
        _ = try await record("ski-mountains-invalid", .GET, "/api/ski/mountains?near=95,0&sort=cheapest")
        let skiPage = try await record("ski-mountain", .GET, "/api/ski/mountains/\(mountainID)", token: user)
        let pisteID = try #require(try skiPage.decoded(SkiMountainDetail.self).pistes.first?.id)
        let conditionReport: [String: JSONValue] = [
            "id": "3f2a1b6c-0d4e-4f5a-8b9c-1d2e3f4a5b6c", "piste_id": .string(pisteID.uuidString),
            "condition": "powder", "note": "Fresh snow overnight",
        ]
        _ = try await record(
            "ski-conditions-report", .POST, "/api/ski/mountains/\(mountainID)/conditions", json: conditionReport,
            token: user)
        _ = try await record(
            "ski-conditions-report-again", .POST, "/api/ski/mountains/\(mountainID)/conditions", json: conditionReport,
            token: user)
        _ = try await record(
            "ski-conditions-guest", .POST, "/api/ski/mountains/\(mountainID)/conditions", json: conditionReport)
        _ = try await record(
            "ski-conditions-invalid", .POST, "/api/ski/mountains/\(mountainID)/conditions",
            json: ["condition": "slushy"], token: user)
        _ = try await record("ski-mountain-unknown", .GET, "/api/ski/mountains/\(UUID())")
        _ = try await record("ski-favourite-guest", .PUT, "/api/ski/mountains/\(mountainID)/favourite")
        _ = try await record("ski-favourite", .PUT, "/api/ski/mountains/\(mountainID)/favourite", token: user)
        _ = try await record("ski-favourites", .GET, "/api/ski/favourites", token: user)
        _ = try await record("ski-unfavourite", .DELETE, "/api/ski/mountains/\(mountainID)/favourite", token: user)

        // Ski tutorials: the list by level for everyone; an admin adds (again: the same answer), edits and
        // deletes; a skier and a guest are refused, and so are bad fields and an unknown tutorial.
        _ = try await record("ski-tutorials", .GET, "/api/ski/tutorials")
        let tutorialID = UUID()
        let tutorial: [String: JSONValue] = [
            "id": .string(tutorialID.uuidString), "level": "beginner", "title": "Getting up after a fall",
            "url": "https://youtu.be/q3JkB7fW2aX",
        ]
        _ = try await record("ski-tutorial-add", .POST, "/api/ski/tutorials", json: tutorial, token: admin)
        _ = try await record("ski-tutorial-add-again", .POST, "/api/ski/tutorials", json: tutorial, token: admin)
        _ = try await record("ski-tutorial-add-forbidden", .POST, "/api/ski/tutorials", json: tutorial, token: user)
        _ = try await record("ski-tutorial-add-guest", .POST, "/api/ski/tutorials", json: tutorial)
        _ = try await record(
            "ski-tutorial-add-invalid", .POST, "/api/ski/tutorials",
            json: [
                "id": .string(UUID().uuidString), "level": "expert", "title": " ",
                "url": "http://www.youtube.com/watch?v=Cx8GJ0K1b4M",
            ], token: admin)
        _ = try await record(
            "ski-tutorial-edit", .PUT, "/api/ski/tutorials/\(tutorialID)",
            json: ["level": "beginner", "title": "Getting up", "url": "https://vimeo.com/76979871", "position": 0],
            token: admin)
        _ = try await record(
            "ski-tutorial-edit-unknown", .PUT, "/api/ski/tutorials/\(UUID())",
            json: ["level": "beginner", "title": "Getting up", "url": "https://vimeo.com/76979871"], token: admin)
        _ = try await record("ski-tutorial-delete", .DELETE, "/api/ski/tutorials/\(tutorialID)", token: admin)
        // The admin's mountain editor: the facts, a ticket price by its client id, a piste and a lift closed.
        let skiFacts: [String: JSONValue] = [
            "name": "Willard Mountain", "address": "77 Intervale Rd, Greenwich, NY 12834", "country": "US",
            "lat": 43.0226, "lon": -73.5437, "base_altitude_m": 314, "summit_altitude_m": 468,
            "website": "https://www.willardmountain.com", "piste_convention": "north_america",
        ]
        _ = try await record("ski-admin-edit", .PUT, "/api/ski/mountains/\(mountainID)", json: skiFacts, token: admin)
        _ = try await record(
            "ski-admin-edit-invalid", .PUT, "/api/ski/mountains/\(mountainID)",
            json: skiFacts.merging(["summit_altitude_m": 100, "website": "willard"]) { $1 }, token: admin)
        _ = try await record(
            "ski-admin-edit-forbidden", .PUT, "/api/ski/mountains/\(mountainID)", json: skiFacts, token: user)
        let skiPrice = "/api/ski/mountains/\(mountainID)/prices/5e0c9f7a-1b2c-4d3e-8f40-0a1b2c3d4e5f"
        let priceBody: [String: JSONValue] = [
            "kind": "night", "amount": "25.00", "currency": "USD", "season": "2025/26", "as_of": "2026-04-20",
            "source": "Ticket office sign",
        ]
        _ = try await record("ski-price-add", .PUT, skiPrice, json: priceBody, token: admin)
        _ = try await record(
            "ski-price-invalid", .PUT, skiPrice, json: priceBody.merging(["amount": "25,00"]) { $1 }, token: admin)
        _ = try await record("ski-price-delete", .DELETE, skiPrice, token: admin)
        _ = try await record(
            "ski-piste-close", .PATCH, "/api/ski/mountains/\(mountainID)/pistes/\(pisteID)",
            json: ["open": false, "grooming": "classic"], token: admin)
        let liftID = try #require(try skiPage.decoded(SkiMountainDetail.self).lifts.first?.id)
        _ = try await record(
            "ski-lift-close", .PATCH, "/api/ski/mountains/\(mountainID)/lifts/\(liftID)", json: ["open": false],
            token: admin)

        // A hidden sign-up's link, once it is dead.
        _ = try await record(
            "account-sign-up-confirmation-dead", .POST, "/api/account/sign-up-confirmation", json: ["token": "nope"])

        // Leaving.
        _ = try await record(
            "account-delete-wrong-password", .DELETE, "/api/account", json: ["current_password": "Wrong-Pass-1!"],
            token: user)
        _ = try await record(
            "account-delete", .DELETE, "/api/account", json: ["current_password": .string(password)], token: user)
        return exchanges
    }
}
