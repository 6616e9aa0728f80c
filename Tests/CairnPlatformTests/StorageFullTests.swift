import CairnServer
import CairnTestSupport
import Foundation
import NIOCore
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import CairnPlatform

/// A full disk, as each layer reports it — SQLite's SQLITE_FULL, PostgreSQL's disk_full, a file write's
/// ENOSPC or EDQUOT through Foundation or NIO — is one problem: 507 with `Retry-After`, problem+json, a human
/// message. Shown here without filling a disk (SQLite's `max_page_count`, PostgreSQL's `RAISE … USING ERRCODE`,
/// /dev/full); e2e/test_disk_full.py fills a real one.
@Suite struct StorageFullTests {
    @Test func aFullDatabaseIsStorageFullAndItsWriteIsUndone() async throws {
        try await withCairn { app in
            let sql = app.db as! any SQLDatabase
            if sql.dialect.name == "sqlite" {
                try await app.db.withConnection { connection in
                    // Setup: the database may not grow by a page.
                    let sql = connection as! any SQLDatabase
                    try await sql.raw("CREATE TABLE full_test (id INTEGER PRIMARY KEY, bytes BLOB)").run()
                    let pages = try #require(try await sql.raw("PRAGMA page_count").first(decoding: PageCount.self))
                    try await sql.raw("PRAGMA max_page_count = \(unsafeRaw: String(pages.pages))").run()

                    // Act: a write that needs more pages.
                    let error = await #expect(throws: (any Error).self) {
                        try await sql.raw("INSERT INTO full_test (bytes) VALUES (zeroblob(100000))").run()
                    }

                    // Check: the storage is full, nothing was written, and with room the same write succeeds.
                    #expect(StorageFull.matches(try #require(error)))
                    #expect(try await sql.raw("SELECT id FROM full_test").all().isEmpty)
                    try await sql.raw("PRAGMA max_page_count = 1073741823").run()
                    try await sql.raw("INSERT INTO full_test (bytes) VALUES (zeroblob(100000))").run()
                    #expect(try await sql.raw("SELECT id FROM full_test").all().count == 1)
                }
            } else {
                let error = await #expect(throws: (any Error).self) {
                    try await sql.raw(
                        """
                        DO $$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'
                        USING ERRCODE = 'disk_full'; END $$
                        """
                    ).run()
                }
                #expect(StorageFull.matches(try #require(error)))
            }
            let other = await #expect(throws: (any Error).self) {
                try await sql.raw("SELECT * FROM no_such_table").run()
            }
            #expect(!StorageFull.matches(try #require(other)))
        }
    }

    @Test func aFileWriteOnAFullDeviceIsStorageFull() throws {
        // /dev/full answers every write with ENOSPC.
        let error = #expect(throws: (any Error).self) {
            try Data(count: 1 << 16).write(to: URL(fileURLWithPath: "/dev/full"))
        }
        #expect(StorageFull.matches(try #require(error)))
    }

    @Test func outOfSpaceErrnosAreStorageFullOtherFailuresAreNot() {
        #expect(StorageFull.matches(IOError(errnoCode: ENOSPC, reason: "write")))
        #expect(StorageFull.matches(IOError(errnoCode: EDQUOT, reason: "write")))
        #expect(StorageFull.matches(POSIXError(.ENOSPC)))
        #expect(StorageFull.matches(CocoaError(.fileWriteOutOfSpace)))
        #expect(
            StorageFull.matches(
                NSError(
                    domain: NSCocoaErrorDomain, code: CocoaError.fileWriteUnknown.rawValue,
                    userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))])))
        #expect(!StorageFull.matches(IOError(errnoCode: EACCES, reason: "open")))
        #expect(!StorageFull.matches(POSIXError(.EIO)))
        #expect(!StorageFull.matches(CocoaError(.fileWriteNoPermission)))
        #expect(!StorageFull.matches(Abort(.internalServerError)))
        #expect(!StorageFull.matches(CancellationError()))
    }

    @Test func storageFullIsAnsweredAs507ProblemWithRetryAfter() async throws {
        try await withCairn { app in
            let request = Request(application: app, on: app.eventLoopGroup.any())
            let problem = ProblemMiddleware.problem(for: IOError(errnoCode: ENOSPC, reason: "write"), request: request)
            #expect(problem.status == 507 && problem.type == "/problems/storage-full")
            #expect(
                problem.detail.contains("run out of storage space") && problem.detail.contains("Nothing was changed"))
            let response = ProblemMiddleware.response(for: problem, request: request)
            #expect(response.status == .insufficientStorage)
            #expect(response.headers.first(name: .retryAfter) == String(StorageFull.retryAfterSeconds))
            #expect(response.headers.contentType?.description.hasPrefix("application/problem+json") == true)
        }
    }

    @Test func healthIs503WhenTheDataFolderHasLessRoomThanTheReserve() async throws {
        // Setup: the real free space under the data folder is below the "full" reserve.
        let huge = Int64(1) << 60
        let noRoom: (inout CairnConfig) -> Void = {
            $0.dataFolderSpace = DataFolderSpace(fullBelowBytes: huge, lowBelowBytes: huge)
        }
        try await withCairn(noRoom) { app in
            // Act
            let response = try await app.testing().sendRequest(.GET, "/healthz")

            // Check: out of the load balancer's rotation, saying why; the database itself is fine.
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers.first(name: .cacheControl) == "no-store")
            let body = try response.decoded([String: String].self)
            #expect(body == ["status": "degraded", "database": "ok", "disk": "full"])
        }
    }

    @Test func healthStaysUpButDegradedWhenTheDataFolderRunsLow() async throws {
        let littleRoom: (inout CairnConfig) -> Void = {
            $0.dataFolderSpace = DataFolderSpace(fullBelowBytes: 0, lowBelowBytes: 1 << 60)
        }
        try await withCairn(littleRoom) { app in
            let response = try await app.testing().sendRequest(.GET, "/healthz")

            #expect(response.status == .ok)
            #expect(
                try response.decoded([String: String].self) == ["status": "degraded", "database": "ok", "disk": "low"])
        }
    }

    @Test func theDiskThresholdsAreReadInMegabytesAndLowIsNeverBelowFull() throws {
        let space = try DataFolderSpace.fromEnvironment(["CAIRN_DISK_FULL_MB": "32", "CAIRN_DISK_LOW_MB": "2048"])
        #expect(space == DataFolderSpace(fullBelowBytes: 32 << 20, lowBelowBytes: 2048 << 20))
        #expect(try DataFolderSpace.fromEnvironment([:]) == DataFolderSpace())
        let error = #expect(throws: StartupError.self) {
            try DataFolderSpace.fromEnvironment(["CAIRN_DISK_FULL_MB": "500", "CAIRN_DISK_LOW_MB": "100"])
        }
        #expect(error?.description.contains("CAIRN_DISK_LOW_MB") == true)
    }

    @Test func aWholeFileReplacesItsTargetOrLeavesNothing() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("cairn-whole-file-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("photo.jpg")
        let thumbnail = folder.appendingPathComponent("photo-thumb.jpg")

        // A write replaces the file and leaves no partial file.
        try WholeFile.write(Data("old".utf8), to: photo)
        try WholeFile.write(Data("new".utf8), to: photo)
        #expect(try Data(contentsOf: photo) == Data("new".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["photo.jpg"])

        // A group of files whose second cannot be written leaves none of them.
        let missing = folder.appendingPathComponent("missing/photo.jpg")
        #expect(throws: (any Error).self) {
            try WholeFile.write([(data: Data("t".utf8), url: thumbnail), (data: Data("p".utf8), url: missing)])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["photo.jpg"])
    }
}

private struct PageCount: Decodable {
    let pages: Int

    enum CodingKeys: String, CodingKey {
        case pages = "page_count"
    }
}
