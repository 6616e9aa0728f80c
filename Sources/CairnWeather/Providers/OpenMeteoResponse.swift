import Foundation

/// The parts of an Open-Meteo forecast answer (`/v1/forecast`) Cairn reads. Times are local to the place
/// (`timezone=auto`) without an offset, which `utc_offset_seconds` gives.
struct OpenMeteoResponse: Decodable {
    var utcOffsetSeconds: Int
    var current: Current?
    var minutely15: Minutely15?
    var daily: Daily?

    struct Current: Decodable {
        var time: String
        var temperature: Double
        var relativeHumidity: Double?
        var weatherCode: Int
        var windSpeed: Double?

        enum CodingKeys: String, CodingKey {
            case time
            case temperature = "temperature_2m"
            case relativeHumidity = "relative_humidity_2m"
            case weatherCode = "weather_code"
            case windSpeed = "wind_speed_10m"
        }
    }

    /// Each value is the precipitation of the 15 minutes *before* its time.
    struct Minutely15: Decodable {
        var time: [String]
        var precipitation: [Double?]
    }

    struct Daily: Decodable {
        var time: [String]
        var weatherCode: [Int?]
        var temperatureMax: [Double?]
        var temperatureMin: [Double?]
        var windSpeedMax: [Double?]?

        enum CodingKeys: String, CodingKey {
            case time
            case weatherCode = "weather_code"
            case temperatureMax = "temperature_2m_max"
            case temperatureMin = "temperature_2m_min"
            case windSpeedMax = "wind_speed_10m_max"
        }
    }

    enum CodingKeys: String, CodingKey {
        case current, daily
        case utcOffsetSeconds = "utc_offset_seconds"
        case minutely15 = "minutely_15"
    }

    /// A local time such as `2026-05-01T14:15` at this answer's UTC offset.
    func date(local text: String) -> Date? {
        let halves = text.split(separator: "T")
        guard halves.count == 2 else { return nil }
        let day = halves[0].split(separator: "-").compactMap { Int($0) }
        let clock = halves[1].split(separator: ":").compactMap { Int($0) }
        guard day.count == 3, (2...3).contains(clock.count) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: utcOffsetSeconds) ?? .gmt
        let components = DateComponents(
            year: day[0], month: day[1], day: day[2], hour: clock[0], minute: clock[1],
            second: clock.count == 3 ? clock[2] : 0)
        return calendar.date(from: components)
    }
}
