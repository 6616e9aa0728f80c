import CairnTestSupport
import Fluent
import Foundation
import NIOConcurrencyHelpers
import Testing
import Vapor

@testable import CairnPlatform

/// `VersionGuardedStore`, the in-memory copy of a data set kept by its version row (the field guide's catalogue,
/// the ski mountains, the trails' map): one build each time the version moves, shared by the readers that find
/// the copy stale together, one build at a time, and never an older index after a newer one.
@Suite struct VersionGuardedStoreTests {
    /// A data set of the tests' own.
    enum Counter: VersionTable {
        static let schema = "version_guard_test"
    }

    typealias Store = VersionGuardedStore<Counter, Int>

    /// Builds numbered 1, 2, …: each index is its build's number. A closed build waits until `open()`.
    final class Builds: Sendable {
        private let state = NIOLockedValueBox((count: 0, open: true))

        init(open: Bool = true) { state.withLockedValue { $0.open = open } }

        var count: Int { state.withLockedValue { $0.count } }

        func open() { state.withLockedValue { $0.open = true } }

        func build() async throws -> Int {
            let number = state.withLockedValue { state in
                state.count += 1
                return state.count
            }
            while !state.withLockedValue({ $0.open }) { try await Task.sleep(for: .milliseconds(5)) }
            return number
        }

        func untilStarted(_ count: Int) async throws {
            while self.count < count { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    /// A fresh database with `Counter`'s version table (made as the modules' migrations make theirs).
    private static func withCounter(_ test: (any Database) async throws -> Void) async throws {
        try await withComposedCairn { app, _ in
            try await app.db.schema(Counter.schema)
                .field("id", .int, .identifier(auto: false))
                .field("version", .int, .required)
                .field("updated_at", .datetime, .required)
                .create()
            try await test(app.db)
        }
    }

    @Test func theIndexIsBuiltOnceEachTimeTheVersionMoves() async throws {
        try await Self.withCounter { db in
            let builds = Builds()
            let store = Store { _ in try await builds.build() }

            let first = try await store.current(on: db)
            let again = try await store.current(on: db)
            try await Counter.bump(on: db, at: Date())
            let moved = try await store.current(on: db)
            let movedAgain = try await store.current(on: db)

            #expect(first.version == 0 && first.index == 1 && again.version == 0 && again.index == 1)
            #expect(moved.version == 1 && moved.index == 2 && movedAgain.version == 1 && movedAgain.index == 2)
            #expect(builds.count == 2)
        }
    }

    @Test func readersThatFindTheIndexStaleTogetherShareOneBuild() async throws {
        try await Self.withCounter { db in
            let builds = Builds(open: false)
            let store = Store { _ in try await builds.build() }
            try await Counter.bump(on: db, at: Date())

            let readers = Task {
                try await withThrowingTaskGroup(of: Store.Snapshot.self) { group in
                    for _ in 0..<20 { group.addTask { try await store.current(on: db) } }
                    return try await group.reduce(into: [Store.Snapshot]()) { $0.append($1) }
                }
            }
            try await builds.untilStarted(1)
            try await Task.sleep(for: .milliseconds(200))
            let startedWhileBuilding = builds.count
            builds.open()
            let snapshots = try await readers.value

            #expect(startedWhileBuilding == 1)
            #expect(snapshots.count == 20)
            #expect(snapshots.allSatisfy { $0.version == 1 && $0.index == 1 })
            #expect(builds.count == 1)
        }
    }

    @Test func aNewerVersionIsBuiltAfterTheBuildUnderWayAndNoReaderGetsAnOlderIndexAfterIt() async throws {
        try await Self.withCounter { db in
            let builds = Builds(open: false)
            let store = Store { _ in try await builds.build() }
            try await Counter.bump(on: db, at: Date())
            let atOne = Task { try await store.current(on: db) }
            try await builds.untilStarted(1)
            try await Counter.bump(on: db, at: Date())

            let atTwo = Task { try await store.current(on: db) }
            try await Task.sleep(for: .milliseconds(200))
            let startedWhileBuilding = builds.count
            builds.open()
            let newer = try await atTwo.value
            let older = try await atOne.value
            // A reader that read the version before the last write committed: it is served the newer index.
            let late = try await store.snapshot(at: 1, on: db)
            let next = try await store.current(on: db)

            #expect(startedWhileBuilding == 1)
            #expect(newer.version == 2 && newer.index == 2)
            #expect(older.version >= 1 && older.index == older.version)
            #expect(late.version == 2 && late.index == 2)
            #expect(next.version == 2 && next.index == 2)
            #expect(builds.count == 2)
        }
    }

    @Test func aFailedBuildIsTriedAgainByTheNextReader() async throws {
        try await Self.withCounter { db in
            struct Unreadable: Error {}
            let failing = NIOLockedValueBox(true)
            let builds = Builds()
            let store = Store { _ in
                let number = try await builds.build()
                if failing.withLockedValue({ $0 }) { throw Unreadable() }
                return number
            }

            await #expect(throws: Unreadable.self) { try await store.current(on: db) }
            failing.withLockedValue { $0 = false }
            let retried = try await store.current(on: db)

            #expect(retried.version == 0 && retried.index == 2)
        }
    }
}
