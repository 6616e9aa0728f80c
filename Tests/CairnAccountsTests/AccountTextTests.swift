import CairnAPI
import CairnTestSupport
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CairnAccounts

/// Names and emails are stored in Unicode normal form C and may not hold characters that hide what they
/// are: controls, line separators, text-direction overrides (issue 13).
@Suite struct AccountTextTests {
    @Test func anEmailTypedDecomposedIsTheSameAccountAsComposed() async throws {
        try await withAccounts { cairn in
            let composed = "jos\u{E9}@example.org"
            let decomposed = "jose\u{301}@example.org"
            try await cairn.register("jose", email: composed)

            let second = try await cairn.send(
                .POST, "/api/account",
                json: [
                    "first_name": "Jose", "last_name": "D", "username": "jose2", "email": .string(decomposed),
                    "password": "Trail-Mix-42!", "password_confirmation": "Trail-Mix-42!",
                ])
            let login = try await cairn.send(
                .POST, "/api/session", json: ["login": .string(decomposed), "password": "Trail-Mix-42!"])

            #expect(second.status == .unprocessableEntity)
            #expect(second.invalidFields == ["email"])
            #expect(login.status == .ok)
        }
    }

    @Test(arguments: [
        ("\u{2028}", "line separators (U+2028)"), ("\u{85}", "control characters (U+0085)"),
        ("\u{202E}", "characters that change the direction of text (U+202E)"),
    ])
    func hiddenCharactersInEmailsAndNamesAreRefusedByName(character: String, described: String) async throws {
        try await withAccounts { cairn in
            let response = try await cairn.send(
                .POST, "/api/account",
                json: [
                    "first_name": .string("Ada\(character)gpj.exe"), "last_name": "L", "username": "ada",
                    "email": .string("ada\(character)@example.org"), "password": "Trail-Mix-42!",
                    "password_confirmation": "Trail-Mix-42!",
                ])

            #expect(response.status == .unprocessableEntity)
            #expect(response.fieldError("email") == "An email address cannot contain \(described).")
            #expect(response.fieldError("first_name") == "The first name cannot contain \(described).")
        }
    }
}
