import Flora
import Fluent
import Foundation

/// A stored filter of the menu (`flora_filters`).
final class FilterRecord: Model, @unchecked Sendable {
    static let schema = "flora_filters"

    @ID(custom: "id", generatedBy: .user) var id: String?
    @Field(key: "group_name") var group: String
    @Field(key: "label") var label: String
    @Field(key: "exclusive") var exclusive: Bool
    @Field(key: "field") var field: String
    @Field(key: "value") var value: String
    @Field(key: "applies_to") var appliesTo: String
    @Field(key: "position") var position: Int

    init() {}

    init(_ filter: FilterDefinition) {
        id = filter.id
        update(filter)
    }

    func update(_ filter: FilterDefinition) {
        group = filter.group
        label = filter.label
        exclusive = filter.exclusive
        field = filter.field.rawValue
        value = filter.value
        appliesTo = filter.appliesTo.joined(separator: ";")
        position = filter.position
    }

    var filter: FilterDefinition {
        FilterDefinition(
            id: id ?? "", group: group, label: label, exclusive: exclusive,
            field: FilterDefinition.Field(rawValue: field) ?? .tag, value: value,
            appliesTo: appliesTo.split(separator: ";").map(String.init), position: position)
    }
}
