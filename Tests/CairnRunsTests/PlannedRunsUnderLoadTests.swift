import CairnAPI
import CairnTestSupport
import Foundation
import Geo
import NIOConcurrencyHelpers
import Testing
import Vapor
import VaporTesting

@testable import CairnRuns

/// What a heavy user or an attacker can do to the planner and the kept routes (issue 13): a request never
/// ends the process, concurrent saves all land, planning is bounded.
@Suite struct PlannedRunsUnderLoadTests {
    @Test func aNegativeLengthIsRefusedNotATrap() async throws {
        try await withAccounts { cairn in
            let ada = try await cairn.register("ada")

            let negative = try await cairn.send(
                .POST, "/api/runs/planned", json: ["length_m": -1, "sheltered_m": 0], token: ada.token)
            let shelteredOverLength = try await cairn.send(
                .POST, "/api/runs/planned", json: PlannedRunsAPITests.body(shelteredM: 1e9), token: ada.token)

            #expect(negative.status == .unprocessableEntity)
            #expect(negative.fieldError("length_m") == "length_m must be a positive number of metres.")
            #expect(shelteredOverLength.fieldError("sheltered_m") == "sheltered_m must be from 0 to length_m.")
        }
    }

    @Test func aHundredConcurrentSavesAllLand() async throws {
        try await withAccounts { cairn in
            var tokens: [String] = []
            for index in 0..<10 {
                tokens.append(try await cairn.register("runner\(index)", extra: [:]).token)
            }

            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for save in 0..<100 {
                    let token = tokens[save % tokens.count]
                    group.addTask {
                        try await cairn.send(.POST, "/api/runs/planned", json: PlannedRunsAPITests.body(), token: token)
                            .status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            #expect(statuses.filter { $0 == .created }.count == 100, "\(statuses.filter { $0 != .created })")
            #expect(try await PlannedRun.query(on: cairn.app.db).count() == 100)
        }
    }

    @Test func planningAnswers503WithRetryAfterWhenEveryPlanningThreadAndQueuePlaceIsTaken() async throws {
        try await withHelsinkiRuns { cairn in
            let executor = cairn.cairn.platform.heavyWork
            let gate = Gate()
            let holders = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<(executor.threadCount + executor.queueLimit) {
                        group.addTask {
                            _ = try? await executor.run("testing", client: "holder\(index)") { gate.wait() }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            while executor.inFlight < executor.threadCount + executor.queueLimit {
                try await Task.sleep(for: .milliseconds(5))
            }

            let busy = try await cairn.plan(["start": .point(TestStreets.helsinkiCentre), "distance_km": 3])
            let health = try await cairn.send(.GET, "/healthz")
            gate.open()
            try await holders.value

            #expect(busy.status == .serviceUnavailable)
            #expect(busy.headers.first(name: .retryAfter) == "5")
            #expect(busy.problem?.detail.contains("busy planning routes") == true)
            #expect(health.status == .ok)
        }
    }

    @Test func aClientHasOnePlanInProgressAtATime() async throws {
        try await withHelsinkiRuns { cairn in
            let gate = Gate()
            let holder = Task {
                try await cairn.cairn.platform.heavyWork.run("testing", client: "runs-plan:10.0.0.1") { gate.wait() }
            }
            while cairn.cairn.platform.heavyWork.inFlight < 1 { try await Task.sleep(for: .milliseconds(5)) }

            let second = try await cairn.plan(["start": .point(TestStreets.helsinkiCentre), "distance_km": 3])
            let otherClient = try await cairn.send(
                .POST, "/api/runs/plan", json: ["start": .point(TestStreets.helsinkiCentre), "distance_km": 3],
                client: "10.0.0.2")
            gate.open()
            try await holder.value

            #expect(second.status == .tooManyRequests)
            #expect(second.problem?.detail.contains("still planning routes for your earlier request") == true)
            #expect(otherClient.status == .ok)
        }
    }
}
