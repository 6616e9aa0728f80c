import CairnTestSupport
import Foundation
import Testing

@testable import CairnPlatform

/// The executor for heavy work refuses at once, rather than queue without end.
@Suite struct BoundedExecutorTests {
    @Test func aFullQueueIsRefusedWith503AndEachClientKeepsToItsShare() async throws {
        let executor = BoundedExecutor(threads: 1, queueLimit: 1)
        let gate = Gate()
        let running = Task { try await executor.run("testing", client: "a", perClient: 1) { gate.wait() } }
        let queued = Task { try await executor.run("testing", client: "b", perClient: 1) { gate.wait() } }
        while executor.inFlight < 2 { try await Task.sleep(for: .milliseconds(5)) }

        await #expect(throws: ServerBusy.self) { try await executor.run("testing", client: "c") {} }
        gate.open()
        try await running.value
        try await queued.value
        #expect(executor.inFlight == 0)
        try await executor.shutdown()
    }

    @Test func aJobThatFindsNoThreadInTimeIsRefusedWith503() async throws {
        let executor = BoundedExecutor(threads: 1, queueLimit: 4, maxWait: .milliseconds(200))
        let gate = Gate()
        let running = Task { try await executor.run("testing") { gate.wait() } }
        while executor.inFlight < 1 { try await Task.sleep(for: .milliseconds(5)) }

        await #expect(throws: ServerBusy.self) { try await executor.run("testing") {} }
        gate.open()
        try await running.value
        let afterwards = try await executor.run("testing") { 7 }

        #expect(afterwards == 7)
        #expect(executor.inFlight == 0)
        try await executor.shutdown()
    }

    @Test func aClientOverItsShareIsRefusedWith429() async throws {
        let executor = BoundedExecutor(threads: 2, queueLimit: 4)
        let gate = Gate()
        let first = Task { try await executor.run("testing", client: "a", perClient: 1) { gate.wait() } }
        while executor.inFlight < 1 { try await Task.sleep(for: .milliseconds(5)) }

        await #expect(throws: ClientBusy.self) { try await executor.run("testing", client: "a", perClient: 1) {} }
        let other = try await executor.run("testing", client: "b", perClient: 1) { 42 }
        gate.open()
        try await first.value

        #expect(other == 42)
        try await executor.shutdown()
    }
}
