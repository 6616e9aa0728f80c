import Foundation
import Geo

/// What a guest did on one device, sent along when the guest signs up or logs in: one JSON value per
/// module key (`{"settings": {...}, "runs": [...]}`). See `CairnModule.adoptGuestData`.
package struct GuestData: Sendable, Equatable {
    package let entries: [String: JSONValue]

    package init(_ entries: [String: JSONValue] = [:]) {
        self.entries = entries
    }

    /// The entry under `key` decoded as `T`; nil when it is absent or does not have that shape (guest data
    /// comes from the device and is never trusted).
    package func decode<T: Decodable>(_ key: String, as type: T.Type = T.self) -> T? {
        guard let value = entries[key], let data = try? JSONEncoder().encode(value) else { return nil }
        return try? JSONDecoder().decode(T.self, from: data)
    }
}

extension GuestData: Codable {
    /// The entries as one JSON object, as the device sent them (kept while a sign-up waits for its email).
    package init(from decoder: any Decoder) throws {
        entries = try decoder.singleValueContainer().decode([String: JSONValue].self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(entries)
    }
}
