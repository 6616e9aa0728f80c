import CairnAPI
import CairnPlatform
import Foundation
import Geo
import Vapor

import enum Ski.SkiPriceSheet

/// `PUT /api/ski/mountains/{id}`: every fact of a mountain an admin edits, sent whole (the editor's form); an
/// altitude or website left out is not known.
struct MountainEdit {
    static let fields: Set<String> = [
        "name", "address", "country", "lat", "lon", "base_altitude_m", "summit_altitude_m", "website",
        "piste_convention",
    ]
    static let altitudes = -500...9_000

    let name: String
    let address: String
    let country: String
    let position: Coordinate
    let baseAltitudeMeters: Int?
    let summitAltitudeMeters: Int?
    let website: String?
    let convention: SkiPisteConvention

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let name = input.text("name", label: "the mountain's name", length: 1...120)
        address = input.text("address", label: "the address", length: 0...300, default: "")
        let countryText = input.text("country", label: "the country", length: 2...2)?.uppercased()
        if let countryText, !countryText.allSatisfy({ $0.isASCII && $0.isLetter }) {
            input.fail("country", "The country is a two-letter ISO 3166 code, such as US, FR or CH.")
        }
        let position = input.location()
        let base = input.integer(
            "base_altitude_m", in: Self.altitudes, required: false,
            message: "The base altitude is a whole number of metres from -500 to 9000, or empty when not known.")
        let summit = input.integer(
            "summit_altitude_m", in: Self.altitudes, required: false,
            message: "The summit altitude is a whole number of metres from -500 to 9000, or empty when not known.")
        if let base, let summit, summit < base {
            input.fail("summit_altitude_m", "The summit cannot be lower than the base (\(base) m).")
        }
        let website = input.text("website", label: "the website", length: 1...300, required: false)
        if let website,
            URL(string: website)?.scheme.map({ ["http", "https"].contains($0.lowercased()) }) != true
                || URL(string: website)?.host?.isEmpty != false
        {
            input.fail("website", "The website is a web address starting with https:// or http://.")
        }
        let convention = input.choice("piste_convention", as: SkiPisteConvention.self)
        (self.name, self.position, self.convention) = try input.finish(name, position, convention)
        country = countryText ?? ""
        baseAltitudeMeters = base
        summitAltitudeMeters = summit
        self.website = website
    }
}

/// `PUT /api/ski/mountains/{id}/prices/{price}`: a ticket price, added or replaced by its client-made id. The
/// amount is read as the price sheet reads it (major units, no more decimals than the currency has).
struct TicketPriceForm {
    static let fields: Set<String> = ["kind", "amount", "currency", "season", "as_of", "source"]

    let kind: SkiTicketKind
    let amountMinor: Int
    let currency: String
    let season: String
    let asOf: String
    let source: String

    init(_ req: Request, today: Date) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let kind = input.choice("kind", as: SkiTicketKind.self)
        let currencyText = input.text("currency", label: "the currency", length: 3...3)?.uppercased()
        var currency: String?
        if let currencyText {
            if SkiPriceSheet.currencies[currencyText] == nil {
                input.fail("currency", "The currency is an ISO 4217 code, such as USD, EUR or CHF.")
            } else {
                currency = currencyText
            }
        }
        var amountMinor: Int?
        let amountText: String?
        switch input.json("amount") {
        case .number(let value)?:
            amountText = value == value.rounded() && abs(value) < 1e12 ? String(Int(value)) : "\(value)"
        case .string(let value)?: amountText = value.trimmingCharacters(in: .whitespaces)
        case nil: amountText = nil
        default: amountText = ""
        }
        if amountText == nil || amountText == "" {
            input.fail("amount", "Enter the price, such as 69 or 69.50.")
        } else if let amountText {
            switch SkiPriceSheet.parseAmount(
                amountText, currency: currency ?? "", digits: currency.flatMap { SkiPriceSheet.currencies[$0] } ?? 2)
            {
            case .success(let minor): amountMinor = minor
            case .failure(let error): input.fail("amount", Self.sentence(error.message ?? "amount is not a number"))
            }
        }
        let seasonText = input.text("season", label: "the season", length: 1...20)
        var season: String?
        if let seasonText {
            season = SkiPriceSheet.parseSeason(seasonText)
            if season == nil { input.fail("season", "The season is a winter such as 2025/26.") }
        }
        let asOfText = input.text("as_of", label: "the date the price was known", length: 1...10)
        if let asOfText {
            if !SkiPriceSheet.isDate(asOfText) {
                input.fail("as_of", "The date is a day written yyyy-mm-dd, such as 2025-11-01.")
            } else if asOfText > SkiPriceSheet.dayString(today) {
                input.fail("as_of", "The date cannot be in the future.")
            }
        }
        let source = input.text("source", label: "where the price comes from", length: 1...200)
        (self.kind, self.amountMinor, self.currency, self.season, self.asOf, self.source) = try input.finish(
            kind, amountMinor, currency, season, asOfText, source)
    }

    /// "amount '12,x' is not a number (…)" → "Amount '12,x' is not a number (…)."
    static func sentence(_ message: String) -> String {
        message.prefix(1).uppercased() + message.dropFirst() + (message.hasSuffix(".") ? "" : ".")
    }
}

/// `PATCH /api/ski/mountains/{id}/pistes/{piste}`: whether the piste is open and how it is groomed (`null`
/// or absent grooming leaves it; `"none"` says it is not known).
struct PisteEdit {
    static let fields: Set<String> = ["open", "grooming"]
    /// OSM `piste:grooming` values the editor offers, and `none` for not known.
    enum Grooming: String, CaseIterable, Sendable {
        case classic, mogul, backcountry
        case notKnown = "none"
    }

    let open: Bool?
    let grooming: Grooming?

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        open = input.has("open") ? input.boolean("open", default: true) : nil
        grooming = input.choice("grooming", as: Grooming.self, required: false)
        try input.finish()
    }
}

/// `PATCH /api/ski/mountains/{id}/lifts/{lift}`: whether the lift runs.
struct LiftEdit {
    static let fields: Set<String> = ["open"]

    let open: Bool

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        if !input.has("open") { input.fail("open", "Say whether the lift is open: open is true or false.") }
        open = input.boolean("open", default: true)
        try input.finish()
    }
}
