import CairnTestSupport
import Foundation
import Testing

@testable import CairnPlatform

/// The service worker must cache every file the shell loads, or Cairn will not open offline.
@Suite struct ServiceWorkerShellTests {
    @Test func everyScriptAndStylesheetOfTheWebAppIsInTheOfflineShell() throws {
        let web = repositoryRoot.appendingPathComponent("Web")
        let serviceWorker = try String(contentsOf: web.appendingPathComponent("sw.js"), encoding: .utf8)
        let files =
            FileManager.default.enumerator(at: web, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }
            .filter { ["js", "css"].contains($0.pathExtension) && $0.lastPathComponent != "sw.js" }
            .map { "/" + $0.path.dropFirst(web.path.count + 1) } ?? []

        let missing = files.filter { !serviceWorker.contains("\"\($0)\"") }

        #expect(!files.isEmpty)
        #expect(missing.isEmpty, "add to the shell list in Web/sw.js: \(missing.sorted())")
    }
}
