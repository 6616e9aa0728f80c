import Foundation
import Geo

/// Request ids in the form of random UUIDs, without a system call each: Vapor's `Request` makes a
/// `UUID()` for every request that arrives without `X-Request-ID`, and on Linux that opens and reads
/// `/dev/urandom` every time. One generator per connection, seeded once from the system's random source;
/// the ids only need to be unique in the logs, not unpredictable.
struct RequestIDGenerator {
    private var random: SeededRandom

    init() {
        var system = SystemRandomNumberGenerator()
        random = SeededRandom(seed: system.next())
    }

    /// A version-4-shaped UUID string.
    mutating func next() -> String {
        let high = random.next()
        let low = random.next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
            bytes[index + 8] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        ).uuidString
    }
}
