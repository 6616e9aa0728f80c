import CSVTables
import Foundation

import enum CairnAPI.SkiTicketKind

/// One ticket price of a ski area, as a price sheet states it.
public struct SkiPrice: Sendable, Hashable, Codable {
    /// The ski area's name as written in the sheet (matched to a mountain by `SkiNameSearch.fold`).
    public var mountain: String
    public var kind: SkiTicketKind
    /// The price in the currency's minor unit (cents; yen have none), so sums and sorting are exact.
    public var amountMinor: Int
    /// ISO 4217 code, upper case.
    public var currency: String
    /// The season the price is for, written `2025/26`.
    public var season: String
    /// The day the price was read from its source, `yyyy-MM-dd`.
    public var asOf: String
    /// Where the price comes from: a web address or a few words ("demo", "ticket office sign").
    public var source: String
    /// The row of the sheet it was read from (the header is row 1), for reports.
    public var row: Int

    /// The amount in major units, for display: 6900 cents → 69.
    public var amount: Decimal {
        Decimal(amountMinor) / pow(10, SkiPriceSheet.currencies[currency] ?? 2)
    }
}

/// A sheet may write a ticket kind (`SkiTicketKind`, shared with the API) with spaces, hyphens or any case
/// ("Adult day", "adult-day").
extension SkiTicketKind {
    /// The kind a sheet's text names, or nil; "season pass" is read as `season`.
    public init?(sheetValue: String) {
        let normalised = sheetValue.trimmingCharacters(in: .whitespaces).lowercased()
            .replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: "-", with: "_")
        self.init(rawValue: normalised == "season_pass" ? "season" : normalised)
    }
}

/// Why a price sheet was refused: every problem found, each a sentence naming its row.
public struct SkiPriceSheetError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Issue: Sendable, Equatable, CustomStringConvertible {
        /// The row (the header is row 1); nil for a problem of the whole file.
        public var row: Int?
        public var message: String

        public init(row: Int?, message: String) {
            self.row = row
            self.message = message
        }

        /// "row 4: amount '12,x' is not a number", or the message alone for the whole file.
        public var description: String { row.map { "row \($0): \(message)" } ?? message }
    }

    public var issues: [Issue]

    public init(issues: [Issue]) { self.issues = issues }

    public var description: String { issues.map(\.description).joined(separator: "\n") }
}

/// Reads a CSV sheet of ski ticket prices, columns `mountain, kind, amount, currency, season, as_of, source`
/// (in any order, names in any case; no others), through `CSVTable` (UTF-8 with or without a byte-order mark,
/// quoted commas, empty lines skipped). Every row is checked and every problem reported with its row, so a
/// sheet is fixed in one go; a sheet with any problem gives no prices at all.
public enum SkiPriceSheet {
    public static let columns = ["mountain", "kind", "amount", "currency", "season", "as_of", "source"]

    /// ISO 4217 currencies of the countries with ski areas (and the usual reserve currencies), with their
    /// minor-unit digits.
    public static let currencies: [String: Int] = [
        "USD": 2, "CAD": 2, "MXN": 2, "EUR": 2, "CHF": 2, "GBP": 2, "NOK": 2, "SEK": 2, "DKK": 2, "ISK": 0,
        "PLN": 2, "CZK": 2, "HUF": 2, "RON": 2, "BGN": 2, "RSD": 2, "BAM": 2, "MKD": 2, "ALL": 2, "TRY": 2,
        "GEL": 2, "AMD": 2, "UAH": 2, "KZT": 2, "KGS": 2, "UZS": 2, "JPY": 0, "KRW": 0, "CNY": 2, "INR": 2,
        "PKR": 2, "IRR": 2, "ILS": 2, "LBP": 2, "MAD": 2, "LSL": 2, "ZAR": 2, "AUD": 2, "NZD": 2, "CLP": 0,
        "ARS": 2, "BOB": 2, "PEN": 2, "BRL": 2,
    ]

    /// Largest amount accepted, in major units: a lifetime pass costs less.
    public static let maxAmount: Decimal = 100_000

    /// The prices of the sheet `bytes` (named `name` in messages), or every problem found.
    /// - Parameter today: when given, an `as_of` date after it is refused.
    public static func read(name: String, bytes: [UInt8], today: Date? = nil) -> Result<[SkiPrice], SkiPriceSheetError>
    {
        let table: CSVTable
        do {
            table = try CSVTable(name: name, bytes: bytes)
        } catch {
            return .failure(SkiPriceSheetError(issues: [.init(row: error.line, message: error.message)]))
        }
        var issues: [SkiPriceSheetError.Issue] = []
        let header = table.columns.map { $0.lowercased() }
        let missing = columns.filter { !header.contains($0) }
        let unknown = table.columns.filter { !$0.isEmpty && !columns.contains($0.lowercased()) }
        let repeated = Set(header.filter { name in header.filter { $0 == name }.count > 1 })
        if !missing.isEmpty {
            issues.append(
                .init(row: 1, message: "the header lacks the column\(missing.count == 1 ? "" : "s") \(list(missing))"))
        }
        if !unknown.isEmpty {
            issues.append(
                .init(
                    row: 1,
                    message:
                        "the header has the unknown column\(unknown.count == 1 ? "" : "s") \(list(unknown)); the columns are \(columns.joined(separator: ", "))"
                ))
        }
        if !repeated.isEmpty {
            issues.append(.init(row: 1, message: "the header names \(list(repeated.sorted())) more than once"))
        }
        guard issues.isEmpty else { return .failure(SkiPriceSheetError(issues: issues)) }
        if table.records.isEmpty {
            return .failure(.init(issues: [.init(row: nil, message: "\(name) has a header but no prices")]))
        }

        let today = today.map(dayString)
        var prices: [SkiPrice] = []
        var firstRow: [String: Int] = [:]
        for record in table.records {
            var fields: [String: String] = [:]
            for (column, value) in record.fields where column != CSVTable.extraFieldsKey {
                fields[column.lowercased()] = value.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            var rowIssues: [String] = []
            if let count = record.fields[CSVTable.extraFieldsKey] {
                rowIssues.append("has \(count) fields but the header names \(table.columns.count) columns")
            }
            let mountain = fields["mountain"] ?? ""
            if mountain.isEmpty {
                rowIssues.append("mountain is empty")
            } else if mountain.count > 200 {
                rowIssues.append("mountain is longer than 200 characters")
            }
            let kindText = fields["kind"] ?? ""
            let kind = SkiTicketKind(sheetValue: kindText)
            if kind == nil {
                rowIssues.append(
                    kindText.isEmpty
                        ? "kind is empty"
                        : "kind '\(kindText)' is not one of \(SkiTicketKind.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            let currency = (fields["currency"] ?? "").uppercased()
            let digits = currencies[currency]
            if currency.isEmpty {
                rowIssues.append("currency is empty")
            } else if digits == nil {
                rowIssues.append(
                    "currency '\(fields["currency"]!)' is not a known ISO 4217 code (such as USD, EUR, CHF)")
            }
            let amountText = fields["amount"] ?? ""
            var amountMinor: Int?
            switch parseAmount(amountText, currency: currency, digits: digits) {
            case .success(let value): amountMinor = value
            case .failure(let error): if let message = error.message { rowIssues.append(message) }
            }
            let seasonText = fields["season"] ?? ""
            let season = parseSeason(seasonText)
            if season == nil {
                rowIssues.append(
                    seasonText.isEmpty
                        ? "season is empty" : "season '\(seasonText)' is not a winter season such as 2025/26")
            }
            let asOfText = fields["as_of"] ?? ""
            if asOfText.isEmpty {
                rowIssues.append("as_of is empty")
            } else if !isDate(asOfText) {
                rowIssues.append("as_of '\(asOfText)' is not a date written yyyy-mm-dd")
            } else if let today, asOfText > today {
                rowIssues.append("as_of '\(asOfText)' is in the future")
            }
            let source = fields["source"] ?? ""
            if source.isEmpty { rowIssues.append("source is empty (say where the price comes from, or \"demo\")") }

            if rowIssues.isEmpty, let kind, let amountMinor, let season {
                let key = [SkiNameSearch.fold(mountain), kind.rawValue, season].joined(separator: "\u{1F}")
                if let first = firstRow[key] {
                    rowIssues.append("repeats row \(first) (\(mountain), \(kind.rawValue), \(season))")
                } else {
                    firstRow[key] = record.line
                    prices.append(
                        SkiPrice(
                            mountain: mountain, kind: kind, amountMinor: amountMinor, currency: currency,
                            season: season, asOf: asOfText, source: source, row: record.line))
                }
            }
            issues += rowIssues.map { .init(row: record.line, message: $0) }
        }
        return issues.isEmpty ? .success(prices) : .failure(SkiPriceSheetError(issues: issues))
    }

    /// The amount in minor units: digits with at most one decimal point and no more decimals than the
    /// currency has; thousands separators and decimal commas are refused rather than guessed.
    public static func parseAmount(_ text: String, currency: String, digits: Int?) -> Result<Int, AmountError> {
        guard !text.isEmpty else { return .failure(.init("amount is empty")) }
        var body = Substring(text)
        let negative = body.hasPrefix("-")
        if negative { body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty, parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            parts.allSatisfy({ $0.allSatisfy(\.isNumber) }), parts.count == 1 || !parts[1].isEmpty
        else {
            return .failure(.init("amount '\(text)' is not a number (write it like 69 or 69.50)"))
        }
        if negative { return .failure(.init("amount '\(text)' is negative")) }
        let decimals = parts.count == 2 ? parts[1].count : 0
        guard let digits else { return .failure(.init(nil)) }
        guard decimals <= digits else {
            return .failure(
                .init(
                    "amount '\(text)' has \(decimals) decimal place\(decimals == 1 ? "" : "s"); \(currency) has \(digits == 0 ? "none" : "\(digits)")"
                ))
        }
        let whole = parts[0].drop { $0 == "0" }
        guard whole.count <= 9, let major = Int(whole.isEmpty ? "0" : whole) else {
            return .failure(.init("amount '\(text)' is too large"))
        }
        let fraction = parts.count == 2 ? String(parts[1]) : ""
        let minorText = fraction + String(repeating: "0", count: digits - decimals)
        let scale = Int(pow(10, Double(digits)))
        let minor = major * scale + (minorText.isEmpty ? 0 : Int(minorText)!)
        guard Decimal(major) <= maxAmount else {
            return .failure(.init("amount '\(text)' is more than \(maxAmount), which no ticket costs"))
        }
        return .success(minor)
    }

    /// Why an amount was refused; nil message when the currency's error already says it.
    public struct AmountError: Error {
        public var message: String?
        init(_ message: String?) { self.message = message }
    }

    /// A winter season as `2025/26`: read from `2025/26`, `2025-26`, `2025–26`, `2025/2026`, `2025-2026`; the
    /// second year must follow the first.
    public static func parseSeason(_ text: String) -> String? {
        let parts = text.split(whereSeparator: { "/-–—".contains($0) }).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard parts.count == 2, parts[0].count == 4, let first = Int(parts[0]), (1900...2200).contains(first),
            parts[1].allSatisfy(\.isASCII), [2, 4].contains(parts[1].count), let second = Int(parts[1])
        else { return nil }
        let expected = first + 1
        guard second == (parts[1].count == 2 ? expected % 100 : expected) else { return nil }
        return String(format: "%04d/%02d", first, expected % 100)
    }

    /// Whether `text` is a real calendar day written `yyyy-MM-dd`.
    public static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1900...2200).contains(year), (1...12).contains(month), day >= 1
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    public static func dayString(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    static func list(_ names: [String]) -> String {
        names.map { "'\($0)'" }.joined(separator: ", ")
    }
}
