import CairnPlatform
import Fluent
import Foundation

extension PushKind {
    /// The Thursday notification naming trails the person has never started (Trailz 3.2.3.1).
    package static let trailSuggestions = PushKind("trail_suggestions")
}

/// The catalogue trails each of a batch of people has started, from the Activities module (given by the
/// composition root).
package typealias StartedTrails = @Sendable (_ users: [UUID], _ db: any Database) async throws -> [UUID: Set<UUID>]

/// Weekly suggestions (Trailz 3.2.3.1–3.2.3.1.3): one push notification to each person with a subscribed device
/// and the switch on, naming up to three trails they have never started in Browse's Suggested order (by name,
/// as Browse orders them without a location), opening Browse › Suggested Trails. People are read in batches.
struct TrailSuggestions: Sendable {
    let push: any PushNotifier
    let startedTrails: StartedTrails

    static let batchSize = 200
    /// The head of the order read once per run; a person who started all of them gets a query of their own.
    static let candidateCount = 100
    static let perNotification = 3
    /// Browse › Suggested Trails.
    static let url = "/#/trails?show=suggested"
    static let tag = "trail-suggestions"

    /// Sends this week's suggestions; returns how many people were notified.
    @discardableResult
    func send(on db: any Database) async throws -> Int {
        let candidates = try await TrailRecord.query(on: db).sort(\.$name).sort(\.$id).field(\.$id).field(\.$name)
            .limit(Self.candidateCount).all()
        guard !candidates.isEmpty else { return 0 }
        var notified = 0
        var after: UUID?
        repeat {
            let page = try await push.subscribers(for: .trailSuggestions, after: after, limit: Self.batchSize, on: db)
            let started = try await startedTrails(page.users, db)
            for user in page.users {
                let done = started[user] ?? []
                var names = candidates.filter { !done.contains($0.id ?? UUID()) }.prefix(Self.perNotification)
                    .map(\.name)
                if names.count < Self.perNotification, candidates.count == Self.candidateCount {
                    names = try await TrailRecord.query(on: db).filter(\.$id !~ Array(done)).sort(\.$name)
                        .sort(\.$id).field(\.$id).field(\.$name).limit(Self.perNotification).all().map(\.name)
                }
                guard !names.isEmpty else { continue }
                await push.notify([user], kind: .trailSuggestions, Self.notification(naming: names), on: db)
                notified += 1
            }
            after = page.next
        } while after != nil
        return notified
    }

    static func notification(naming names: [String]) -> PushNotification {
        let list: String
        switch names.count {
        case 1: list = names[0]
        default: list = names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
        }
        return PushNotification(
            title: "Trails to try this week", body: "You have not hiked \(list) yet.", tag: tag, url: url,
            timeToLiveSeconds: 12 * 3600, urgency: "low")
    }
}
