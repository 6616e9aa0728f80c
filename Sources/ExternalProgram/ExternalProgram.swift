import Foundation

/// Runs another program through `posix_spawn`: to its end, feeding it bytes and collecting what it writes (tar,
/// gzip, unzip), or in the background with its output in a log file (the benchmarks' servers). The one way Cairn,
/// its tests and its benchmarks start programs.
///
/// Not Foundation's `Process`: on Linux its `run()` lists `/proc/self/fd` and copies every entry's whole
/// 256-byte name, reading past the end of the directory buffer; in a process with some 1,300 descriptors open
/// (a test run with a thousand sockets) that read leaves the heap and crashes the process (AddressSanitizer:
/// heap-buffer-overflow in `findMaximumOpenFromProcSelfFD`; in CI a SIGSEGV in `memmove`).
public enum ExternalProgram {
    /// How a program ended and what it wrote.
    public struct Outcome: Sendable {
        /// The exit status; 128 + the signal's number when a signal ended it.
        public let status: Int32
        public let output: [UInt8]
        public let errors: [UInt8]

        /// Standard error as text, trimmed.
        public var errorText: String {
            String(decoding: errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// The program could not be started, or a pipe failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `path` with `arguments`, `input` on its standard input, and waits for it to end. `environment`
    /// replaces this process's environment when given.
    public static func run(
        _ path: String, _ arguments: [String], input: [UInt8] = [], environment: [String: String]? = nil
    ) throws -> Outcome {
        let stdin = try makePipe()
        let stdout = try makePipe()
        let stderr = try makePipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin.read, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout.write, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr.write, 2)
        var pid = pid_t()
        let spawned = spawn(&pid, path, arguments, environment, &actions)
        for descriptor in [stdin.read, stdout.write, stderr.write] { close(descriptor) }
        guard spawned == 0 else {
            for descriptor in [stdin.write, stdout.read, stderr.read] { close(descriptor) }
            throw Failure(description: "cannot start \(path): \(String(cString: strerror(spawned)))")
        }
        let (output, errors) = exchange(input: input, stdin: stdin.write, stdout: stdout.read, stderr: stderr.read)
        return Outcome(status: waitForExit(pid), output: output, errors: errors)
    }

    /// A program started in the background by `start`, until it ends or is stopped.
    public final class Running: @unchecked Sendable {
        /// The process's id (for /proc/<pid>/stat).
        public let pid: pid_t
        private let lock = NSLock()
        private var status: Int32?

        init(pid: pid_t) { self.pid = pid }

        /// Whether the program has not ended yet.
        public var isRunning: Bool {
            lock.withLock {
                guard status == nil else { return false }
                var raw: Int32 = 0
                guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
                status = ExternalProgram.exitStatus(raw)
                return false
            }
        }

        /// Sends SIGTERM and waits for the program to end; its exit status (as `Outcome.status`).
        @discardableResult
        public func stop() -> Int32 {
            lock.withLock {
                if let status { return status }
                kill(pid, SIGTERM)
                let ended = ExternalProgram.waitForExit(pid)
                status = ended
                return ended
            }
        }
    }

    /// Starts `path` with `arguments` in the background, its standard output and error appended to `log` (created
    /// if missing) and its standard input empty. `environment` replaces this process's environment when given.
    public static func start(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, log: URL
    ) throws -> Running {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid = pid_t()
        let spawned = spawn(&pid, path, arguments, environment, &actions)
        guard spawned == 0 else {
            throw Failure(description: "cannot start \(path): \(String(cString: strerror(spawned)))")
        }
        return Running(pid: pid)
    }

    /// Spawns with every signal's default action and none blocked: a program must not inherit what this process
    /// ignores (SIGPIPE here; SIGTERM and SIGINT under Vapor, which handles them itself), or it could not be stopped.
    private static func spawn(
        _ pid: inout pid_t, _ path: String, _ arguments: [String], _ environment: [String: String]?,
        _ actions: inout posix_spawn_file_actions_t
    ) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        guard let environment else { return posix_spawn(&pid, path, &actions, &attributes, argv, environ) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for entry in envp { free(entry) } }
        return posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    }

    private static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return exitStatus(status)
    }

    /// The exit status of a raw `waitpid` status: 128 + the signal's number when a signal ended the program.
    static func exitStatus(_ raw: Int32) -> Int32 {
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }

    /// Writes `input` and reads both outputs at once (a child that fills one pipe while the other is
    /// read would otherwise wait forever), until the child has closed them. Closes the three descriptors.
    private static func exchange(
        input: [UInt8], stdin: Int32, stdout: Int32, stderr: Int32
    ) -> (output: [UInt8], errors: [UInt8]) {
        // A child that stops reading must give an error here, not end this process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        _ = fcntl(stdin, F_SETFL, fcntl(stdin, F_GETFL) | O_NONBLOCK)
        var writing: Int32? = stdin
        var written = 0
        if input.isEmpty {
            close(stdin)
            writing = nil
        }
        var reading: Set<Int32> = [stdout, stderr]
        var received: [Int32: [UInt8]] = [stdout: [], stderr: []]
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while writing != nil || !reading.isEmpty {
            var watched = reading.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if let writing { watched.append(pollfd(fd: writing, events: Int16(POLLOUT), revents: 0)) }
            if poll(&watched, nfds_t(watched.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for entry in watched where entry.revents != 0 {
                if entry.fd == writing {
                    let count = input[written...].withUnsafeBytes { write(entry.fd, $0.baseAddress, $0.count) }
                    if count > 0 { written += count }
                    if written == input.count || (count < 0 && errno != EINTR && errno != EAGAIN) {
                        close(entry.fd)
                        writing = nil
                    }
                } else {
                    let count = chunk.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                    if count > 0 {
                        received[entry.fd, default: []].append(contentsOf: chunk[..<count])
                    } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                        reading.remove(entry.fd)
                        close(entry.fd)
                    }
                }
            }
        }
        if let writing { close(writing) }
        for descriptor in reading { close(descriptor) }
        return (received[stdout] ?? [], received[stderr] ?? [])
    }

    /// A pipe whose ends are closed in any other program this process starts (the child's are copies by dup2).
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw Failure(description: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (descriptors[0], descriptors[1])
    }
}
