import Foundation

/// Writes files whole or not at all: the bytes go to a hidden partial file beside the target, which is
/// renamed over the target once every byte is written. When a write fails half-way — most often because the
/// disk is full (ENOSPC, answered 507 through `StorageFull`) — the partial file is removed and the target is
/// left as it was, so a full disk leaves neither half a photo nor a stray partial file taking the space.
/// Blocking: call it from `FileWork.run` or another thread-pool thread.
package enum WholeFile {
    /// Writes `data` to `url` (replacing a file there), whole or not at all; throws the write's error.
    package static func write(_ data: Data, to url: URL) throws {
        let partial = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.lowercased()).partial")
        do {
            try data.write(to: partial)
            guard rename(partial.path, url.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }

    /// Writes each file of `files` whole; when one fails, those already written are removed again (and any
    /// file they replaced is gone), then the error is thrown. For an upload made of several files (a photo
    /// and its thumbnail) that must exist together or not at all.
    package static func write(_ files: [(data: Data, url: URL)]) throws {
        var written: [URL] = []
        do {
            for file in files {
                try write(file.data, to: file.url)
                written.append(file.url)
            }
        } catch {
            remove(written)
            throw error
        }
    }

    /// Removes `urls`, ignoring those already gone: the undo of a write whose database change did not commit.
    package static func remove(_ urls: [URL]) {
        for url in urls { try? FileManager.default.removeItem(at: url) }
    }
}
