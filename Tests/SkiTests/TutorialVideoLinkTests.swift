import Testing

@testable import Ski

/// Reading a tutorial's address: YouTube and Vimeo videos by id, other https pages as links, the rest refused.
@Suite struct TutorialVideoLinkTests {
    @Test(
        arguments: [
            ("https://www.youtube.com/watch?v=Cx8GJ0K1b4M", "Cx8GJ0K1b4M"),
            ("https://youtube.com/watch?feature=share&v=Cx8GJ0K1b4M&t=42", "Cx8GJ0K1b4M"),
            ("https://m.youtube.com/watch?v=Cx8GJ0K1b4M", "Cx8GJ0K1b4M"),
            ("https://youtu.be/q3JkB7fW2aE?si=abc", "q3JkB7fW2aE"),
            ("https://www.youtube.com/shorts/Zt6rV1mLx9E", "Zt6rV1mLx9E"),
            ("https://www.youtube.com/embed/b7Lq2TnX0sY?start=10", "b7Lq2TnX0sY"),
            ("https://www.youtube-nocookie.com/embed/Vw3Y-K8p_1o", "Vw3Y-K8p_1o"),
            ("HTTPS://WWW.YOUTUBE.COM/watch?v=Cx8GJ0K1b4M", "Cx8GJ0K1b4M"),
        ])
    func youTubeAddressesNameTheirVideo(address: String, id: String) throws {
        #expect(try TutorialVideoLink.parse(address) == TutorialVideoLink(provider: .youtube, videoID: id))
    }

    @Test(
        arguments: [
            ("https://vimeo.com/148751763", "148751763"),
            ("https://www.vimeo.com/148751763#t=30s", "148751763"),
            ("https://vimeo.com/channels/staffpicks/212594113", "212594113"),
            ("https://player.vimeo.com/video/96718452?h=abc", "96718452"),
        ])
    func vimeoAddressesNameTheirVideo(address: String, id: String) throws {
        #expect(try TutorialVideoLink.parse(address) == TutorialVideoLink(provider: .vimeo, videoID: id))
    }

    @Test func otherHTTPSPagesAreLinks() throws {
        #expect(
            try TutorialVideoLink.parse("https://en.wikipedia.org/wiki/Mogul_skiing")
                == TutorialVideoLink(provider: .other, videoID: nil))
        #expect(try TutorialVideoLink.parse("https://notyoutube.com/watch?v=x").provider == .other)
    }

    @Test(
        arguments: [
            "http://www.youtube.com/watch?v=Cx8GJ0K1b4M", "youtube.com/watch?v=Cx8GJ0K1b4M", "ftp://example.org/a",
            "https://", "not an address", "javascript:alert(1)", "https://exa mple.org",
        ])
    func addressesThatAreNotHTTPSAreRefused(address: String) {
        #expect(throws: TutorialVideoLink.Refusal.notHTTPS) { try TutorialVideoLink.parse(address) }
    }

    @Test(
        arguments: [
            ("https://www.youtube.com/@skischool", TutorialVideoLink.Provider.youtube),
            ("https://www.youtube.com/watch?v=short", .youtube), ("https://youtu.be/", .youtube),
            ("https://www.youtube.com/results?search_query=carving", .youtube),
            ("https://vimeo.com/channels/staffpicks", .vimeo), ("https://player.vimeo.com/video/abc", .vimeo),
        ])
    func videoSitesWithoutAVideoAreRefused(address: String, provider: TutorialVideoLink.Provider) {
        #expect(throws: TutorialVideoLink.Refusal.noVideo(provider)) { try TutorialVideoLink.parse(address) }
    }
}
