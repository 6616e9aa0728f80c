import Encodings
import Foundation

/// Which page of a list a client asks for, by cursor: `limit` items after the item `cursor` names (the
/// `next_cursor` of the page before), or the first page without one.
package struct CursorPage: Sendable, Equatable {
    package var limit: Int
    package var cursor: PageCursor?
}

/// Where a page ends, handed to the client as `next_cursor` and back as `cursor`: the sort value of the last
/// item shown and its id (ties on the sort value are ordered by id). Opaque to clients: base64url text.
package struct PageCursor: Sendable, Equatable {
    /// The last item's sort value, as text (a timestamp's seconds, a name, a distance).
    package var after: String
    package var id: UUID

    package init(after: String, id: UUID) {
        self.after = after
        self.id = id
    }

    /// base64url of `after`, a unit separator, and the id.
    package var encoded: String {
        Base64URL.encode(Data((after + "\u{1F}" + id.uuidString.lowercased()).utf8))
    }

    package init?(encoded text: String) {
        guard text.count <= 1_024, let data = Base64URL.decode(text),
            let decoded = String(data: data, encoding: .utf8),
            let separator = decoded.lastIndex(of: "\u{1F}"),
            let id = UUID(uuidString: String(decoded[decoded.index(after: separator)...]))
        else { return nil }
        self.init(after: String(decoded[..<separator]), id: id)
    }
}

/// Which page of a list a client asks for, by number: `page` (from 1) of `limit` items.
package struct NumberedPage: Sendable, Equatable {
    package var page: Int
    package var limit: Int
    /// Items before this page.
    package var offset: Int { (page - 1) * limit }
}

/// The order a list is asked in: `sort=name` ascending, `sort=-name` descending.
package struct SortOrder<Key: RawRepresentable & CaseIterable & Sendable & Equatable>: Sendable, Equatable
where Key.RawValue == String {
    package var key: Key
    package var descending: Bool

    package init(_ key: Key, descending: Bool = false) {
        self.key = key
        self.descending = descending
    }

    /// `name` or `-name`.
    package var text: String { (descending ? "-" : "") + key.rawValue }
}

extension RequestInput {
    /// `limit` (1…`maxLimit`, by default `defaultLimit`) and `cursor` (a `next_cursor` this API handed out).
    package mutating func cursorPage(defaultLimit: Int = 20, maxLimit: Int = 100) -> CursorPage {
        let limit = integer("limit", in: 1...maxLimit, default: defaultLimit)
        var cursor: PageCursor?
        if let text = raw("cursor") {
            switch text {
            case .text(let value), .json(.string(let value)):
                cursor = PageCursor(encoded: value)
            case .json:
                break
            }
            if cursor == nil { fail("cursor", Wording.cursor(path("cursor"))) }
        }
        return CursorPage(limit: limit, cursor: cursor)
    }

    /// `page` (1…`maxPage`, by default 1) and `limit` (1…`maxLimit`, by default `defaultLimit`).
    package mutating func numberedPage(defaultLimit: Int = 20, maxLimit: Int = 100, maxPage: Int = 10_000)
        -> NumberedPage
    {
        NumberedPage(
            page: integer("page", in: 1...maxPage, default: 1),
            limit: integer("limit", in: 1...maxLimit, default: defaultLimit))
    }

    /// A sort order over `Key`'s cases, `key` or `-key`; `fallback` when absent (and when bad, with
    /// "sort must be name, -name, distance or -distance.").
    package mutating func sort<Key>(_ field: String = "sort", default fallback: SortOrder<Key>) -> SortOrder<Key> {
        let orders = Key.allCases.flatMap { [SortOrder($0), SortOrder($0, descending: true)] }
        switch raw(field) {
        case nil: return fallback
        case .text(let text)?, .json(.string(let text))?:
            if let order = orders.first(where: { $0.text == text.trimmingCharacters(in: .whitespaces) }) {
                return order
            }
        case .json?: break
        }
        fail(field, Wording.choice(path(field), orders.map(\.text)))
        return fallback
    }
}
