import Foundation

/// Runs another program (tar, gzip, unzip) to its end through `posix_spawn`, feeding it bytes and collecting
/// what it writes: the one way Cairn and its tests start programs.
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

    /// Runs `path` with `arguments`, `input` on its standard input, and waits for it to end.
    public static func run(_ path: String, _ arguments: [String], input: [UInt8] = []) throws -> Outcome {
        let stdin = try makePipe()
        let stdout = try makePipe()
        let stderr = try makePipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin.read, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout.write, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr.write, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        for descriptor in [stdin.read, stdout.write, stderr.write] { close(descriptor) }
        guard spawned == 0 else {
            for descriptor in [stdin.write, stdout.read, stderr.read] { close(descriptor) }
            throw Failure(description: "cannot start \(path): \(String(cString: strerror(spawned)))")
        }
        let (output, errors) = exchange(input: input, stdin: stdin.write, stdout: stdout.read, stderr: stderr.read)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let signal = status & 0x7f
        return Outcome(status: signal == 0 ? (status >> 8) & 0xff : 128 + signal, output: output, errors: errors)
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
