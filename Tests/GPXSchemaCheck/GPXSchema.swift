import CLibXML2
import Foundation

/// Validates XML against Topografix's GPX 1.1 schema (Fixtures/gpx-1.1.xsd, the one copy) with libxml2's XML
/// Schema validator: the check that Cairn's GPX is GPX 1.1, independent of Cairn's own reader. Shared by the
/// tests of Geo's GPX writer and of the activities' GPX export.
public enum GPXSchema {
    static var path: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/gpx-1.1.xsd").path
    }

    /// The schema's complaints about `xml`; empty when it is valid.
    public static func violations(of xml: String) -> [String] {
        final class Collected { var messages: [String] = [] }
        let collected = Collected()
        let context = Unmanaged.passUnretained(collected).toOpaque()
        let report: CairnXMLStructuredErrorFunc = { context, error in
            guard let context, let error, let message = error.pointee.message else { return }
            let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
            Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue().messages.append(
                "line \(error.pointee.line): \(text)")
        }

        guard let parserContext = xmlSchemaNewParserCtxt(path) else { return ["cannot read \(path)"] }
        defer { xmlSchemaFreeParserCtxt(parserContext) }
        guard let schema = xmlSchemaParse(parserContext) else { return ["\(path) is not a schema"] }
        defer { xmlSchemaFree(schema) }
        guard let validation = xmlSchemaNewValidCtxt(schema) else { return ["no validation context"] }
        defer { xmlSchemaFreeValidCtxt(validation) }
        xmlSchemaSetValidStructuredErrors(validation, report, context)

        let bytes = Array(xml.utf8)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xmlReadMemory($0, Int32(buffer.count), "written.gpx", nil, Int32(CAIRN_XML_PARSE_NONET))
            }
        }
        guard let document else { return ["not well-formed XML"] }
        defer { xmlFreeDoc(document) }
        let result = xmlSchemaValidateDoc(validation, document)
        if result != 0 && collected.messages.isEmpty { collected.messages.append("invalid (code \(result))") }
        return collected.messages
    }
}
