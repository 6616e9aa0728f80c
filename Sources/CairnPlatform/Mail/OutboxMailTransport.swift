import Foundation

/// Writes each message as an `.eml` file into a folder (`$CAIRN_DATA_DIR/outbox` by default). Files are
/// written whole or not at all (`WholeFile`), so a reader never sees half a message.
public struct OutboxMailTransport: MailTransport {
    public let folder: URL
    /// Dates the messages and orders their files.
    private let now: @Sendable () -> Date

    public init(folder: URL, now: @escaping @Sendable () -> Date = ExternalServices.systemClock) {
        self.folder = folder
        self.now = now
    }

    public func send(_ message: MailMessage) async throws {
        let date = now()
        let id = UUID().uuidString.lowercased()
        let stamp = Int(date.timeIntervalSince1970 * 1000)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("\(stamp)-\(id).eml")
            try WholeFile.write(Data(message.rfc5322(date: date, messageID: "\(id)@cairn").utf8), to: file)
        } catch {
            // A full disk is said as such (507 through `StorageFull`), not as a mail fault.
            if StorageFull.matches(error) { throw error }
            throw MailDeliveryError("cannot write to the mail outbox \(folder.path): \(error.localizedDescription)")
        }
    }

    /// Deletes the messages addressed to `address` (when its owner deletes their account).
    public func removeMessages(to address: String) {
        let wanted = address.lowercased()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasSuffix(".eml") {
            let file = folder.appendingPathComponent(name)
            guard let eml = try? String(contentsOf: file, encoding: .utf8) else { continue }
            let recipients = OutboxMessage(file: name, eml: eml).to.lowercased().split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if recipients.contains(wanted) { try? FileManager.default.removeItem(at: file) }
        }
    }
}
