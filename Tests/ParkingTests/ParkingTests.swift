import Foundation
import Geo
import Parking
import Testing

@Suite("Parking domain")
struct ParkingTests {
    let clock = CampusClock(timeZone: TimeZone(identifier: "America/Los_Angeles")!)

    @Test func congestionThresholds() {
        #expect(CongestionLevel(fraction: 0.649) == .green)
        #expect(CongestionLevel(fraction: 0.65) == .yellow)
        #expect(CongestionLevel(fraction: 0.849) == .yellow)
        #expect(CongestionLevel(fraction: 0.85) == .red)
        #expect(CongestionLevel(fraction: nil) == .unknown)
    }

    @Test func heldSpotsCountAsTakenAndUnknownOnesAreLeftOut() {
        let occupancy = Occupancy(statuses: [
            (SpotStatus.free, false), (.free, true), (.occupied, false), (.unknown, false), (.closed, false),
        ])
        #expect(occupancy == Occupancy(taken: 2, total: 3, unknown: 1, closed: 1))
    }

    @Test func aLaterReadingSupersedesAndTiesGoToTheLargerID() {
        let early = SensorReading(eventID: UUID(), occupied: true, at: Date(timeIntervalSince1970: 100))
        let late = SensorReading(eventID: UUID(), occupied: false, at: Date(timeIntervalSince1970: 200))
        #expect(late.supersedes(early))
        #expect(!early.supersedes(late))
        #expect(early.supersedes(nil))
        let a = SensorReading(
            eventID: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, occupied: true, at: late.at)
        let b = SensorReading(
            eventID: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!, occupied: false, at: late.at)
        #expect(b.supersedes(a))
        #expect(!a.supersedes(b))
        #expect(!a.supersedes(a))
    }

    @Test func anyOrderOfReadingsEndsInTheInOrderState() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let readings = (0..<12).map { index in
                SensorReading(
                    eventID: UUID(), occupied: Bool.random(using: &generator),
                    at: Date(timeIntervalSince1970: Double(Int.random(in: 0..<6, using: &generator))))
            }
            func apply(_ order: [SensorReading]) -> SensorReading? {
                order.reduce(nil) { current, reading in reading.supersedes(current) ? reading : current }
            }
            let inOrder = apply(readings.sorted { ($0.at, $0.eventID.uuidString) < ($1.at, $1.eventID.uuidString) })
            #expect(apply(readings.shuffled(using: &generator)) == inOrder)
            #expect(apply((readings + readings).shuffled(using: &generator)) == inOrder)
        }
    }

    @Test func campusClockWeekdaysAndBlocks() throws {
        // 2026-05-04T15:47:00Z is Monday 08:47 in Fresno (PDT, UTC−7).
        let date = Date(timeIntervalSince1970: 1_777_909_620)
        #expect(clock.weekday(of: date) == 1)
        #expect(clock.minute(of: date) == 8 * 60 + 47)
        #expect(clock.minute(of: clock.blockStart(of: date)) == 8 * 60 + 30)
        #expect(clock.block(of: date) == 17)
    }

    @Test func typicalOccupancyIsTheMeanOfTheLastFourSameWeekdays() {
        let now = Date(timeIntervalSince1970: 1_777_909_620)  // Monday 08:47
        let block = clock.blockStart(of: now)
        var samples: [OccupancySample] = []
        for week in 1...6 {
            samples.append(OccupancySample(at: clock.adding(days: -7 * week, to: block), fraction: Double(week) / 10))
        }
        // A later block today has not happened yet: the last four Mondays before today count for it.
        let later = clock.moment(on: now, minute: 10 * 60)
        for week in 1...5 {
            samples.append(
                OccupancySample(at: clock.adding(days: -7 * week, to: later), fraction: 0.5 + Double(week) / 100))
        }
        let blocks = TypicalOccupancy.blocks(weekday: 1, samples: samples, now: now, clock: clock)
        #expect(blocks.count == 48)
        let current = blocks[17]
        // Today's block has no snapshot yet, so weeks 1–3 (today counts as one of the four).
        #expect(current.samples == 3)
        #expect(abs(current.mean! - 0.2) < 1e-9)
        let ten = blocks[20]
        #expect(ten.samples == 4)
        #expect(abs(ten.mean! - (0.51 + 0.52 + 0.53 + 0.54) / 4) < 1e-9)
        #expect(blocks[0].mean == nil)
    }

    @Test func permitWindows() {
        let window = PermitWindow(weekdays: [1, 2, 3, 4], startMinute: 420, endMinute: 1200)
        #expect(window.covers(weekday: 1, minute: 420))
        #expect(!window.covers(weekday: 1, minute: 1200))
        #expect(!window.covers(weekday: 5, minute: 600))
        #expect(window.description == "Mon–Thu 07:00–20:00")
    }

    @Test func demandCurvesFillOnWeekdayMorningsAndEmptyAtNight() {
        for curve in [DemandCurve.commuter, .staff] {
            #expect(curve.fraction(weekday: 2, minute: 11 * 60) > 0.85)
            #expect(curve.fraction(weekday: 2, minute: 23 * 60) < 0.15)
            #expect(curve.fraction(weekday: 7, minute: 11 * 60) < 0.2)
        }
        #expect(DemandCurve.residence.fraction(weekday: 2, minute: 2 * 60) > 0.7)
    }

    @Test func stallsFitInTheLot() {
        let box = BoundingBox(south: 36.81, west: -119.75, north: 36.8105, east: -119.7488)
        let stalls = SpotLayout.stalls(in: box)
        #expect(stalls.count > 50)
        for stall in stalls {
            #expect(box.contains(stall.center))
            #expect(stall.corners.count == 5 && stall.corners.first == stall.corners.last)
        }
        #expect(SpotLayout.stalls(in: box, limit: 10).count == 10)
    }

    @Test func theCalendarIsValidICalendar() {
        let blocks = [
            WeeklyBlock(id: UUID(), weekday: 2, startMinute: 450, endMinute: 1440, lotName: "Lot P5, Barstow"),
            WeeklyBlock(id: UUID(), weekday: 7, startMinute: 0, endMinute: 60, lotName: nil),
        ]
        let text = ScheduleCalendar.write(
            blocks: blocks, calendarName: "Parking", timeZone: clock.timeZone,
            now: Date(timeIntervalSince1970: 1_777_909_620), host: "example.org")
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.first == "BEGIN:VCALENDAR")
        #expect(lines.contains("RRULE:FREQ=WEEKLY;BYDAY=TU"))
        #expect(lines.contains("SUMMARY:Parking: Lot P5\\, Barstow"))
        #expect(lines.contains("DTSTART;TZID=America/Los_Angeles:20260505T073000"))
        #expect(lines.contains("DTEND;TZID=America/Los_Angeles:20260506T000000"))
        #expect(lines.contains("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU"))
        #expect(lines.contains("RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU"))
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
    }

    @Test func theSimulatorDriftsTowardTheCurve() {
        let sensors = (0..<100).map { OccupancySimulator.Sensor(id: "s\($0)", lot: "P5", occupied: false) }
        var simulator = OccupancySimulator(
            sensors: sensors, curves: ["P5": .commuter], timeZone: clock.timeZone, seed: 1)
        let tuesdayNoon = Date(timeIntervalSince1970: 1_777_921_200 + 86_400)  // Tuesday 12:00
        for _ in 0..<2_000 { _ = simulator.next(at: tuesdayNoon) }
        let occupied = simulator.sensors.filter(\.occupied).count
        #expect(occupied > 80)
    }
}
