import CairnAPI
import Fluent
import Foundation
import SQLKit

/// Finding people, for the modules that connect them (the community's friends and messages): by username, by
/// id, or by what someone types of a username or a name. Only public fields leave through `PersonCard`.
package enum People {
    /// The person with this username (any case), or nil.
    package static func withUsername(_ username: String, on db: any Database) async throws -> User? {
        try await UserDirectory.byUsername(username, on: db)
    }

    /// The people with these ids that still exist.
    package static func withIDs(_ ids: some Collection<UUID>, on db: any Database) async throws -> [UUID: User] {
        guard !ids.isEmpty else { return [:] }
        let users = try await User.query(on: db).filter(\.$id ~~ Array(Set(ids))).all()
        return Dictionary(uniqueKeysWithValues: users.compactMap { user in user.id.map { ($0, user) } })
    }

    /// People whose username or name contains `text` (any case), usernames starting with it first, then by
    /// username; at most `limit`, without `excluding`.
    package static func search(
        _ text: String, limit: Int, excluding: Set<UUID>, on db: any Database
    ) async throws -> [User] {
        let key = User.key(text)
        guard !key.isEmpty, let sql = db as? any SQLDatabase else { return [] }
        let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        let rows = try await sql.select().column("id").from(User.schema)
            .where(Contains(column: SQLIdentifier("username_key"), pattern: "%\(escaped)%"))
            .orWhere(Contains(column: SQLRaw("LOWER(first_name || ' ' || last_name)"), pattern: "%\(escaped)%"))
            .orderBy("username_key")
            .limit(limit + excluding.count)
            .all(decoding: IDRow.self)
        let ids = rows.map(\.id).filter { !excluding.contains($0) }
        let users = try await withIDs(ids, on: db)
        let ordered = ids.compactMap { users[$0] }
        let starting = ordered.filter { $0.usernameKey.hasPrefix(key) }
        let others = ordered.filter { !$0.usernameKey.hasPrefix(key) }
        return Array((starting + others).prefix(limit))
    }

    /// `column LIKE pattern ESCAPE '\'`, the same on SQLite and PostgreSQL.
    private struct Contains: SQLExpression {
        let column: any SQLExpression
        let pattern: String

        func serialize(to serializer: inout SQLSerializer) {
            column.serialize(to: &serializer)
            serializer.write(" LIKE ")
            serializer.write(bind: pattern)
            serializer.write(" ESCAPE '\\'")
        }
    }

    private struct IDRow: Decodable {
        var id: UUID
    }
}

/// The public face of a person: what anyone signed in may see of them.
extension User {
    /// Where the person's picture is served, with its version; nil when they have none (the app draws their
    /// initials).
    package var avatarPath: String? {
        guard avatarFormat != nil, let id else { return nil }
        let version = Int(avatarUpdatedAt?.timeIntervalSince1970 ?? 0)
        return "/api/users/\(id.uuidString.lowercased())/avatar?v=\(version)"
    }
}
