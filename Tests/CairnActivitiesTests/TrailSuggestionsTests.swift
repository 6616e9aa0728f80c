import CairnAPI
import CairnPlatform
import CairnPush
import CairnServer
import CairnStreets
import CairnTestSupport
import CairnTrails
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

/// Thursday's trail suggestions (Trailz 3.2.3.1): one push per subscribed person with the switch on, naming up to
/// three trails they never started, once a week whatever number of instances run.
@Suite("Weekly trail suggestions")
struct TrailSuggestionsTests {
    /// 2026-05-06, a Wednesday, and the next day at 10:00 UTC (the default time).
    static let wednesday = Date(timeIntervalSince1970: 1_778_063_400)  // 2026-05-06T10:30:00Z
    static let thursdayTen = Date(timeIntervalSince1970: 1_778_148_000)  // 2026-05-07T10:00:00Z

    static let fourTrails = """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","properties":{"name":"Seurasaari shore","city":"Helsinki","region":"Uusimaa"},
           "geometry":{"type":"LineString","coordinates":[[24.880,60.185],[24.884,60.187],[24.889,60.186]]}},
          {"type":"Feature","properties":{"name":"Aulanko ridge","city":"Hämeenlinna","region":"Kanta-Häme"},
           "geometry":{"type":"LineString","coordinates":[[24.45,61.01],[24.46,61.02]]}},
          {"type":"Feature","properties":{"name":"Pallas fell traverse","city":"Muonio","region":"Lapland"},
           "geometry":{"type":"LineString","coordinates":[[24.05,68.05],[24.07,68.06]]}},
          {"type":"Feature","properties":{"name":"Bodom lake loop","city":"Espoo","region":"Uusimaa"},
           "geometry":{"type":"LineString","coordinates":[[24.60,60.24],[24.61,60.25]]}}
        ]}
        """

    /// The four trails by name, uploaded by an administrator.
    static func seedTrails(_ cairn: AccountsHarness) async throws -> [String: UUID] {
        let keeper = try await cairn.register("keeper")
        try await cairn.cairn.accounts.administration.setRole(.admin, username: "keeper", on: cairn.app.db)
        let response = try await cairn.send(
            .POST, "/api/trails/import", token: keeper.token, headers: ["Content-Type": "application/json"],
            body: ByteBuffer(string: fourTrails))
        try #require(response.status == .created, "\(response.body.string)")
        let trails = try response.decoded(TrailImportResult.self).trails
        return Dictionary(uniqueKeysWithValues: trails.map { ($0.name, $0.id) })
    }

    static func subscribe(_ user: TestUser, _ service: FakePushService, on cairn: AccountsHarness) async throws
        -> FakePushService.Subscription
    {
        let phone = service.subscribe()
        let saved = try await cairn.send(
            .PUT, "/api/push/subscriptions",
            json: [
                "endpoint": .string(phone.endpoint), "expirationTime": .null,
                "keys": ["p256dh": .string(phone.p256dh), "auth": .string(phone.auth)],
            ], token: user.token)
        try #require(saved.status == .created, "\(saved.body.string)")
        return phone
    }

    static func hike(on trail: UUID, by user: TestUser, on cairn: AccountsHarness) async throws {
        try await cairn.saved(
            ActivityBodies.body(kind: "hike", name: "Hike", changes: ["trail_id": .string(trail.uuidString)]),
            token: user.token)
    }

    /// The Helsinki network (hikes are saved on it) and push to loopback endpoints.
    static func settings() throws -> (inout CairnConfig) -> Void {
        let graph = try TestStreets.helsinkiGraph()
        return {
            $0.streets = StreetsConfig(graphFile: graph, required: true)
            $0.push.allowLoopbackHTTP = true
        }
    }

    func withSuggestions(_ test: (AccountsHarness, FakePushService) async throws -> Void) async throws {
        try await withAccounts(try Self.settings()) { cairn in
            try await FakePushService.running(now: cairn.clock.read) { try await test(cairn, $0) }
        }
    }

    func move(_ clock: TestClock, to date: Date) {
        clock.advance(by: date.timeIntervalSince(clock.now))
    }

    @Test func thursdayAtTenEachSubscribedPersonGetsTrailsTheyNeverStartedOnce() async throws {
        try await withSuggestions { cairn, service in
            let trails = try await Self.seedTrails(cairn)
            let ada = try await cairn.register("ada")
            let bob = try await cairn.register("bob")
            let cy = try await cairn.register("cyd")
            let eve = try await cairn.register("eve")
            _ = try await cairn.register("dan")  // no device
            let adaPhone = try await Self.subscribe(ada, service, on: cairn)
            let bobPhone = try await Self.subscribe(bob, service, on: cairn)
            let bobLaptop = try await Self.subscribe(bob, service, on: cairn)
            let cyPhone = try await Self.subscribe(cy, service, on: cairn)
            let evePhone = try await Self.subscribe(eve, service, on: cairn)
            try await Self.hike(on: try #require(trails["Aulanko ridge"]), by: ada, on: cairn)
            try await Self.hike(on: try #require(trails["Aulanko ridge"]), by: ada, on: cairn)
            for trail in trails.values { try await Self.hike(on: trail, by: eve, on: cairn) }
            let off = try await cairn.send(
                .PUT, "/api/push/preferences", json: ["kinds": ["trail_suggestions": false]], token: cy.token)
            #expect(off.status == .ok, "\(off.body.string)")
            let scheduler = cairn.cairn.scheduler

            move(cairn.clock, to: Self.wednesday)
            #expect(await scheduler.runDue(on: cairn.app.db).isEmpty)
            move(cairn.clock, to: Self.thursdayTen.addingTimeInterval(-60))
            #expect(await scheduler.runDue(on: cairn.app.db).isEmpty)
            await cairn.cairn.push.sender.idle()
            #expect(service.deliveries.isEmpty)

            move(cairn.clock, to: Self.thursdayTen)
            #expect(await scheduler.runDue(on: cairn.app.db) == ["trail_suggestions"])
            await cairn.cairn.push.sender.idle()
            let toAda = service.deliveries(to: adaPhone)
            #expect(toAda.count == 1)
            #expect(toAda.first?.json["kind"] as? String == "trail_suggestions")
            #expect(toAda.first?.json["title"] as? String == "Trails to try this week")
            #expect(
                toAda.first?.json["body"] as? String
                    == "You have not hiked Bodom lake loop, Pallas fell traverse or Seurasaari shore yet.")
            #expect(toAda.first?.json["tag"] as? String == "trail-suggestions")
            #expect(toAda.first?.json["url"] as? String == "/#/trails?show=suggested")
            for device in [bobPhone, bobLaptop] {
                #expect(
                    service.deliveries(to: device).map { $0.json["body"] as? String } == [
                        "You have not hiked Aulanko ridge, Bodom lake loop or Pallas fell traverse yet."
                    ])
            }
            #expect(service.deliveries(to: cyPhone).isEmpty, "the switch is off")
            #expect(service.deliveries(to: evePhone).isEmpty, "eve started every trail")
            #expect(service.rejections.isEmpty, "\(service.rejections)")

            // A restart later that day, and the next Thursday's eve: nothing more.
            move(cairn.clock, to: Self.thursdayTen.addingTimeInterval(5 * 3600))
            #expect(await scheduler.runDue(on: cairn.app.db).isEmpty)
            move(cairn.clock, to: Self.thursdayTen.addingTimeInterval(86_400 + 3600))
            #expect(await scheduler.runDue(on: cairn.app.db).isEmpty)
            await cairn.cairn.push.sender.idle()
            #expect(service.deliveries.count == 3)

            // The next Thursday sends again.
            move(cairn.clock, to: Self.thursdayTen.addingTimeInterval(7 * 86_400 + 60))
            #expect(await scheduler.runDue(on: cairn.app.db) == ["trail_suggestions"])
            await cairn.cairn.push.sender.idle()
            #expect(service.deliveries(to: adaPhone).count == 2)
        }
    }

    @Test func aServerStartedLateOnThursdayStillSendsThatDayButNotTheNext() {
        let schedule = WeeklySchedule(weekday: 5, hour: 10)
        #expect(schedule.due(at: Self.wednesday) == nil)
        #expect(schedule.due(at: Self.thursdayTen.addingTimeInterval(-1)) == nil)
        #expect(schedule.due(at: Self.thursdayTen.addingTimeInterval(13 * 3600)) == Self.thursdayTen)
        #expect(schedule.due(at: Self.thursdayTen.addingTimeInterval(14.5 * 3600)) == nil, "Friday 00:30")
        #expect(schedule.next(after: Self.wednesday) == Self.thursdayTen)
        #expect(schedule.next(after: Self.thursdayTen) == Self.thursdayTen.addingTimeInterval(7 * 86_400))
        #expect(schedule.occurrenceKey(Self.thursdayTen) == "2026-05-07")
        let helsinki = WeeklySchedule(weekday: 5, hour: 10, timeZone: TimeZone(identifier: "Europe/Helsinki")!)
        #expect(helsinki.due(at: Self.thursdayTen) == Self.thursdayTen.addingTimeInterval(-3 * 3600))
    }

    @Test func theTimeIsConfiguredOrSwitchedOff() throws {
        #expect(try TrailsConfig.fromEnvironment([:]).suggestions == WeeklySchedule(weekday: 5, hour: 10))
        let late = try TrailsConfig.fromEnvironment([
            "CAIRN_TRAIL_SUGGESTIONS_AT": "18:30", "CAIRN_TRAIL_SUGGESTIONS_TIME_ZONE": "Europe/Helsinki",
        ])
        #expect(
            late.suggestions
                == WeeklySchedule(weekday: 5, hour: 18, minute: 30, timeZone: TimeZone(identifier: "Europe/Helsinki")!))
        #expect(try TrailsConfig.fromEnvironment(["CAIRN_TRAIL_SUGGESTIONS_AT": "off"]).suggestions == nil)
        #expect(throws: StartupError.self) { try TrailsConfig.fromEnvironment(["CAIRN_TRAIL_SUGGESTIONS_AT": "10"]) }
        #expect(throws: StartupError.self) {
            try TrailsConfig.fromEnvironment(["CAIRN_TRAIL_SUGGESTIONS_TIME_ZONE": "Mars/Olympus"])
        }
    }

    @Test(.enabled(if: onPostgres, "instances share the claim through PostgreSQL"))
    func twoInstancesSendOnePushPerPerson() async throws {
        let mail = CapturingMailTransport()
        let clock = TestClock()
        let settings = try Self.settings()
        let services: () -> CairnServices = { .test(mail: mail, now: clock.read) }
        try await FakePushService.running(now: clock.read) { service in
            try await withTwoInstances(adjust: settings, services: services) { instances in
                let harnesses = instances.map {
                    AccountsHarness(app: $0.app, mail: mail, clock: clock, cairn: $0.cairn)
                }
                let trails = try await Self.seedTrails(harnesses[0])
                var phones: [FakePushService.Subscription] = []
                for name in ["ada", "bob", "cyd", "dee"] {
                    let user = try await harnesses[0].register(name)
                    phones.append(try await Self.subscribe(user, service, on: harnesses[0]))
                    if name == "ada" {
                        try await Self.hike(on: try #require(trails["Aulanko ridge"]), by: user, on: harnesses[0])
                    }
                }
                move(clock, to: Self.thursdayTen.addingTimeInterval(120))

                async let first = instances[0].cairn.scheduler.runDue(on: instances[0].app.db)
                async let second = instances[1].cairn.scheduler.runDue(on: instances[1].app.db)
                let ran = await [first, second]
                for instance in instances { await instance.cairn.push.sender.idle() }

                #expect(ran.map(\.count).sorted() == [0, 1], "\(ran)")
                for phone in phones {
                    #expect(service.deliveries(to: phone).count == 1)
                }
                #expect(
                    service.deliveries(to: phones[0]).first?.json["body"] as? String
                        == "You have not hiked Bodom lake loop, Pallas fell traverse or Seurasaari shore yet.")
            }
        }
    }
}
