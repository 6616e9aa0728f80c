import Foundation
import Testing

@testable import CSVTables

@Suite struct CSVTableTests {
    @Test func readsBOMCRLFAndQuotedCommasQuotesAndLineBreaksKeepingLineNumbers() throws {
        let text = "\u{FEFF}id,name\r\na,\"one, two\"\r\nb,\"say \"\"hi\"\"\r\nnext line\"\r\n\r\nc,three\r\n"

        let table = try CSVTable(name: "x.csv", bytes: Array(text.utf8))

        #expect(table.columns == ["id", "name"])
        #expect(table.records.map(\.line) == [2, 3, 6])
        #expect(table.records[0].fields["name"] == "one, two")
        #expect(table.records[1].fields["name"]?.contains("say \"hi\"") == true)
        #expect(table.records[1].fields["name"]?.contains("next line") == true)
        #expect(table.records[2].fields["id"] == "c")
    }

    @Test func latin1IsRefusedNamingTheLine() throws {
        var bytes = Array("id,name\na,ok\nb,".utf8)
        bytes += [0x53, 0x6F, 0x6C, 0x64, 0x61, 0x6E, 0x65, 0x6C, 0x6C, 0xE0]  // "Soldanellà" in Latin-1
        bytes += Array("\n".utf8)

        #expect(throws: CSVFileError.self) { try CSVTable(name: "species.csv", bytes: bytes) }
        do {
            _ = try CSVTable(name: "species.csv", bytes: bytes)
        } catch {
            #expect(error.line == 3)
            #expect(error.message.contains("not UTF-8"))
            #expect(error.message.contains("line 3"))
        }
    }

    @Test func utf16IsRefused() throws {
        let bytes: [UInt8] = [0xFF, 0xFE] + Array("id".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }

        do {
            _ = try CSVTable(name: "tags.csv", bytes: bytes)
            Issue.record("UTF-16 was read")
        } catch {
            #expect(error.message.contains("UTF-16"))
        }
    }

    @Test func aRowWithMoreFieldsThanTheHeaderIsMarked() throws {
        let table = try CSVTable(name: "x.csv", bytes: Array("id,name\na,b,c\n".utf8))

        #expect(table.records[0].fields[CSVTable.extraFieldsKey] == "3")
    }
}
