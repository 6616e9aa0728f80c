import Foundation
import Vapor

/// Measures how long one password hash takes at a bcrypt cost, for `cairn password-cost`.
public enum PasswordHashTiming {
    /// The median milliseconds of `samples` hashes (pre-hash included) at `cost`.
    public static func measure(cost: Int, samples: Int) throws -> Double {
        let input = PasswordHasher.prehash("Trail-Mix-42!")
        var times: [Double] = []
        for _ in 0..<max(1, samples) {
            let start = ContinuousClock.now
            _ = try Bcrypt.hash(input, cost: cost)
            let elapsed = ContinuousClock.now - start
            times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        return times.sorted()[times.count / 2]
    }
}
