import CairnAPI
import CairnPlatform
import Vapor

import struct Ski.TutorialVideoLink

/// `POST /api/ski/tutorials` (`{"id", "level", "title", "url", "position"}`) and `PUT /api/ski/tutorials/{id}`
/// (the same without `id`). `position` is the place in the level from 0; absent, the tutorial keeps its place
/// (or goes last when it is new or changes level).
struct SkiTutorialForm {
    static let createFields: Set<String> = ["id", "level", "title", "url", "position"]
    static let editFields: Set<String> = ["level", "title", "url", "position"]

    /// The client's id for a new tutorial; nil when editing.
    let id: UUID?
    let level: SkiTutorialLevel
    let title: String
    let url: String
    let link: TutorialVideoLink
    let position: Int?

    init(_ req: Request, creating: Bool) throws {
        var input = try RequestInput(body: req, allowed: creating ? Self.createFields : Self.editFields)
        let id = creating ? input.id("id") : nil
        let level = input.choice("level", as: SkiTutorialLevel.self)
        let title = input.text("title", label: "the title", length: 1...120)
        let url = input.tutorialURL("url")
        position = input.integer("position", in: 0...10_000, required: false)
        (self.level, self.title, self.url, self.link) = try input.finish(level, title, url?.address, url?.link)
        self.id = id
    }
}

extension RequestInput {
    /// An https address of at most 2,000 characters; YouTube and Vimeo addresses must name a video.
    mutating func tutorialURL(_ field: String) -> (address: String, link: TutorialVideoLink)? {
        guard let address = plainText(field, label: "the video's address") else { return nil }
        if address.count > 2_000 {
            fail(field, Wording.tooLong("the video's address", limit: 2_000, now: address.count))
            return nil
        }
        do throws(TutorialVideoLink.Refusal) {
            return (address, try TutorialVideoLink.parse(address))
        } catch {
            switch error {
            case .notHTTPS:
                fail(field, "Enter a web address starting with https://, such as https://www.youtube.com/watch?v=… .")
            case .noVideo(.vimeo):
                fail(
                    field,
                    "This Vimeo address names no video: use the video's own address, such as https://vimeo.com/123456789."
                )
            case .noVideo:
                fail(
                    field,
                    "This YouTube address names no video: use the video's own address, such as "
                        + "https://www.youtube.com/watch?v=… or https://youtu.be/… .")
            }
        }
        return nil
    }
}
