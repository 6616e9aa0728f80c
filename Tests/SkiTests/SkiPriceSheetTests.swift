import CairnAPI
import Foundation
import Testing

@testable import Ski

/// Reading ticket-price sheets: good rows, and every kind of bad row reported with its row number.
@Suite struct SkiPriceSheetTests {
    static let header = "mountain,kind,amount,currency,season,as_of,source"

    static func read(_ text: String, today: Date? = nil) -> Result<[SkiPrice], SkiPriceSheetError> {
        SkiPriceSheet.read(name: "prices.csv", bytes: Array(text.utf8), today: today)
    }

    static func issues(_ text: String, today: Date? = nil) -> [String] {
        guard case .failure(let error) = read(text, today: today) else { return [] }
        return error.issues.map(\.description)
    }

    @Test func goodRowsBecomePricesInMinorUnits() throws {
        let text = """
            \u{FEFF}\(Self.header)\r
            Willard Mountain,adult_day,69,USD,2025/26,2025-11-01,https://www.willardmountain.com/tickets\r
            "Val d’Isère, Tignes",Adult day,69.50,eur,2025-2026,2025-10-15,demo\r
            \r
            Niseko United,child-day,5000,JPY,2025–26,2025-09-30,"ticket office sign, base lodge"\r
            Whiteface Mountain,season pass,1249.9,USD,2025/2026,2025-04-01,demo\r

            """

        let prices = try Self.read(text).get()

        #expect(
            prices.map(\.mountain) == [
                "Willard Mountain", "Val d’Isère, Tignes", "Niseko United", "Whiteface Mountain",
            ])
        #expect(prices.map(\.kind) == [.adultDay, .adultDay, .childDay, .season])
        #expect(prices.map(\.amountMinor) == [6900, 6950, 5000, 124_990])
        #expect(prices.map(\.currency) == ["USD", "EUR", "JPY", "USD"])
        #expect(prices.map(\.season) == ["2025/26", "2025/26", "2025/26", "2025/26"])
        #expect(prices.map(\.row) == [2, 3, 5, 6])
        #expect(prices[2].source == "ticket office sign, base lodge")
        #expect(prices[1].amount == Decimal(string: "69.5"))
        #expect(prices[2].amount == 5000)
    }

    @Test func columnsMayComeInAnyOrderAndCase() throws {
        let text =
            "Source,AS_OF,season,currency,amount,kind,Mountain\ndemo,2025-11-01,2025/26,CHF,79,adult_day,Zermatt\n"

        let prices = try Self.read(text).get()

        #expect(
            prices == [
                SkiPrice(
                    mountain: "Zermatt", kind: .adultDay, amountMinor: 7900, currency: "CHF", season: "2025/26",
                    asOf: "2025-11-01", source: "demo", row: 2)
            ])
    }

    @Test func everyBadRowIsReportedWithItsRowNumber() {
        let text = """
            \(Self.header)
            Willard Mountain,adult_day,69,USD,2025/26,2025-11-01,demo
            Gore Mountain,adult_day,-5,USD,2025/26,2025-11-01,demo
            Gore Mountain,child_day,"12,x",USD,2025/26,2025-11-01,demo
            Gore Mountain,senior_day,45,XYZ,2025/26,2025-11-01,demo
            Gore Mountain,family,45,USD,2025/26,2025-11-01,demo
            Gore Mountain,night,45,USD,2025/27,2025-11-01,demo
            Gore Mountain,half_day,45,USD,2025/26,2025-02-30,demo
            ,adult_day,,USD,,,
            Willard Mountain,Adult day,70,USD,2025-26,2025-11-02,demo
            Gore Mountain,youth_day,45.123,USD,2025/26,2025-11-01,demo
            Gore Mountain,student_day,4500,JPY,2025/26,2025-11-01,demo,extra
            Gore Mountain,multi_day,1.5,JPY,2025/26,2025-11-01,demo

            """

        #expect(
            Self.issues(text) == [
                "row 3: amount '-5' is negative",
                "row 4: amount '12,x' is not a number (write it like 69 or 69.50)",
                "row 5: currency 'XYZ' is not a known ISO 4217 code (such as USD, EUR, CHF)",
                "row 6: kind 'family' is not one of adult_day, youth_day, child_day, senior_day, student_day, half_day, night, multi_day, season",
                "row 7: season '2025/27' is not a winter season such as 2025/26",
                "row 8: as_of '2025-02-30' is not a date written yyyy-mm-dd",
                "row 9: mountain is empty",
                "row 9: amount is empty",
                "row 9: season is empty",
                "row 9: as_of is empty",
                "row 9: source is empty (say where the price comes from, or \"demo\")",
                "row 10: repeats row 2 (Willard Mountain, adult_day, 2025/26)",
                "row 11: amount '45.123' has 3 decimal places; USD has 2",
                "row 12: has 8 fields but the header names 7 columns",
                "row 13: amount '1.5' has 1 decimal place; JPY has none",
            ])
    }

    @Test(
        arguments: ["12,50", "1,200", "12.", ".5", "12.5.1", "twelve", "1e3", "$12", "١٢", "--1", "12 50"])
    func amountsThatAreNotPlainNumbersAreRefused(amount: String) {
        let text = "\(Self.header)\nGore Mountain,adult_day,\"\(amount)\",USD,2025/26,2025-11-01,demo\n"

        let issues = Self.issues(text)

        #expect(issues.count == 1)
        #expect(issues.first?.hasPrefix("row 2: amount") == true)
    }

    @Test func anAsOfDateAfterTodayIsRefused() {
        let today = Date(timeIntervalSince1970: 1_764_201_600)  // 2025-11-27
        let text = "\(Self.header)\nGore Mountain,adult_day,89,USD,2025/26,2025-11-28,demo\n"

        #expect(Self.issues(text, today: today) == ["row 2: as_of '2025-11-28' is in the future"])
        #expect(Self.issues(text.replacingOccurrences(of: "11-28", with: "11-27"), today: today).isEmpty)
    }

    @Test func theHeaderIsChecked() {
        let missing = "mountain,kind,amount,currency,season\nGore,adult_day,1,USD,2025/26\n"
        let unknown = "\(Self.header),ammount\nGore,adult_day,1,USD,2025/26,2025-11-01,demo,1\n"
        let twice = "\(Self.header),kind\n"

        #expect(Self.issues(missing) == ["row 1: the header lacks the columns 'as_of', 'source'"])
        #expect(
            Self.issues(unknown) == [
                "row 1: the header has the unknown column 'ammount'; the columns are mountain, kind, amount, currency, season, as_of, source"
            ])
        #expect(Self.issues(twice) == ["row 1: the header names 'kind' more than once"])
    }

    @Test func anEmptySheetOrOneWithoutRowsIsRefused() {
        #expect(Self.issues("") == ["prices.csv has no header line naming its columns."])
        #expect(Self.issues("\(Self.header)\n\n\n") == ["prices.csv has a header but no prices"])
    }

    @Test func textThatIsNotUTF8IsRefusedWithItsLine() {
        var bytes = Array("\(Self.header)\nS".utf8)
        bytes += [0xF6] + Array("lden,adult_day,70,EUR,2025/26,2025-11-01,demo\n".utf8)

        guard case .failure(let error) = SkiPriceSheet.read(name: "prices.csv", bytes: bytes) else {
            Issue.record("Latin-1 was read")
            return
        }
        #expect(error.issues.count == 1)
        #expect(error.issues[0].row == 2)
        #expect(error.issues[0].message.contains("not UTF-8"))
    }

    @Test func ticketKindsReadLooselyAndHaveLabels() {
        #expect(SkiTicketKind(sheetValue: "Season Pass") == .season)
        #expect(SkiTicketKind(sheetValue: "season") == .season)
        #expect(SkiTicketKind(sheetValue: " adult-day ") == .adultDay)
        #expect(SkiTicketKind(sheetValue: "adults") == nil)
        #expect(SkiTicketKind.season.label == "Season pass")
        #expect(SkiTicketKind.night.label == "Night")
    }
}
