import Foundation

/// What Nearby's "sort by price" compares: the adult day ticket in an approximate common unit, so that Swiss
/// francs, euros and dollars order sensibly side by side. Approximate rates, for ordering only: the list always
/// shows each price in its own currency.
enum SkiPriceOrder {
    /// Approximate US dollars per unit of each currency.
    static let dollarsPerUnit: [String: Double] = [
        "USD": 1, "CAD": 0.72, "EUR": 1.08, "CHF": 1.13, "GBP": 1.27, "SEK": 0.095, "NOK": 0.093, "DKK": 0.145,
        "PLN": 0.25, "CZK": 0.043, "JPY": 0.0066, "AUD": 0.65, "NZD": 0.6, "CLP": 0.0011, "ARS": 0.001,
    ]

    /// Digits after the decimal point (ISO 4217): 0 for yen, 2 for most.
    static func minorDigits(_ currency: String) -> Int {
        ["JPY", "KRW", "CLP", "ISK", "HUF"].contains(currency) ? 0 : 2
    }

    static func major(_ amountMinor: Int, currency: String) -> Double {
        Double(amountMinor) / pow(10, Double(minorDigits(currency)))
    }

    /// The comparison key; an unknown currency compares by its bare amount.
    static func key(amountMinor: Int, currency: String) -> Double {
        major(amountMinor, currency: currency) * (dollarsPerUnit[currency] ?? 1)
    }
}
