import Foundation

/// One plain-text email.
public struct MailMessage: Sendable, Equatable {
    public var from: String
    public var to: [String]
    public var subject: String
    public var text: String

    public init(from: String, to: [String], subject: String, text: String) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
    }

    /// The message as RFC 5322 text with MIME headers (UTF-8, quoted-printable body, encoded-word subject),
    /// lines ending in CRLF — what an SMTP `DATA` command sends and what an `.eml` file holds.
    public func rfc5322(date: Date, messageID: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let headers = [
            "From: \(from)",
            "To: \(to.joined(separator: ", "))",
            "Subject: \(Self.encodedWord(subject))",
            "Date: \(formatter.string(from: date))",
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
        ]
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + Self.quotedPrintable(text) + "\r\n"
    }

    /// RFC 2047 encoded-word for a header value that is not plain ASCII.
    static func encodedWord(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: { !$0.isASCII || $0.value < 0x20 }) else { return value }
        return "=?utf-8?B?\(Data(value.utf8).base64EncodedString())?="
    }

    /// RFC 2045 quoted-printable, soft-wrapped at 76 characters, CRLF line ends.
    static func quotedPrintable(_ text: String) -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        return normalized.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var output = ""
            var lineLength = 0
            let bytes = Array(line.utf8)
            for (index, byte) in bytes.enumerated() {
                let isLast = index == bytes.count - 1
                let literal = (byte >= 33 && byte <= 126 && byte != 61) || ((byte == 32 || byte == 9) && !isLast)
                let piece = literal ? String(UnicodeScalar(byte)) : String(format: "=%02X", byte)
                if lineLength + piece.count > 75 {
                    output += "=\r\n"
                    lineLength = 0
                }
                output += piece
                lineLength += piece.count
            }
            return output
        }.joined(separator: "\r\n")
    }
}
