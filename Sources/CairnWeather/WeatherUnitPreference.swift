import CairnAPI
import Foundation

/// The units a client shows weather in, as the web app's settings name them (`temperature=C|F`,
/// `distance=km|mi`; wind follows distance). Values are always also sent in °C and km/h.
struct WeatherUnitPreference: Sendable, Equatable {
    var temperature = TemperatureUnit.celsius
    var distance = DistanceUnit.kilometres

    var speedUnit: String { distance == .miles ? "mph" : "km/h" }

    var wire: WeatherUnits { WeatherUnits(temperature: temperature.rawValue, speed: speedUnit) }

    /// "21°C", "70°F" — whole degrees, as a card shows them.
    func format(celsius: Double) -> String {
        let value = temperature == .fahrenheit ? celsius * 9 / 5 + 32 : celsius
        return "\(Self.whole(value))°\(temperature.rawValue)"
    }

    /// "14 km/h", "9 mph".
    func format(kmh: Double) -> String {
        let value = distance == .miles ? kmh / 1.609_344 : kmh
        return "\(Self.whole(value)) \(speedUnit)"
    }

    /// Rounded half up (as JavaScript's Math.round, so the web app's own conversions agree), never "-0".
    private static func whole(_ value: Double) -> Int {
        let rounded = Int((value + 0.5).rounded(.down))
        return rounded == 0 ? 0 : rounded
    }
}
