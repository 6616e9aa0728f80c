import CairnPlatform
import Fluent
import Foundation
import Logging

/// Publishes lot changes on the platform's realtime hub, topic `parking.lot.<id>` (public: anyone may follow
/// a lot), after the write that made them has committed. On PostgreSQL the hub reaches the sockets of every
/// `cairn serve` instance.
struct LiveChanges: Sendable {
    static let family = "parking.lot"

    let hub: RealtimeHub
    let status: LotStatus
    let logger: Logger

    static func register(on hub: RealtimeHub) throws {
        try hub.register(
            RealtimeTopicFamily(prefix: family, history: .keep(last: 200, forSeconds: 300)) { _, topic, db in
                guard let id = UUID(uuidString: topic.id), try await ParkingLot.find(id, on: db) != nil else {
                    return .deny("There is no such parking lot.")
                }
                return .allow
            })
    }

    /// Publishes each lot's new counts and its changed spots. A failure is logged: the change stands, and
    /// clients catch up when they reload.
    func publish(_ changed: [UUID: Set<UUID>], now: Date, on db: any Database) async {
        guard !changed.isEmpty else { return }
        do {
            let changes = try await status.changes(changed, now: now, on: db)
            let publications = try changes.sorted(by: { $0.key.uuidString < $1.key.uuidString }).map { lotID, change in
                try RealtimePublication(topic: "\(Self.family).\(lotID.uuidString)", payload: change)
            }
            _ = try await hub.publish(publications)
        } catch {
            logger.warning("parking change not published", metadata: ["error": "\(error)"])
        }
    }
}
