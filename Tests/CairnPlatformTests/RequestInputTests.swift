import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor

@testable import CairnPlatform

/// `RequestInput`: typed readers over a query string or a JSON body that collect every bad field into one 422.
@Suite struct RequestInputTests {
    /// Reads `query` (`a=1&b=2`) with `read`.
    static func query<T>(_ query: String, _ read: (inout RequestInput) throws -> T) async throws -> T {
        let app = try await Application.make(.testing)
        defer { Task { try? await app.asyncShutdown() } }
        let request = Request(
            application: app, method: .GET, url: URI(string: "/test?\(query)"), on: app.eventLoopGroup.any())
        var input = RequestInput(query: request)
        return try read(&input)
    }

    /// A request carrying `body` with `contentType`.
    static func body<T>(
        _ body: String, contentType: HTTPMediaType? = .json, _ read: (Request) throws -> T
    ) async throws -> T {
        let app = try await Application.make(.testing)
        defer { Task { try? await app.asyncShutdown() } }
        var headers = HTTPHeaders()
        if let contentType { headers.contentType = contentType }
        let request = Request(
            application: app, method: .POST, url: URI(string: "/test"), headers: headers,
            collectedBody: body.isEmpty ? nil : ByteBuffer(string: body), on: app.eventLoopGroup.any())
        return try read(request)
    }

    @Test func everyBadFieldIsNamedInOne422() throws {
        var input = RequestInput(json: ["lat": 91, "limit": "ten", "name": .string("")])
        let location = input.location()
        let limit = input.integer("limit", in: 1...20, default: 8)
        let name = input.text("name", label: "your name")

        #expect(location == nil && name == nil && limit == 8)
        #expect(input.errors.map(\.field) == ["lat", "lon", "limit", "name"])
        let problem = try #require(throws: Problem.self) { try input.finish() }
        #expect(problem.status == 422)
        #expect(problem.errors?.count == 4)
        #expect(problem.detail == problem.errors?.map(\.detail).joined(separator: " "))
    }

    @Test func aQueryParameterGivenTwiceIsRefusedNotReadAsItsLastValue() async throws {
        for query in ["limit=5&limit=6", "limit=x&limit=", "limit=5&limit=&bbox=1,2,3,4"] {
            let (limit, fields) = try await Self.query(query) { input in
                (input.integer("limit", in: 1...20, default: 8), input.errors.map(\.field))
            }
            #expect(limit == 8 && fields == ["limit"], "\(query)")
        }
        let box = try await Self.query("bbox=24.9,60.1,25.0,60.2&limit=5") { input in input.raw("bbox") }
        #expect(box == .text("24.9,60.1,25.0,60.2"))
    }

    @Test func finishHandsBackEveryRequiredValueUnwrapped() throws {
        var input = RequestInput(json: ["lat": 60.17, "lon": 24.94, "q": " Mannerheimintie "])
        let location = input.location()
        let text = input.text("q", label: "the text to search for")

        let (point, query) = try input.finish(location, text)

        #expect(point == Coordinate(latitude: 60.17, longitude: 24.94))
        #expect(query == "Mannerheimintie")
    }

    @Test func everyReaderThatAnswersNilRecordsAnError() async throws {
        // The invariant `finish` relies on: nil only with an error (or for an absent optional field).
        var input = RequestInput(json: [
            "text": 3, "number": "3", "integer": 2.5, "choice": "K", "point": "north", "box": [1, 2, 3],
            "id": "x", "time": "yesterday", "units": ["distance": "league"], "secret": "",
        ])
        enum Unit: String, CaseIterable {
            case c = "C"
            case f = "F"
        }
        let values: [Any?] = [
            input.text("text", label: "the text"), input.text("absent", label: "the absent text"),
            input.number("number", in: 0...10), input.number("absent", in: 0...10),
            input.integer("integer", in: 0...10), input.integer("absent", in: 0...10),
            input.choice("choice", as: Unit.self), input.choice("absent", as: Unit.self),
            input.point("point"), input.point("absent"), input.box("box"), input.box("absent"),
            input.id("id"), input.id("absent"), input.timestamp("time"), input.timestamp("absent"),
            input.units("units"), input.secret("secret", missing: "Enter it."), input.location(),
        ]

        #expect(values.allSatisfy { $0 == nil })
        #expect(input.errors.count == 20)
    }

    @Test func anOptionalFieldThatIsAbsentIsNilWithoutAnError() throws {
        var input = RequestInput(json: ["landmark_id": nil])
        let landmark = input.text("landmark_id", label: "the landmark", required: false)
        let near = input.location(required: false)
        let at = input.timestamp("at", required: false)

        #expect(landmark == nil && near == nil && at == nil)
        #expect(input.isValid)
    }

    @Test func textIsTrimmedInNormalFormCAndRefusesHiddenCharacters() throws {
        var input = RequestInput(json: [
            "a": " Jose\u{301} ", "b": "Ada\u{202E}", "c": "line\u{2028}break", "d": "two\nlines",
            "e": " first\r\nsecond ",
        ])
        let composed = input.text("a", label: "your name")
        let bidi = input.text("b", label: "your name")
        let separator = input.text("c", label: "your name")
        let newline = input.text("d", label: "your name")
        let multiline = input.text("e", label: "About Me", multiline: true)

        #expect(composed == "Jos\u{E9}")
        #expect(bidi == nil && separator == nil && newline == nil)
        #expect(multiline == "first\nsecond")
        #expect(input.errors.map(\.field) == ["b", "c", "d"])
    }

    @Test func numbersAreFiniteBoundedAndOfTheirJSONType() async throws {
        var input = RequestInput(json: ["a": 1e308, "b": "3", "c": 3, "d": 9.007199254740993e15, "e": true])
        #expect(input.number("a", in: 0...100) == nil)
        #expect(input.number("b", in: 0...100) == nil, "a JSON string is not a number")
        #expect(input.integer("c", in: 0...100) == 3)
        #expect(input.integer("d", in: 0...Int.max) == nil, "beyond what JSON numbers hold exactly")
        let flag = input.boolean("e", default: false)
        #expect(flag)

        let fromQuery = try await Self.query("n=nan&m=inf&i=12&x=1.5&flag=1&flag2=maybe") { input in
            (
                input.number("n", in: -100...100), input.number("m", in: -100...100),
                input.integer("i", in: 0...20), input.integer("x", in: 0...20), input.boolean("flag", default: false),
                input.boolean("flag2", default: false), input.errors.map(\.field)
            )
        }
        #expect(fromQuery.0 == nil && fromQuery.1 == nil && fromQuery.2 == 12 && fromQuery.3 == nil)
        #expect(fromQuery.4 && !fromQuery.5)
        #expect(fromQuery.6 == ["n", "m", "x", "flag2"])
    }

    @Test func choicesAreStoredAsTheirStringsMatchedExactlyElseIgnoringCase() throws {
        var input = RequestInput(json: ["temperature": "f", "distance": "MI", "elevation": "yards"])
        let temperature = input.choice("temperature", as: TemperatureUnit.self)
        let distance = input.choice("distance", as: DistanceUnit.self)
        let elevation = input.choice("elevation", as: ElevationUnit.self, default: .metres)

        #expect(temperature == .fahrenheit && distance == .miles && elevation == .metres)
        #expect(input.errors == [.init(field: "elevation", detail: "elevation must be m or ft.")])
    }

    @Test func pointsReadAsLatLonObjectsGeoJSONPositionsOrQueryText() async throws {
        var input = RequestInput(json: [
            "start": ["lat": 60.17, "lon": 24.94], "end": [24.95, 60.18], "far": ["lat": 91, "lon": "east"],
        ])
        #expect(input.point("start") == Coordinate(latitude: 60.17, longitude: 24.94))
        #expect(input.point("end") == Coordinate(latitude: 60.18, longitude: 24.95))
        #expect(input.point("far") == nil)
        #expect(input.errors.map(\.field) == ["far.lat", "far.lon"])

        let fromQuery = try await Self.query("from=60.17,24.94&to=60.17") { input in
            (input.point("from"), input.point("to"), input.errors.map(\.field))
        }
        #expect(fromQuery.0 == Coordinate(latitude: 60.17, longitude: 24.94))
        #expect(fromQuery.1 == nil && fromQuery.2 == ["to"])
    }

    @Test func boxesAreWestSouthEastNorthWithinTheirSpanAndNeverAcrossTheAntimeridian() async throws {
        let boxes = try await Self.query(
            "a=24.93,60.165,24.95,60.172&b=179,-10,-179,10&c=0,0,5,5&d=24.95,60.165,24.93,60.172&e=1,2,3"
        ) { input in
            (
                input.box("a", maxSpanDegrees: 1), input.box("b"), input.box("c", maxSpanDegrees: 1), input.box("d"),
                input.box("e"), input.errors
            )
        }
        #expect(boxes.0 == BoundingBox(south: 60.165, west: 24.93, north: 60.172, east: 24.95))
        #expect(boxes.1 == nil && boxes.2 == nil && boxes.3 == nil && boxes.4 == nil)
        #expect(boxes.5.map(\.field) == ["b", "c", "d", "e"])
        #expect(boxes.5[1].detail == "c may span at most 1° of latitude and of longitude; zoom in.")
    }

    @Test func idsAndTimestamps() throws {
        var input = RequestInput(json: [
            "id": "3F2504E0-4F89-41D3-9A0C-0305E82C3301", "at": "2026-06-01T10:30:00.250+02:00",
            "leap": "2026-02-30T10:00:00Z", "local": "2026-06-01T10:30:00", "hour": "2026-06-01T24:00:00Z",
        ])
        #expect(input.id("id") == UUID(uuidString: "3f2504e0-4f89-41d3-9a0c-0305e82c3301"))
        #expect(input.timestamp("at") == Date(timeIntervalSince1970: 1_780_302_600.25))
        #expect(input.timestamp("leap") == nil && input.timestamp("local") == nil && input.timestamp("hour") == nil)
        #expect(input.errors.map(\.field) == ["leap", "local", "hour"])
    }

    @Test func rfc3339ReadsEveryFormTheStandardAllowsAndNoOther() throws {
        let noon = Date(timeIntervalSince1970: 1_780_315_200)  // 2026-06-01T12:00:00Z
        for text in [
            "2026-06-01T12:00:00Z", "2026-06-01t12:00:00z", "2026-06-01T14:00:00+02:00", "2026-06-01T06:30:00-05:30",
            "2026-06-01T12:00:00.000000000Z",
        ] {
            #expect(RFC3339.date(from: text) == noon, "\(text)")
        }
        #expect(RFC3339.date(from: "2026-06-01T12:00:00.5Z") == noon.addingTimeInterval(0.5))
        #expect(RFC3339.date(from: "2016-12-31T23:59:60Z") == Date(timeIntervalSince1970: 1_483_228_799))
        #expect(RFC3339.date(from: "2024-02-29T00:00:00Z") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(RFC3339.date(from: "2000-02-29T00:00:00Z") == Date(timeIntervalSince1970: 951_782_400))
        #expect(RFC3339.date(from: "1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
        for text in [
            "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z",
            "2026-00-01T00:00:00Z", "2026-06-00T00:00:00Z", "2026-06-01T12:60:00Z", "2026-06-01T12:00:61Z",
            "2026-06-01T12:00:00.Z", "2026-06-01T12:00:00.1234567890Z", "2026-06-01T12:00:00+24:00",
            "2026-06-01T12:00:00+02:60", "2026-06-01T12:00:00+0200", "2026-06-01 12:00:00Z", "2026-06-01T12:00:00Z\n",
            "2026-06-01T12:00:00ZZ", "2026-6-01T12:00:00Z", "٢٠٢٦-06-01T12:00:00Z", "2026-06-01T12:00Z", "",
        ] {
            #expect(RFC3339.date(from: text) == nil, "\(text)")
        }
    }

    @Test func rfc3339AgreesWithFoundationsISO8601() throws {
        var random = SystemRandomNumberGenerator()
        let formatter = ISO8601DateFormatter()
        for _ in 0..<2_000 {
            let date = Date(
                timeIntervalSince1970: Double(Int64.random(in: -2_208_988_800...4_102_444_800, using: &random)))
            let minutes = Int.random(in: -14 * 60...14 * 60, using: &random)
            formatter.timeZone = TimeZone(secondsFromGMT: minutes * 60)
            let text = formatter.string(from: date)
            #expect(RFC3339.date(from: text) == date, "\(text)")
        }
    }

    @Test func pagingByCursorOrByNumber() async throws {
        let cursor = PageCursor(after: "1717236000", id: UUID())
        let pages = try await Self.query("limit=50&cursor=\(cursor.encoded)&page=3") { input in
            (input.cursorPage(defaultLimit: 20, maxLimit: 100), input.numberedPage(defaultLimit: 20), input.errors)
        }
        #expect(pages.0 == CursorPage(limit: 50, cursor: cursor))
        #expect(pages.1 == NumberedPage(page: 3, limit: 50) && pages.1.offset == 100)
        #expect(pages.2.isEmpty)

        let bad = try await Self.query("limit=500&cursor=not-ours&page=0") { input in
            (input.cursorPage(defaultLimit: 20, maxLimit: 100), input.numberedPage(), input.errors.map(\.field))
        }
        #expect(bad.0 == CursorPage(limit: 20, cursor: nil))
        #expect(bad.2 == ["limit", "cursor", "page", "limit"])
    }

    @Test func sortOrdersAreAKeyWithAnOptionalMinus() async throws {
        enum Key: String, CaseIterable, Sendable { case name, distance }
        let orders = try await Self.query("sort=-distance&other=size") { input in
            (
                input.sort(default: SortOrder(Key.name)), input.sort("other", default: SortOrder(Key.name)),
                input.errors
            )
        }
        #expect(orders.0 == SortOrder(.distance, descending: true))
        #expect(orders.1 == SortOrder(.name))
        #expect(orders.2 == [.init(field: "other", detail: "other must be name, -name, distance or -distance.")])
    }

    @Test func unknownMembersAreRefusedAloneBeforeAnythingElse() async throws {
        let problem = try await Self.body(#"{"name": "", "role": "admin", "id": 1}"#) { request in
            try #require(throws: Problem.self) { try RequestInput(body: request, allowed: ["name"]) }
        }
        #expect(problem.status == 422)
        #expect(
            problem.errors == [
                .init(field: "id", detail: "id cannot be set here."),
                .init(field: "role", detail: "role cannot be set here."),
            ])
    }

    @Test func bodiesThatAreNotJSONObjectsAre400Or415AndAnEmptyBodyReadsAsAnEmptyObject() async throws {
        let malformed = try await Self.body("{") { request in
            try #require(throws: Problem.self) { try RequestInput(body: request, allowed: []) }
        }
        let array = try await Self.body("[1]") { request in
            try #require(throws: Problem.self) { try RequestInput(body: request, allowed: []) }
        }
        let form = try await Self.body("a=1", contentType: .urlEncodedForm) { request in
            try #require(throws: Problem.self) { try RequestInput(body: request, allowed: ["a"]) }
        }
        let empty = try await Self.body("", contentType: nil) { request in
            var input = try RequestInput(body: request, allowed: ["name"])
            _ = input.text("name", label: "your name")
            return input.errors
        }
        #expect(malformed.status == 400 && malformed.detail == "The request body is not valid JSON.")
        #expect(array.status == 400 && array.detail == "The request body must be a JSON object.")
        #expect(form.status == 415)
        #expect(empty == [.init(field: "name", detail: "Enter your name.")])
    }

    @Test func nestedObjectsNameTheirMembersWithThePath() throws {
        var input = RequestInput(json: ["filters": ["radius_m": -1]])
        if var filters = input.object("filters", missing: "filters is required.") {
            _ = filters.number("radius_m", in: 1...1_000)
            input.merge(filters)
        }
        #expect(
            input.errors == [
                .init(field: "filters.radius_m", detail: "filters.radius_m must be a number from 1 to 1000.")
            ])
    }
}
