import Vapor

/// The `Idempotency-Key` request header (IETF httpapi draft "The Idempotency-Key HTTP Header Field"): a
/// client-made unique value that lets a write be retried safely. Its value is a Structured Field String
/// (`"8e03978e-40d5-43e8-bc93-6894a57f9324"`); a bare token is accepted as well.
struct IdempotencyKey: Hashable, Sendable {
    static let headerName = "Idempotency-Key"
    /// The longest key accepted; a UUID has 36 characters.
    static let maxLength = 255

    let value: String

    /// The request's key; nil when it sends none. A header that is empty, too long, repeated, or holds
    /// characters outside printable ASCII is a 400.
    init?(_ req: Request) throws {
        let values = req.headers[Self.headerName]
        guard let raw = values.first else { return nil }
        guard values.count == 1 else { throw IdempotencyProblem.malformedKey }
        var text = Substring(raw.trimmingCharacters(in: .whitespaces))
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        guard !text.isEmpty, text.count <= Self.maxLength,
            text.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) && $0 != "\"" && $0 != "\\" })
        else { throw IdempotencyProblem.malformedKey }
        value = String(text)
    }
}
