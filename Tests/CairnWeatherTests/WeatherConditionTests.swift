import CairnAPI
import CairnTestSupport
import Testing

@testable import CairnWeather

@Suite struct WeatherConditionTests {
    @Test(arguments: [
        (0, WeatherCondition.sunny), (1, .sunny), (2, .partlyCloudy), (3, .cloudy), (45, .fog), (48, .fog),
        (51, .rainy), (57, .rainy), (61, .rainy), (67, .rainy), (71, .snowy), (77, .snowy), (80, .rainy),
        (82, .rainy), (85, .snowy), (86, .snowy), (95, .thunder), (96, .thunder), (99, .thunder),
    ])
    func wmoCodesOpenMeteoUsesMapToConditions(code: Int, condition: WeatherCondition) {
        #expect(WeatherCondition(wmoCode: code) == condition)
    }

    @Test func codesOutsideTheWMOTableAreRejected() {
        #expect(WeatherCondition(wmoCode: -1) == nil)
        #expect(WeatherCondition(wmoCode: 100) == nil)
    }

    @Test func strongWindMakesADrySkyWindyButNotARainyOne() {
        #expect(WeatherCondition(wmoCode: 0, windSpeedKmh: 45) == .windy)
        #expect(WeatherCondition(wmoCode: 3, windSpeedKmh: 39) == .windy)
        #expect(WeatherCondition(wmoCode: 3, windSpeedKmh: 38.9) == .cloudy)
        #expect(WeatherCondition(wmoCode: 61, windSpeedKmh: 60) == .rainy)
    }
}
