import CairnPlatform
import CairnTestSupport
import Foundation
import Testing
import Vapor

@testable import CairnAccounts

@Suite struct PasswordHashingTests {
    /// Lives as long as the test process.
    private static let executor = BoundedExecutor(threads: 1, queueLimit: 8)
    private let hasher = PasswordHasher(cost: 4, executor: executor)

    @Test func everyByteOfALongPasswordCounts() async throws {
        let long = String(repeating: "Ab1!", count: 25)
        let hash = try await hasher.hash(long + "x")

        #expect(try await hasher.verify(long + "x", against: hash))
        #expect(!(try await hasher.verify(long + "y", against: hash)), "bytes past 72 must change the result")
    }

    @Test func theDefaultCostIsStoredInTheHash() async throws {
        let hash = try await PasswordHasher(
            cost: AccountsConfig().passwordHashCost, executor: Self.executor
        )
        .hash("Trail-Mix-42!")

        #expect(hash.hasPrefix("$2b$10$"))
    }

    @Test func theCommonPasswordListIsLoadedWithItsTenThousandEntries() {
        #expect(CommonPasswords.list.count == 10_000)
        #expect(CommonPasswords.contains("PASSWORD"))
        #expect(CommonPasswords.contains("Sunshine123!"))
        #expect(!CommonPasswords.contains("Trail-Mix-42!"))
    }
}
