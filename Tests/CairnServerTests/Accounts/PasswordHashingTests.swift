import Foundation
import NIOPosix
import Testing
import Vapor

@testable import CairnServer

@Suite struct PasswordHashingTests {
    private let hasher = PasswordHasher(cost: 4, threadPool: NIOThreadPool.singleton)

    @Test func everyByteOfALongPasswordCounts() async throws {
        let long = String(repeating: "Ab1!", count: 25)
        let hash = try await hasher.hash(long + "x")

        #expect(try await hasher.verify(long + "x", against: hash))
        #expect(!(try await hasher.verify(long + "y", against: hash)), "bytes past 72 must change the result")
    }

    @Test func theDefaultCostIsStoredInTheHash() async throws {
        let hash = try await PasswordHasher(
            cost: AccountsConfig().passwordHashCost, threadPool: NIOThreadPool.singleton
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
