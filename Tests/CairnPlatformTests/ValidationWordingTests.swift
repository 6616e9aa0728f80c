import CairnAPI
import CairnTestSupport
import Foundation
import Testing

@testable import CairnPlatform

/// Every wording of the validation toolkit, in one list: the API says each of these the same way wherever the
/// field appears (ParameterWordingTests in CairnServerTests checks the same parameter across endpoints). A
/// change of wording changes this list — and the web app and the browser tests that show it.
@Suite struct ValidationWordingTests {
    @Test func theWordingOfEachKindOfField() {
        var input = RequestInput(json: [
            "first_name": "", "long_name": .string(String(repeating: "x", count: 51)), "nickname": "ab",
            "hidden": "Ada\u{7}", "bidi": "Ada\u{202E}", "line": "a\u{2028}b", "typed": 7,
            "distance_km": 31, "days": 8, "flag": "yes", "temperature": "K", "start": "here",
            "bbox": "10,10,5,5", "wide": "0,0,5,5", "id": "42", "at": "noon", "units": "metric", "role": 1,
        ])
        enum Role: String, CaseIterable { case user, researcher, admin }
        _ = input.text("first_name", label: "your first name", length: 1...50)
        _ = input.text("long_name", label: "your first name", length: 1...50)
        _ = input.text("nickname", label: "your nickname", length: 3...30)
        _ = input.text("hidden", label: "your first name")
        _ = input.text("bidi", label: "your first name")
        _ = input.text("line", label: "About Me", multiline: true)
        _ = input.text("typed", label: "your first name")
        _ = input.number("distance_km", in: 1...30)
        _ = input.number("weight_kg", in: 20...400)
        _ = input.integer("days", in: 1...7)
        _ = input.integer("age", in: 13...120)
        _ = input.boolean("flag", default: false)
        _ = input.choice("temperature", as: TemperatureUnit.self)
        _ = input.choice("role", as: Role.self)
        _ = input.choice("session", as: SessionTransport.self)
        _ = input.location()
        _ = input.point("start")
        _ = input.point("end")
        _ = input.box("bbox")
        _ = input.box("wide", maxSpanDegrees: 1)
        _ = input.box("area")
        _ = input.id("id")
        _ = input.id("user_id")
        _ = input.timestamp("at")
        _ = input.timestamp("since")
        _ = input.units("units")
        _ = input.secret("password", missing: "Choose a password.")

        let wordings = input.errors.map { "\($0.field): \($0.detail)" }

        #expect(
            wordings == [
                "first_name: Enter your first name.",
                "long_name: The first name can be at most 50 characters long (now 51).",
                "nickname: The nickname must be at least 3 characters long.",
                "hidden: The first name cannot contain control characters (U+0007).",
                "bidi: The first name cannot contain characters that change the direction of text (U+202E).",
                "line: About Me cannot contain line separators (U+2028).",
                "typed: The first name must be text.",
                "distance_km: distance_km must be a number from 1 to 30.",
                "weight_kg: weight_kg is required: a number from 20 to 400.",
                "days: days must be a whole number from 1 to 7.",
                "age: age is required: a whole number from 13 to 120.",
                "flag: flag must be true or false.",
                "temperature: temperature must be C or F.",
                "role: role must be user, researcher or admin.",
                "session: session is required: cookie or token.",
                "lat: lat is required: the latitude in decimal degrees.",
                "lon: lon is required: the longitude in decimal degrees.",
                "start: start must be a point {\"lat\": …, \"lon\": …} or a GeoJSON position [lon, lat].",
                "end: end is required: a point {\"lat\": …, \"lon\": …}.",
                "bbox: bbox must be west,south,east,north in degrees, with west < east and south < north.",
                "wide: wide may span at most 1° of latitude and of longitude; zoom in.",
                "area: area is required: west,south,east,north in degrees.",
                "id: id must be an id: a UUID such as 3f2504e0-4f89-41d3-9a0c-0305e82c3301.",
                "user_id: user_id is required: an id (a UUID).",
                "at: at must be a date and time with its offset (RFC 3339), such as 2026-06-01T08:30:00Z.",
                "since: since is required: a date and time such as 2026-06-01T08:30:00Z.",
                "units: Units are distance km or mi, temperature C or F, elevation m or ft.",
                "password: Choose a password.",
            ])
    }

    @Test func theWordingOfQueryPointsCursorsAndSorting() async throws {
        enum Key: String, CaseIterable, Sendable { case name, distance }
        let wordings = try await RequestInputTests.query("from=north&cursor=zzz&sort=size&lat=95&lon=200") { input in
            _ = input.point("from")
            _ = input.point("to")
            _ = input.cursorPage()
            _ = input.sort(default: SortOrder(Key.name))
            _ = input.location()
            return input.errors.map { "\($0.field): \($0.detail)" }
        }

        #expect(
            wordings == [
                "from: from must be a point written LAT,LON, such as 60.1699,24.9384.",
                "to: to is required: a point written LAT,LON.",
                "cursor: cursor must be the next_cursor of an earlier page of this list.",
                "sort: sort must be name, -name, distance or -distance.",
                "lat: lat must be a number from -90 to 90.",
                "lon: lon must be a number from -180 to 180.",
            ])
    }

    @Test func theWordingOfRequestsThatAreNotJSONObjectsAndOfMembersNobodyMaySet() {
        #expect(Wording.notSettable("role") == "role cannot be set here.")
    }
}
