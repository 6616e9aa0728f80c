import Foundation

/// The folder holding everything Cairn writes: the SQLite file, mail outbox, uploads, street graphs.
package enum DataDirectory {
    /// Creates the folder when missing and proves it writable, so a bad `CAIRN_DATA_DIR` fails at start-up
    /// with one clear line instead of at the first write.
    package static func prepare(_ directory: URL) throws {
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: directory, withIntermediateDirectories: true)
            let probe = directory.appendingPathComponent(".write-test-\(UUID().uuidString)")
            try Data().write(to: probe)
            try fm.removeItem(at: probe)
        } catch {
            throw StartupError(
                "the data folder \(directory.path) is not writable — fix its permissions or set CAIRN_DATA_DIR to a writable folder"
            )
        }
    }
}
