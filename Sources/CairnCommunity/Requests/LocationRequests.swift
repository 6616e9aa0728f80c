import CairnAPI
import CairnPlatform
import Foundation
import Geo
import Vapor

extension RequestInput {
    /// A list of ids, 0 to `max` of them, duplicates dropped; absent is empty.
    mutating func idList(_ field: String, max: Int, message: String) -> [UUID]? {
        guard let raw = json(field) else { return [] }
        if case .array(let values) = raw, values.count <= max {
            let ids = values.compactMap { value -> UUID? in
                if case .string(let text) = value { return UUID(uuidString: text) }
                return nil
            }
            if ids.count == values.count { return Array(Set(ids)) }
        }
        fail(field, message)
        return nil
    }
}

/// `PUT /api/location/share`: `{"friends": [ids], "groups": [ids], "minutes": 15…1440}` — with whom and for how long.
struct LocationShareForm {
    static let fields: Set<String> = ["friends", "groups", "minutes"]
    static let minutes = 15...1_440
    static let maxPeople = 100

    let friends: [UUID]
    let groups: [UUID]
    let minutes: Int

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let friends = input.idList(
            "friends", max: Self.maxPeople, message: "friends must be a list of your friends' ids.")
        let groups = input.idList("groups", max: Self.maxPeople, message: "groups must be a list of your groups' ids.")
        let minutes = input.integer(
            "minutes", in: Self.minutes, message: "Share for 15 minutes to 24 hours (minutes from 15 to 1440).")
        if input.isValid, let friends, let groups, friends.isEmpty, groups.isEmpty {
            input.fail("friends", "Choose at least one friend or group to share with.")
        }
        (self.friends, self.groups, self.minutes) = try input.finish(friends, groups, minutes)
    }
}

/// `PUT /api/location/position`: `{"lat", "lon", "accuracy_m"?}`.
struct PositionForm {
    static let fields: Set<String> = ["lat", "lon", "accuracy_m"]
    let point: Coordinate
    let accuracyMeters: Double?

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let point = input.location()
        accuracyMeters = input.number("accuracy_m", in: 0...100_000, required: false)
        self.point = try input.finish(point)
    }
}

/// `POST /api/groups`: `{"id", "name", "members": [friend ids]}`.
struct GroupForm {
    static let fields: Set<String> = ["id", "name", "members"]
    static let maxMembers = 50
    let id: UUID
    let name: String
    let members: [UUID]

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let id = input.id("id")
        let name = input.text("name", label: "a name for the group", length: 1...60)
        let members = input.idList(
            "members", max: Self.maxMembers, message: "members must be a list of up to 50 friends' ids.")
        (self.id, self.name, self.members) = try input.finish(id, name, members)
    }
}
