import ExternalProgram
import Foundation
import Testing

/// Programs run through `posix_spawn` (Backup's tar, the tests' gzip and unzip).
@Suite struct ExternalProgramTests {
    @Test func inputOutputAndErrorsTravelWholeBothWays() throws {
        // 4 MiB each way: far more than a pipe holds, so writing and reading must go on at once.
        let input = (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let cat = try ExternalProgram.run("/bin/cat", [], input: input)
        let shell = try ExternalProgram.run("/bin/sh", ["-c", "echo out; echo 'went wrong' >&2; exit 3"])

        #expect(cat.status == 0)
        #expect(cat.output == input)
        #expect(shell.status == 3)
        #expect(shell.output == Array("out\n".utf8))
        #expect(shell.errorText == "went wrong")
    }

    @Test func aSignalAndAMissingProgramAreReported() throws {
        let killed = try ExternalProgram.run("/bin/sh", ["-c", "kill -9 $$"])

        #expect(killed.status == 128 + 9)
        #expect(throws: ExternalProgram.Failure.self) { try ExternalProgram.run("/nonexistent/program", []) }
    }

    /// Foundation's `Process.run()` read past its directory buffer listing `/proc/self/fd` once about 1,300
    /// descriptors were open, and crashed the test process in CI; the runner does not list them.
    @Test func runsWhileThousandsOfDescriptorsAreOpen() throws {
        let opened = (0..<3_000).map { _ in open("/dev/null", O_RDONLY | O_CLOEXEC) }
        defer { for descriptor in opened where descriptor >= 0 { close(descriptor) } }
        let echo = try ExternalProgram.run("/bin/echo", ["still here"])

        #expect(opened.allSatisfy { $0 >= 0 })
        #expect(echo.output == Array("still here\n".utf8))
    }

    @Test func aBackgroundProgramWritesItsLogWithItsEnvironmentAndStopsOnRequest() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("external-\(UUID()).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let server = try ExternalProgram.start(
            "/bin/sh", ["-c", "echo \"serving $GREETING\"; echo 'to stderr' >&2; exec sleep 3600"],
            environment: ["GREETING": "hello", "PATH": "/usr/bin:/bin"], log: log)
        let brief = try ExternalProgram.start("/bin/sh", ["-c", "exit 4"], log: log)

        // Generous: beside the whole suite on two cores, a program may wait seconds for the CPU. The server is
        // stopped only once it has written both lines, or a signal could beat its `echo`.
        func hasWrittenBoth() -> Bool {
            let written = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return written.contains("serving hello\n") && written.contains("to stderr\n")
        }
        var waited = 0
        while (brief.isRunning || !hasWrittenBoth()) && waited < 1_200 {
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        #expect(!brief.isRunning)
        #expect(brief.stop() == 4)
        #expect(hasWrittenBoth())
        #expect(server.isRunning)
        #expect(server.stop() == 128 + SIGTERM)
        #expect(!server.isRunning)
    }
}
