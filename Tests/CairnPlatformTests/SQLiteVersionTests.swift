import CairnTestSupport
import Foundation
import SQLKit
import Testing
import Vapor

@testable import CairnPlatform

/// Start-up refuses a SQLite older than 3.51.3 (the WAL-reset fix) with a message that says what to do.
@Suite struct SQLiteVersionTests {
    @Test func versionsBeforeTheWALResetFixAreRefusedWithTheFix() throws {
        #expect(throws: Never.self) { try SQLiteVersion.check("3.51.3") }
        #expect(throws: Never.self) { try SQLiteVersion.check("3.54.1") }
        #expect(throws: Never.self) { try SQLiteVersion.check("4.0") }
        for old in ["3.40.1", "3.51.2", "3.8"] {
            let error = #expect(throws: StartupError.self) { try SQLiteVersion.check(old) }
            #expect(error?.description.contains("SQLite \(old) is older than 3.51.3") == true)
            #expect(error?.description.contains("swift package update sqlite-nio") == true)
            #expect(error?.description.contains("DATABASE_URL") == true)
        }
        #expect(throws: StartupError.self) { try SQLiteVersion.check("three") }
    }

    @Test func theSQLiteCairnRunsOnIsRecentEnough() async throws {
        let app = try await Application.make(.testing)
        do {
            try DatabaseSetup.configure(app, location: .sqliteMemory)
            try await DatabaseSetup.prepare(app, location: .sqliteMemory)
            let row = try await (app.db as! any SQLDatabase).raw("SELECT sqlite_version() AS version").first()
            let text = try #require(row).decode(column: "version", as: String.self)
            let version = try #require(SQLiteVersion.parse(text))
            #expect(!version.lexicographicallyPrecedes(SQLiteVersion.minimum))
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }
}
