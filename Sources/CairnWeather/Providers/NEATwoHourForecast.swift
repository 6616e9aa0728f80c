/// NEA's 2-hour weather forecast for Singapore, as data.gov.sg publishes it: forecast areas with a label
/// point each, and items holding one forecast phrase per area for a two-hour period.
///
/// The v1 API (`api.data.gov.sg/v1/environment/2-hour-weather-forecast`) answers with these members at the
/// top level; the v2 API (`api-open.data.gov.sg/v2/real-time/api/two-hr-forecast`) wraps the same members
/// in `data`. Both are read.
struct NEATwoHourForecast: Decodable {
    var areaMetadata: [Area]
    var items: [Item]

    struct Area: Decodable {
        var name: String
        var labelLocation: Point

        enum CodingKeys: String, CodingKey {
            case name
            case labelLocation = "label_location"
        }
    }

    struct Point: Decodable {
        var latitude: Double
        var longitude: Double
    }

    struct Item: Decodable {
        var validPeriod: Period
        var forecasts: [AreaForecast]

        enum CodingKeys: String, CodingKey {
            case forecasts
            case validPeriod = "valid_period"
        }
    }

    struct Period: Decodable {
        var start: String
        var end: String
    }

    struct AreaForecast: Decodable {
        var area: String
        var forecast: String
    }

    enum CodingKeys: String, CodingKey {
        case data, items
        case areaMetadata = "area_metadata"
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.data) {
            container = try container.nestedContainer(keyedBy: CodingKeys.self, forKey: .data)
        }
        areaMetadata = try container.decode([Area].self, forKey: .areaMetadata)
        items = try container.decode([Item].self, forKey: .items)
    }
}
