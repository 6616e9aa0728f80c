import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import Testing
import Vapor
import VaporTesting

extension AccountsHarness {
    /// Registers `username` with a first and last name of its own (so searches by name can tell people apart).
    func person(_ username: String, first: String? = nil, last: String = "Tester") async throws -> TestUser {
        try await register(
            username, extra: ["first_name": .string(first ?? username.capitalized), "last_name": .string(last)])
    }

    /// Makes `a` and `b` friends through the API (a asks, b accepts).
    func befriend(_ a: TestUser, _ b: TestUser) async throws {
        let sent = try await send(
            .POST, "/api/friends/requests", json: ["username": .string(b.username)], token: a.token)
        try #require(sent.status == .created, "request failed: \(sent.body.string)")
        let outcome = try sent.decoded(FriendRequestOutcome.self)
        let id = try #require(outcome.request?.id)
        let accepted = try await send(.POST, "/api/friends/requests/\(id)/accept", token: b.token)
        try #require(accepted.status == .ok, "accept failed: \(accepted.body.string)")
    }

    func friends(of user: TestUser) async throws -> FriendsOverview {
        let response = try await send(.GET, "/api/friends", token: user.token)
        try #require(response.status == .ok, "friends failed: \(response.body.string)")
        return try response.decoded(FriendsOverview.self)
    }

    /// Starts a thread of `owner` with `members` that the test needs to succeed.
    func thread(_ owner: TestUser, with members: [TestUser], id: UUID = UUID()) async throws -> ThreadInfo {
        let response = try await send(
            .POST, "/api/threads",
            json: ["id": .string(id.uuidString), "members": .array(members.map { .string($0.id.uuidString) })],
            token: owner.token)
        try #require(response.status == .created || response.status == .ok, "thread failed: \(response.body.string)")
        return try response.decoded(ThreadInfo.self)
    }

    /// Sends a message that the test needs to succeed.
    @discardableResult
    func message(_ text: String, in thread: UUID, from user: TestUser, id: UUID = UUID()) async throws -> MessageInfo {
        let response = try await send(
            .POST, "/api/threads/\(thread)/messages", json: ["id": .string(id.uuidString), "text": .string(text)],
            token: user.token)
        try #require(response.status == .created, "send failed: \(response.body.string)")
        return try response.decoded(MessageInfo.self)
    }

    func messages(in thread: UUID, for user: TestUser, query: String = "") async throws -> MessagePage {
        let response = try await send(
            .GET, "/api/threads/\(thread)/messages\(query.isEmpty ? "" : "?" + query)", token: user.token)
        try #require(response.status == .ok, "messages failed: \(response.body.string)")
        return try response.decoded(MessagePage.self)
    }

    func threads(of user: TestUser) async throws -> ThreadList {
        let response = try await send(.GET, "/api/threads", token: user.token)
        try #require(response.status == .ok, "threads failed: \(response.body.string)")
        return try response.decoded(ThreadList.self)
    }

    /// Writes `user`'s review of `subject`.
    @discardableResult
    func review(_ subject: String, by user: TestUser, rating: Int, text: String = "") async throws -> ReviewInfo {
        let response = try await send(
            .PUT, "/api/reviews/\(subject)", json: ["rating": .number(Double(rating)), "text": .string(text)],
            token: user.token)
        try #require(response.status == .created || response.status == .ok, "review failed: \(response.body.string)")
        return try response.decoded(ReviewInfo.self)
    }

    func reviews(_ subject: String, for user: TestUser?, query: String = "") async throws -> ReviewPage {
        let response = try await send(.GET, "/api/reviews?subject=\(subject)\(query)", token: user?.token)
        try #require(response.status == .ok, "reviews failed: \(response.body.string)")
        return try response.decoded(ReviewPage.self)
    }
}
