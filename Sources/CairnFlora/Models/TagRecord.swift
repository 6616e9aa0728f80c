import Flora
import Fluent
import Foundation

/// A stored tag (`flora_tags`).
final class TagRecord: Model, @unchecked Sendable {
    static let schema = "flora_tags"

    @ID(custom: "id", generatedBy: .user) var id: String?
    @Field(key: "name") var name: String
    @Field(key: "kind") var kind: String
    @OptionalField(key: "parent_id") var parentID: String?

    init() {}

    init(_ tag: Tag) {
        id = tag.id
        update(tag)
    }

    func update(_ tag: Tag) {
        name = tag.name
        kind = tag.kind
        parentID = tag.parentID
    }

    var tag: Tag { Tag(id: id ?? "", name: name, kind: kind, parentID: parentID) }
}
