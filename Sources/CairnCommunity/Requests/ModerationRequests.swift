import CairnAPI
import CairnPlatform
import Foundation
import Vapor

/// `POST /api/moderation/{kind}/{id}/decision`: `{"action": "hide" | "restore" | "dismiss", "reason"?}`. Hiding
/// needs a reason: its author is shown it.
struct ModerationDecisionForm {
    enum Action: String, CaseIterable {
        /// Hidden from everyone but its author, who sees why.
        case hide
        /// Visible again, its report count back to nothing.
        case restore
        /// The reports are closed; the content stays as it is.
        case dismiss

        /// What the closed reports record.
        var resolution: String {
            switch self {
            case .hide: "hidden"
            case .restore: "restored"
            case .dismiss: "dismissed"
            }
        }
    }

    static let fields: Set<String> = ["action", "reason"]
    let action: Action
    let reason: String

    init(_ req: Request) throws {
        var input = try RequestInput(body: req, allowed: Self.fields)
        let action = input.choice("action", as: Action.self)
        reason = input.text("reason", label: "the reason", length: 0...500, multiline: true, default: "")
        if action == .hide, reason.isEmpty, !input.hasError("reason") {
            input.fail("reason", "Say why it is hidden; its author sees it.")
        }
        self.action = try input.finish(action)
    }
}
