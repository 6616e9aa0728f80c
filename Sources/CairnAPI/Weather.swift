/// The weather API (`GET /api/weather/nowcast|current|forecast`): what a client gets back.
///
/// Every answer is a `WeatherResponse` envelope. Values come in metric units (°C, km/h, mm) so a client can
/// convert them itself when the user changes units; the `*_text` fields are the same values formatted in the
/// units the request asked for (`temperature=C|F`, `distance=km|mi`), for clients that only display them.
/// Times are ISO 8601 strings in UTC.

/// How fresh a weather answer is.
public enum WeatherStatus: String, Codable, Sendable, Equatable {
    /// Fetched from the provider within its time to live.
    case ok
    /// The provider did not answer; this is the last value it gave, `age_seconds` old.
    case stale
    /// The provider did not answer and nothing recent is cached; `report` is null and `message` says why.
    case unavailable
}

/// The kinds of weather Cairn draws an icon for.
public enum WeatherCondition: String, Codable, Sendable, Equatable, CaseIterable {
    case sunny
    case partlyCloudy = "partly_cloudy"
    case cloudy
    case rainy
    case snowy
    case windy
    case thunder
    case fog

    /// The condition in words, as shown next to its icon.
    public var label: String {
        switch self {
        case .sunny: "Sunny"
        case .partlyCloudy: "Partly cloudy"
        case .cloudy: "Cloudy"
        case .rainy: "Rain"
        case .snowy: "Snow"
        case .windy: "Windy"
        case .thunder: "Thunderstorms"
        case .fog: "Fog or haze"
        }
    }
}

/// Who the weather comes from.
public struct WeatherSource: Codable, Sendable, Equatable {
    /// `demo`, `open-meteo` or `nea`.
    public var id: String
    /// Shown with the weather: "Demo weather", "Open-Meteo", "NEA Singapore".
    public var name: String
    /// True for the built-in demo source, whose values are made up.
    public var demo: Bool

    public init(id: String, name: String, demo: Bool) {
        self.id = id
        self.name = name
        self.demo = demo
    }
}

/// The units the `*_text` fields are written in.
public struct WeatherUnits: Codable, Sendable, Equatable {
    /// `C` or `F`.
    public var temperature: String
    /// `km/h` or `mph`.
    public var speed: String

    public init(temperature: String, speed: String) {
        self.temperature = temperature
        self.speed = speed
    }
}

/// The place a report is for: the asked location rounded to 0.01° (about 1 km), the resolution Cairn caches
/// and asks its providers at.
public struct WeatherLocation: Codable, Sendable, Equatable {
    public var lat: Double
    public var lon: Double

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }
}

/// The envelope of every weather answer.
public struct WeatherResponse<Report: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public var status: WeatherStatus
    /// True when `report` is an older value kept because the provider is not answering.
    public var stale: Bool
    /// Seconds since `report` was fetched from the provider; null when unavailable.
    public var ageSeconds: Int?
    /// When `report` was fetched from the provider.
    public var fetchedAt: String?
    public var source: WeatherSource
    public var location: WeatherLocation
    public var units: WeatherUnits
    /// For `stale` and `unavailable`: what happened, in words a person understands.
    public var message: String?
    public var report: Report?

    public init(
        status: WeatherStatus, stale: Bool, ageSeconds: Int?, fetchedAt: String?, source: WeatherSource,
        location: WeatherLocation, units: WeatherUnits, message: String?, report: Report?
    ) {
        self.status = status
        self.stale = stale
        self.ageSeconds = ageSeconds
        self.fetchedAt = fetchedAt
        self.source = source
        self.location = location
        self.units = units
        self.message = message
        self.report = report
    }

    enum CodingKeys: String, CodingKey {
        case status, stale, source, location, units, message, report
        case ageSeconds = "age_seconds"
        case fetchedAt = "fetched_at"
    }
}

/// `GET /api/weather/nowcast`: will it rain in the next two hours?
public struct NowcastReport: Codable, Sendable, Equatable {
    /// True when rain (or snow, or thunder) is expected somewhere in the next two hours.
    public var rain: Bool
    /// One line for people: the provider's own words ("Thundery Showers") or Cairn's ("Rain expected").
    public var summary: String
    /// The forecast area the answer is for, when the provider forecasts by area (NEA: "Bedok").
    public var area: String?
    /// Distance from the asked location to the area's reference point, in metres.
    public var areaDistanceMeters: Int?
    public var validFrom: String
    public var validUntil: String
    /// Start of the first period with rain; null when dry.
    public var rainStartsAt: String?
    /// The two hours in the provider's steps: eight quarters of an hour (Open-Meteo, demo) or one period (NEA).
    public var periods: [NowcastPeriod]

    public init(
        rain: Bool, summary: String, area: String?, areaDistanceMeters: Int?, validFrom: String,
        validUntil: String, rainStartsAt: String?, periods: [NowcastPeriod]
    ) {
        self.rain = rain
        self.summary = summary
        self.area = area
        self.areaDistanceMeters = areaDistanceMeters
        self.validFrom = validFrom
        self.validUntil = validUntil
        self.rainStartsAt = rainStartsAt
        self.periods = periods
    }

    enum CodingKeys: String, CodingKey {
        case rain, summary, area, periods
        case areaDistanceMeters = "area_distance_meters"
        case validFrom = "valid_from"
        case validUntil = "valid_until"
        case rainStartsAt = "rain_starts_at"
    }
}

/// One step of a nowcast.
public struct NowcastPeriod: Codable, Sendable, Equatable {
    public var start: String
    public var end: String
    public var rain: Bool
    /// Expected precipitation in the period, in millimetres, when the provider gives an amount.
    public var precipitationMM: Double?

    public init(start: String, end: String, rain: Bool, precipitationMM: Double?) {
        self.start = start
        self.end = end
        self.rain = rain
        self.precipitationMM = precipitationMM
    }

    enum CodingKeys: String, CodingKey {
        case start, end, rain
        case precipitationMM = "precipitation_mm"
    }
}

/// `GET /api/weather/current`: the weather now.
public struct CurrentWeatherReport: Codable, Sendable, Equatable {
    public var observedAt: String
    public var temperatureC: Double
    /// `temperature_c` in the asked unit: "21°C", "70°F".
    public var temperatureText: String
    public var humidityPercent: Int?
    public var condition: WeatherCondition
    public var conditionText: String
    /// The WMO weather code (WMO 4677) when the provider gives one.
    public var weatherCode: Int?
    public var windSpeedKmh: Double?
    /// `wind_speed_kmh` in the asked unit: "14 km/h", "9 mph".
    public var windText: String?

    public init(
        observedAt: String, temperatureC: Double, temperatureText: String, humidityPercent: Int?,
        condition: WeatherCondition, conditionText: String, weatherCode: Int?, windSpeedKmh: Double?, windText: String?
    ) {
        self.observedAt = observedAt
        self.temperatureC = temperatureC
        self.temperatureText = temperatureText
        self.humidityPercent = humidityPercent
        self.condition = condition
        self.conditionText = conditionText
        self.weatherCode = weatherCode
        self.windSpeedKmh = windSpeedKmh
        self.windText = windText
    }

    enum CodingKeys: String, CodingKey {
        case condition
        case observedAt = "observed_at"
        case temperatureC = "temperature_c"
        case temperatureText = "temperature_text"
        case humidityPercent = "humidity_percent"
        case conditionText = "condition_text"
        case weatherCode = "weather_code"
        case windSpeedKmh = "wind_speed_kmh"
        case windText = "wind_text"
    }
}

/// `GET /api/weather/forecast`: one entry per day, today first.
public struct ForecastReport: Codable, Sendable, Equatable {
    public var days: [DayForecast]

    public init(days: [DayForecast]) { self.days = days }
}

/// One day of a forecast.
public struct DayForecast: Codable, Sendable, Equatable {
    /// The local calendar date at the location, `YYYY-MM-DD`.
    public var date: String
    public var condition: WeatherCondition
    public var conditionText: String
    public var weatherCode: Int?
    public var highC: Double
    public var lowC: Double
    public var highText: String
    public var lowText: String

    public init(
        date: String, condition: WeatherCondition, conditionText: String, weatherCode: Int?, highC: Double,
        lowC: Double, highText: String, lowText: String
    ) {
        self.date = date
        self.condition = condition
        self.conditionText = conditionText
        self.weatherCode = weatherCode
        self.highC = highC
        self.lowC = lowC
        self.highText = highText
        self.lowText = lowText
    }

    enum CodingKeys: String, CodingKey {
        case date, condition
        case conditionText = "condition_text"
        case weatherCode = "weather_code"
        case highC = "high_c"
        case lowC = "low_c"
        case highText = "high_text"
        case lowText = "low_text"
    }
}
