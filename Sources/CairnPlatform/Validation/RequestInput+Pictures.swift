import Foundation

extension RequestInput {
    /// A picture sent inside a JSON body as base64 (a `data:` URL allowed), at most `maxBytes` once decoded.
    /// Only the encoding and the size are checked here: what the bytes hold is `ImageSanitizer`'s to judge.
    /// `label` names it in errors ("the photo": "The photo must be a JPEG or PNG picture in base64."); the limit
    /// reads in MiB when it is a whole number of them ("8 MiB"), otherwise in KiB ("512 KiB").
    package mutating func picture(_ field: String, label: String, maxBytes: Int, required: Bool = true) -> [UInt8]? {
        guard var text = plainText(field, label: label, required: required) else { return nil }
        if text.hasPrefix("data:"), let comma = text.firstIndex(of: ",") {
            text = String(text[text.index(after: comma)...])
        }
        let name = Wording.subject(label)
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters), !data.isEmpty else {
            fail(field, "\(name) must be a JPEG or PNG picture in base64.")
            return nil
        }
        guard data.count <= maxBytes else {
            let limit = maxBytes % (1 << 20) == 0 ? "\(maxBytes >> 20) MiB" : "\(maxBytes >> 10) KiB"
            fail(field, "\(name) is larger than \(limit); choose a smaller one.")
            return nil
        }
        return Array(data)
    }
}
