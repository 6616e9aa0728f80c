import Foundation

/// A tutorial's address read for playing: YouTube and Vimeo videos play embedded (by their video id), every
/// other https page opens outside. Recognised: `youtube.com/watch?v=ID` (also `m.` and `music.`),
/// `youtu.be/ID`, `youtube.com/shorts/ID`, `youtube.com/embed/ID`, `youtube-nocookie.com/embed/ID`,
/// `vimeo.com/123` (also `vimeo.com/channels/x/123`) and `player.vimeo.com/video/123`.
public struct TutorialVideoLink: Equatable, Sendable {
    public enum Provider: String, Sendable, CaseIterable {
        case youtube, vimeo, other
    }

    public enum Refusal: Error, Equatable, Sendable {
        /// Not an absolute `https://` address with a host.
        case notHTTPS
        /// A YouTube or Vimeo address that names no video (a channel, a search, a malformed id).
        case noVideo(Provider)
    }

    public var provider: Provider
    /// The YouTube id (11 characters of `A-Z a-z 0-9 _ -`) or the Vimeo number; nil for other pages.
    public var videoID: String?

    public init(provider: Provider, videoID: String?) {
        self.provider = provider
        self.videoID = videoID
    }

    /// Reads `address`; throws `Refusal` when it is not https or names a YouTube/Vimeo page without a video.
    public static func parse(_ address: String) throws(Refusal) -> TutorialVideoLink {
        guard let components = URLComponents(string: address), components.scheme?.lowercased() == "https",
            let rawHost = components.host, !rawHost.isEmpty, !address.contains(where: \.isWhitespace)
        else { throw .notHTTPS }
        var host = rawHost.lowercased()
        for prefix in ["www.", "m.", "music."] where host.hasPrefix(prefix) { host.removeFirst(prefix.count) }
        let segments = components.path.split(separator: "/").map(String.init)
        switch host {
        case "youtube.com", "youtube-nocookie.com":
            let id: String?
            if segments.first == "watch" && segments.count == 1 {
                id = components.queryItems?.first { $0.name == "v" }?.value
            } else if segments.count >= 2, ["shorts", "embed", "live", "v"].contains(segments[0]) {
                id = segments[1]
            } else {
                id = nil
            }
            guard let id, isYouTubeID(id) else { throw .noVideo(.youtube) }
            return TutorialVideoLink(provider: .youtube, videoID: id)
        case "youtu.be":
            guard let id = segments.first, isYouTubeID(id) else { throw .noVideo(.youtube) }
            return TutorialVideoLink(provider: .youtube, videoID: id)
        case "vimeo.com", "player.vimeo.com":
            let id =
                host == "player.vimeo.com"
                ? (segments.first == "video" && segments.count >= 2 ? segments[1] : nil)
                : segments.last { $0.allSatisfy(\.isASCIIDigit) }
            guard let id, isVimeoID(id) else { throw .noVideo(.vimeo) }
            return TutorialVideoLink(provider: .vimeo, videoID: id)
        default:
            return TutorialVideoLink(provider: .other, videoID: nil)
        }
    }

    static func isYouTubeID(_ id: String) -> Bool {
        id.count == 11 && id.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || $0 == "_" || $0 == "-" }
    }

    static func isVimeoID(_ id: String) -> Bool {
        (1...12).contains(id.count) && id.allSatisfy(\.isASCIIDigit)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension Unicode.Scalar {
    fileprivate var isASCIIAlphanumeric: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }
}
