import CairnPlatform
import Foundation

/// Where the street network comes from.
///
/// | Variable | Default | Meaning |
/// | --- | --- | --- |
/// | `CAIRN_STREET_GRAPH` | `<data dir>/streets.cairngraph` | A snapshot written by `cairn graph import`. When the variable is set the file must load; when the default file is missing the server runs without streets (the street layer, suggestions, routes and the run planner answer 503). |
public struct StreetsConfig: Sendable {
    public var graphFile: URL
    /// True when the operator named the file, so a missing one is an error rather than "no streets".
    public var required: Bool

    public init(graphFile: URL, required: Bool) {
        self.graphFile = graphFile
        self.required = required
    }

    /// `streets.cairngraph` in the data folder, used when it exists.
    public static func defaultFile(in dataDirectory: URL) -> StreetsConfig {
        StreetsConfig(graphFile: dataDirectory.appendingPathComponent("streets.cairngraph"), required: false)
    }

    package static func fromEnvironment(_ environment: [String: String], dataDirectory: URL, workingDirectory: URL)
        -> StreetsConfig
    {
        guard let text = ConfigReader(environment).string("CAIRN_STREET_GRAPH") else {
            return defaultFile(in: dataDirectory)
        }
        let url = text.hasPrefix("/") ? URL(fileURLWithPath: text) : workingDirectory.appendingPathComponent(text)
        return StreetsConfig(graphFile: url.standardizedFileURL, required: true)
    }
}
