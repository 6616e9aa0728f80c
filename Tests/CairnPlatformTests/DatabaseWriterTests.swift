import CairnServer
import CairnTestSupport
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import CairnPlatform

/// `DatabaseWriter.transaction`, the one way Cairn writes: concurrent writers queue instead of failing, a nested one
/// joins its caller, and a failure rolls everything back.
@Suite struct DatabaseWriterTests {
    private static func counter(_ app: Application) async throws -> any SQLDatabase {
        let sql = app.db as! any SQLDatabase
        try await sql.raw("CREATE TABLE writer_test (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)").run()
        try await sql.raw("INSERT INTO writer_test (id, n) VALUES (1, 0)").run()
        return sql
    }

    @Test func concurrentReadThenWriteTransactionsAllCommit() async throws {
        try await withComposedCairn { app, cairn in
            let sql = try await Self.counter(app)
            let writer = cairn.platform.writer

            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        try await writer.transaction(on: app.db) { db in
                            let sql = db as! any SQLDatabase
                            let n =
                                try await sql.raw("SELECT n FROM writer_test WHERE id = 1").first(
                                    decodingColumn: "n", as: Int.self) ?? 0
                            try await sql.raw("UPDATE writer_test SET n = \(bind: n + 1) WHERE id = 1").run()
                        }
                    }
                }
                try await group.waitForAll()
            }

            let total = try await sql.raw("SELECT n FROM writer_test WHERE id = 1").first(
                decodingColumn: "n", as: Int.self)
            #expect(total == 50)
        }
    }

    @Test func aNestedWriteTransactionJoinsItsCallerAndAFailureRollsBothBack() async throws {
        try await withComposedCairn { app, cairn in
            let sql = try await Self.counter(app)
            let writer = cairn.platform.writer
            struct Refused: Error {}

            await #expect(throws: Refused.self) {
                try await writer.transaction(on: app.db) { db in
                    try await (db as! any SQLDatabase).raw("UPDATE writer_test SET n = 7 WHERE id = 1").run()
                    try await writer.transaction(on: app.db) { inner in
                        try await (inner as! any SQLDatabase).raw("UPDATE writer_test SET n = n + 1 WHERE id = 1").run()
                    }
                    throw Refused()
                }
            }

            let n = try await sql.raw("SELECT n FROM writer_test WHERE id = 1").first(decodingColumn: "n", as: Int.self)
            #expect(n == 0)
        }
    }
}
