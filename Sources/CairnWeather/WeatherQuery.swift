import CairnAPI
import Geo
import Vapor

/// A weather request's query, validated as a whole: every bad parameter is reported at once, by name.
struct WeatherQuery {
    static let defaultDays = 4

    var location: Coordinate
    var units: WeatherUnitPreference
    /// For the forecast: how many days, today first.
    var days: Int

    init(_ request: Request, acceptsDays: Bool = false) throws {
        var errors: [Problem.FieldError] = []
        func text(_ name: String) -> String? {
            request.query[String.self, at: name].map { $0.trimmingCharacters(in: .whitespaces) }
        }
        func degrees(_ name: String, _ description: String, limit: Double) -> Double? {
            guard let raw = text(name), !raw.isEmpty else {
                errors.append(.init(field: name, detail: "\(name) is required: the \(description) in decimal degrees."))
                return nil
            }
            guard let value = Double(raw), value.isFinite, abs(value) <= limit else {
                errors.append(
                    .init(field: name, detail: "\(name) must be a number from -\(Int(limit)) to \(Int(limit))."))
                return nil
            }
            return value
        }

        let latitude = degrees("lat", "latitude", limit: 90)
        let longitude = degrees("lon", "longitude", limit: 180)

        var days = Self.defaultDays
        if acceptsDays, let raw = text("days") {
            if let value = Int(raw), (1...WeatherService.maxForecastDays).contains(value) {
                days = value
            } else {
                errors.append(
                    .init(
                        field: "days",
                        detail: "days must be a whole number from 1 to \(WeatherService.maxForecastDays)."))
            }
        }

        var units = WeatherUnitPreference()
        if let raw = text("temperature") {
            if let unit = WeatherUnitPreference.Temperature(rawValue: raw.uppercased()) {
                units.temperature = unit
            } else {
                errors.append(.init(field: "temperature", detail: "temperature must be C or F."))
            }
        }
        if let raw = text("distance") {
            if let unit = WeatherUnitPreference.Distance(rawValue: raw.lowercased()) {
                units.distance = unit
            } else {
                errors.append(.init(field: "distance", detail: "distance must be km or mi."))
            }
        }

        guard errors.isEmpty, let latitude, let longitude else { throw Problem.invalid(errors) }
        self.location = Coordinate(latitude: latitude, longitude: longitude)
        self.units = units
        self.days = days
    }
}
