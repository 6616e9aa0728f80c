import Crypto
import Fluent
import Vapor

/// Writes a phone may retry, applied once per `Idempotency-Key`: `try await idempotency.write(req, owner:) { db in … }`.
package struct Idempotency: Sendable {
    private let writer: DatabaseWriter
    private let now: @Sendable () -> Date

    package init(writer: DatabaseWriter, now: @escaping @Sendable () -> Date) {
        self.writer = writer
        self.now = now
    }

    /// Runs a write once per `Idempotency-Key` (IETF httpapi draft semantics) and answers it.
    ///
    /// Without the header, `write` runs in one transaction and its response is returned. With it:
    /// - the first request runs `write` in one transaction that also stores the response, so the write and
    ///   its record commit together or not at all;
    /// - a request with the same key, the same `owner` (whose key it is, a user id) and the same method, path
    ///   and body gets the stored response again, and nothing is written;
    /// - the same key with a different request is a 422 (`/problems/idempotency-key-reused`);
    /// - two requests with one key at the same moment: one writes, the other gets its response.
    /// Only successful (2xx) responses are stored: a refused write may be retried with the same key.
    /// Validate the request before calling this; `write` gets the transaction.
    package func write(
        _ request: Request, owner: String, _ write: @escaping @Sendable (any Database) async throws -> Response
    ) async throws -> Response {
        guard let key = try IdempotencyKey(request) else {
            return try await writer.transaction(on: request.db) { try await write($0) }
        }
        let fingerprint = Self.fingerprint(of: request)
        let now = self.now()
        let db = request.db
        if let stored = try await IdempotencyRecord.find(owner: owner, key: key, since: now, on: db) {
            return try stored.replay(for: fingerprint)
        }
        do {
            return try await writer.transaction(on: db) { db in
                // Writers queue: one with this key may have committed while this one waited.
                if let stored = try await IdempotencyRecord.find(owner: owner, key: key, since: now, on: db) {
                    return try stored.replay(for: fingerprint)
                }
                let response = try await write(db)
                guard (200..<300).contains(response.status.code) else { return response }
                try await IdempotencyRecord.query(on: db)
                    .filter(\.$createdAt < now.addingTimeInterval(-IdempotencyRecord.lifetime)).delete()
                let body = response.body.buffer.map { Data(buffer: $0) } ?? response.body.data ?? Data()
                try await IdempotencyRecord(
                    owner: owner, key: key.value, fingerprint: fingerprint, status: Int(response.status.code),
                    contentType: response.headers.first(name: .contentType),
                    location: response.headers.first(name: .location), body: body, createdAt: now
                ).create(on: db)
                return response
            }
        } catch {
            // Another request with this key committed first: its write stands and this one rolled back.
            guard (error as? any DatabaseError)?.isConstraintFailure == true,
                let stored = try await IdempotencyRecord.find(owner: owner, key: key, since: now, on: db)
            else { throw error }
            return try stored.replay(for: fingerprint)
        }
    }

    /// SHA-256 (hex) of the method, the path with its query, and the body. A JSON body counts by what it says,
    /// not how it is spelled: it is hashed with sorted keys and no spacing, so a client that serialises the
    /// same object differently is still sending the same request.
    private static func fingerprint(of request: Request) -> String {
        var hasher = SHA256()
        hasher.update(data: Data("\(request.method.rawValue) \(request.url.string)\n".utf8))
        if let body = request.body.data {
            let raw = Data(buffer: body)
            if request.headers.contentType == .json,
                let object = try? JSONSerialization.jsonObject(with: raw, options: [.fragmentsAllowed]),
                let canonical = try? JSONSerialization.data(
                    withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
            {
                hasher.update(data: canonical)
            } else {
                hasher.update(data: raw)
            }
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

extension IdempotencyRecord {
    /// The live record of `owner`'s `key` at `now` (an expired one no longer counts).
    static func find(owner: String, key: IdempotencyKey, since now: Date, on db: any Database) async throws
        -> IdempotencyRecord?
    {
        try await query(on: db).filter(\.$owner == owner).filter(\.$key == key.value)
            .filter(\.$createdAt >= now.addingTimeInterval(-lifetime)).first()
    }

    /// The stored response, when `fingerprint` is the request it answered.
    func replay(for fingerprint: String) throws -> Response {
        guard fingerprint == self.fingerprint else { throw IdempotencyProblem.keyReused }
        var headers = HTTPHeaders()
        if let contentType { headers.replaceOrAdd(name: .contentType, value: contentType) }
        if let location { headers.replaceOrAdd(name: .location, value: location) }
        return Response(status: HTTPResponseStatus(statusCode: status), headers: headers, body: .init(data: body))
    }
}
