import Foundation

/// A message read back from an outbox `.eml` file, decoded for people: headers, and the quoted-printable
/// body as text.
struct OutboxMessage: Sendable {
    var file: String
    var from: String
    var to: String
    var subject: String
    var date: String
    var text: String

    init(file: String, eml: String) {
        self.file = file
        let parts = eml.components(separatedBy: "\r\n\r\n")
        var headers: [String: String] = [:]
        for line in (parts.first ?? "").components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        from = headers["from"] ?? ""
        to = headers["to"] ?? ""
        subject = Self.decodedWord(headers["subject"] ?? "")
        date = headers["date"] ?? ""
        text = Self.decodedQuotedPrintable(parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// The outbox's messages, newest first, at most `limit`.
    static func list(in folder: URL, limit: Int = 50) -> [OutboxMessage] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".eml") }.sorted(by: >).prefix(limit).compactMap { name in
            guard let eml = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) else {
                return nil
            }
            return OutboxMessage(file: name, eml: eml)
        }
    }

    static func decodedWord(_ value: String) -> String {
        guard value.hasPrefix("=?utf-8?B?"), value.hasSuffix("?="),
            let data = Data(base64Encoded: String(value.dropFirst(10).dropLast(2)))
        else { return value }
        return String(decoding: data, as: UTF8.self)
    }

    static func decodedQuotedPrintable(_ body: String) -> String {
        var bytes: [UInt8] = []
        let source = Array(body.replacingOccurrences(of: "=\r\n", with: "").utf8)
        var index = 0
        while index < source.count {
            if source[index] == UInt8(ascii: "="), index + 2 < source.count,
                let value = UInt8(String(decoding: source[index + 1...index + 2], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }
}
