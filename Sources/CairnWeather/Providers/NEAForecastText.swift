import CairnAPI

/// NEA's 2-hour forecast words ("Thundery Showers", "Partly Cloudy (Day)", "Hazy"…) read as a condition.
///
/// NEA publishes a fixed list of about thirty phrases; they are matched by their key words so that the
/// day/night variants and the "Heavy … with Gusty Winds" forms need no entries of their own.
enum NEAForecastText {
    /// The condition the phrase describes; nil for a phrase Cairn does not know.
    static func condition(of phrase: String) -> WeatherCondition? {
        let text = phrase.lowercased()
        func has(_ words: String...) -> Bool { words.contains { text.contains($0) } }
        if has("thunder") { return .thunder }
        if has("snow") { return .snowy }
        if has("rain", "shower", "drizzle") { return .rainy }
        if has("windy") { return .windy }
        if has("partly cloudy") { return .partlyCloudy }
        if has("cloudy", "overcast") { return .cloudy }
        if has("haz", "mist", "fog") { return .fog }
        if has("fair", "sunny", "clear", "warm") { return .sunny }
        return nil
    }

    /// Whether the phrase forecasts rain.
    static func meansRain(_ phrase: String) -> Bool {
        condition(of: phrase)?.isWet ?? false
    }
}
