import CairnPlatform
import Testing

@testable import CairnFlora

@Suite struct FloraConfigTests {
    @Test func settingsAreReadAndBadValuesNamed() throws {
        let config = try FloraConfig.fromEnvironment([
            "CAIRN_FLORA_PHOTO_MAX_BYTES": "1048576", "CAIRN_FLORA_PHOTO_RANGE_M": "100",
        ])
        let defaults = try FloraConfig.fromEnvironment([:])

        #expect(config == FloraConfig(photoMaxBytes: 1_048_576, photoRangeMeters: 100))
        #expect(defaults == FloraConfig())
        for (key, value) in [("CAIRN_FLORA_PHOTO_MAX_BYTES", "huge"), ("CAIRN_FLORA_PHOTO_RANGE_M", "-5")] {
            #expect {
                try FloraConfig.fromEnvironment([key: value])
            } throws: { error in
                (error as? StartupError)?.description.contains(key) == true
            }
        }
    }
}
