import CSV
import Foundation

/// A CSV file read for import (RFC 4180 as spreadsheets write it): UTF-8 with or without a byte-order mark,
/// quoted fields holding commas, quotes and line breaks, CRLF or LF line ends. Each record keeps the line of
/// the file it starts on, so a report can say "line 12". Parsing is CSV.swift's `CSVReader`.
public struct CSVTable: Sendable {
    /// One record: the line it starts on (the header is line 1) and its fields by column.
    public struct Record: Sendable {
        public var line: Int
        public var fields: [String: String]
    }

    /// The file's name, as reports show it.
    public let name: String
    /// The header's column names, trimmed.
    public let columns: [String]
    public let records: [Record]

    /// Reads `bytes` as a CSV file whose first record is the header. Rows with every field empty are skipped.
    /// - Throws: `CSVFileError` for text that is not UTF-8, or a file without a header.
    public init(name: String, bytes: [UInt8]) throws(CSVFileError) {
        self.name = name
        let text = try Self.decode(name: name, bytes: bytes)
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: true)
        } catch {
            throw CSVFileError(file: name, message: "\(name) has no header line naming its columns.")
        }
        let header = (reader.headerRow ?? []).map { $0.trimmingCharacters(in: .whitespaces) }
        guard header.contains(where: { !$0.isEmpty }) else {
            throw CSVFileError(file: name, message: "\(name) has no header line naming its columns.")
        }
        columns = header
        var line = 2 + Self.lineBreaks(in: reader.headerRow ?? [])
        var records: [Record] = []
        while let row = reader.next() {
            let start = line
            line += 1 + Self.lineBreaks(in: row)
            if row.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            var fields: [String: String] = [:]
            for (index, column) in header.enumerated() where !column.isEmpty {
                fields[column] = index < row.count ? row[index] : ""
            }
            if row.count > header.count, row[header.count...].contains(where: { !$0.isEmpty }) {
                fields[Self.extraFieldsKey] = String(row.count)
            }
            records.append(Record(line: start, fields: fields))
        }
        if let error = reader.error {
            throw CSVFileError(file: name, message: "\(name) cannot be read as CSV after line \(line): \(error).")
        }
        self.records = records
    }

    /// Set on a record that has more fields than the header has columns; its value is the field count.
    public static let extraFieldsKey = "\u{0}extra"

    /// The text of `bytes`: UTF-8, a leading byte-order mark dropped. UTF-16 and UTF-32 (told by their marks)
    /// and bytes that are not UTF-8 (Latin-1, Windows-1252…) are refused with the first line they occur on.
    static func decode(name: String, bytes: [UInt8]) throws(CSVFileError) -> String {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) {
            body = body.dropFirst(3)
        } else if body.starts(with: [0xFE, 0xFF]) || body.starts(with: [0xFF, 0xFE]) {
            throw CSVFileError(
                file: name,
                message: "\(name) is UTF-16 (or UTF-32) text; save it as CSV UTF-8 and import it again.")
        }
        if let text = String(validating: body, as: UTF8.self) { return text }
        var line = 1
        var start = body.startIndex
        for index in body.indices where body[index] == 0x0A || index == body.index(before: body.endIndex) {
            let end = body[index] == 0x0A ? index : body.endIndex
            if String(validating: body[start..<end], as: UTF8.self) == nil { break }
            line += 1
            start = body.index(after: index)
        }
        throw CSVFileError(
            file: name, line: line,
            message:
                "\(name) is not UTF-8 text: line \(line) has bytes in another encoding (such as Latin-1 or Windows-1252). Save the file as CSV UTF-8 and import it again."
        )
    }

    /// Line breaks inside quoted fields (CRLF, LF or CR each count once).
    static func lineBreaks(in fields: [String]) -> Int {
        var count = 0
        for field in fields {
            var previousCR = false
            for scalar in field.unicodeScalars {
                if scalar == "\n" {
                    if !previousCR { count += 1 }
                    previousCR = false
                } else if scalar == "\r" {
                    count += 1
                    previousCR = true
                } else {
                    previousCR = false
                }
            }
        }
        return count
    }
}

/// A CSV file that cannot be read at all.
public struct CSVFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String

    public init(file: String, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { message }
}
