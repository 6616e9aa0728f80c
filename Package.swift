// swift-tools-version: 6.2
import PackageDescription

/// Cairn: one self-hostable outdoor platform. This file is the architecture diagram: a target may import only
/// what it lists (the build checks it with `--explicit-target-dependency-import-check error`).
///
/// Layering (bottom to top): `Geo`, `Routing`, `Navigation` and `Basemap` (the offline map drawn from the same
/// OpenStreetMap extract) are domain libraries that import Foundation
/// only (and `Zlib`, the one wrapper of the system's zlib), so a native iOS app can link them unchanged;
/// `CairnAPI` holds the Codable request/response types shared with clients; `CairnPlatform` is what every app
/// module stands on (configuration, problem+json, HTTP middleware, database and write transactions,
/// idempotency, mail, media, files, executors, rate limits, static files, OpenAPI, the module protocol); one
/// target per app module (`CairnAccounts`, `CairnStreets`, `CairnWeather`, `CairnRuns`), each importing the
/// platform and only the modules whose declared API it uses; `CairnServer` is the thin composition root that
/// builds the modules and wires them; `cairn` is the thin CLI; `cairn-bench` runs the benchmarks
/// (`make bench`), outside the production binary. docs/architecture.md explains who may import whom.

/// `CAIRN_WARNINGS_AS_ERRORS=1` (set by `make test` and CI) turns every warning of Cairn's own targets into an
/// error; dependencies' warnings are not Cairn's and stay warnings.
let warnings: [SwiftSetting] =
    Context.environment["CAIRN_WARNINGS_AS_ERRORS"] == "1" ? [.treatAllWarnings(as: .error)] : []

let vapor = Target.Dependency.product(name: "Vapor", package: "vapor")
let vaporTesting = Target.Dependency.product(name: "VaporTesting", package: "vapor")
let fluent = Target.Dependency.product(name: "Fluent", package: "fluent")
let sqlKit = Target.Dependency.product(name: "SQLKit", package: "sql-kit")
let fluentSQLite = Target.Dependency.product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver")
let fluentPostgres = Target.Dependency.product(name: "FluentPostgresDriver", package: "fluent-postgres-driver")
let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
let nioHTTP1 = Target.Dependency.product(name: "NIOHTTP1", package: "swift-nio")
let nioWebSocket = Target.Dependency.product(name: "NIOWebSocket", package: "swift-nio")
let nioHTTPCompression = Target.Dependency.product(name: "NIOHTTPCompression", package: "swift-nio-extras")
let routingKit = Target.Dependency.product(name: "RoutingKit", package: "routing-kit")
let nioConcurrencyHelpers = Target.Dependency.product(name: "NIOConcurrencyHelpers", package: "swift-nio")
let nioSSL = Target.Dependency.product(name: "NIOSSL", package: "swift-nio-ssl")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")
let yams = Target.Dependency.product(name: "Yams", package: "Yams")
let asyncHTTPClient = Target.Dependency.product(name: "AsyncHTTPClient", package: "async-http-client")
let csv = Target.Dependency.product(name: "CSV", package: "CSV.swift")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")

let package = Package(
    name: "Cairn",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Geo", targets: ["Geo"]),
        .library(name: "Routing", targets: ["Routing"]),
        .library(name: "Navigation", targets: ["Navigation"]),
        .library(name: "Basemap", targets: ["Basemap"]),
        .library(name: "CairnAPI", targets: ["CairnAPI"]),
        .executable(name: "cairn", targets: ["CairnCLI"]),
        .executable(name: "cairn-bench", targets: ["CairnBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        .package(url: "https://github.com/vapor/fluent.git", from: "4.13.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.9.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.14.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "5.0.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/yaslab/CSV.swift.git", from: "2.5.2"),
        // Cairn's own HTTP/1.1 server (CairnPlatform/HTTP/Server) is built on SwiftNIO's public pieces and
        // Vapor's router; both packages come with Vapor already and are declared because the server uses them.
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/vapor/routing-kit.git", from: "4.9.3"),
    ],
    targets: [
        // Domain libraries: Foundation only.
        .target(name: "Geo", swiftSettings: warnings),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CBzip2", providers: [.apt(["libbz2-dev"])]),
        .target(name: "Zlib", dependencies: ["CZlib"], swiftSettings: warnings),
        .target(name: "ExternalProgram", swiftSettings: warnings),
        // Web Push (VAPID, RFC 8291 message encryption): Foundation and swift-crypto only, no Vapor.
        .target(name: "Encodings", swiftSettings: warnings),
        .target(name: "WebPush", dependencies: ["Encodings", crypto], swiftSettings: warnings),
        .target(name: "Routing", dependencies: ["Geo", "Zlib", "CBzip2"], swiftSettings: warnings),
        .target(name: "Navigation", dependencies: ["Geo", "Routing"], swiftSettings: warnings),
        .target(name: "Basemap", dependencies: ["Geo", "Routing", "Zlib"], swiftSettings: warnings),
        .target(name: "CairnAPI", dependencies: ["Geo"], swiftSettings: warnings),
        // CSV files read for import (CSV.swift underneath), shared by the libraries that import spreadsheets.
        .target(name: "CSVTables", dependencies: [csv], swiftSettings: warnings),
        .target(name: "Flora", dependencies: ["Geo", "Zlib", "CSVTables"], swiftSettings: warnings),
        .target(name: "Parking", dependencies: ["Geo"], swiftSettings: warnings),
        .target(name: "Trails", dependencies: ["Geo", "Routing"], swiftSettings: warnings),
        .target(name: "Ski", dependencies: ["Geo", "Routing", "CSVTables", "CairnAPI"], swiftSettings: warnings),

        // The server: the platform, one target per app module, the composition root.
        .target(
            name: "CairnPlatform",
            dependencies: [
                "CairnAPI", "Geo", "Zlib", "Encodings", "ExternalProgram", vapor, fluent, sqlKit, fluentSQLite,
                fluentPostgres,
                nioCore, nioPosix,
                nioConcurrencyHelpers, nioHTTP1, nioWebSocket, nioHTTPCompression, nioSSL, routingKit, logging, crypto,
                yams,
            ],
            resources: [.copy("OpenAPI")],
            swiftSettings: warnings
        ),
        .target(
            name: "CairnAccounts",
            dependencies: [
                "CairnPlatform", "CairnAPI", "Encodings", "Geo", vapor, fluent, sqlKit, crypto, nioConcurrencyHelpers,
            ],
            resources: [.copy("OpenAPI"), .copy("Resources/common-passwords.txt")],
            swiftSettings: warnings
        ),
        .target(
            name: "CairnStreets",
            dependencies: ["CairnPlatform", "CairnAPI", "Geo", "Routing", "Basemap", "Zlib", vapor],
            resources: [.copy("OpenAPI")],
            swiftSettings: warnings
        ),
        .target(
            name: "CairnWeather",
            dependencies: [
                "CairnPlatform", "CairnAPI", "Geo", vapor, asyncHTTPClient, nioCore, nioHTTP1, logging,
            ],
            resources: [.copy("OpenAPI")],
            swiftSettings: warnings
        ),
        .target(
            name: "CairnRuns",
            dependencies: [
                "CairnPlatform", "CairnAccounts", "CairnStreets", "CairnAPI", "Geo", "Routing", vapor, fluent, sqlKit,
            ],
            resources: [.copy("OpenAPI")],
            swiftSettings: warnings
        ),
        .target(
            name: "CairnFlora",
            dependencies: [
                "CairnPlatform", "CairnAccounts", "CairnAPI", "Flora", "CSVTables", "Geo", vapor, fluent, sqlKit,
                crypto, nioConcurrencyHelpers,
            ],
            resources: [.copy("OpenAPI"), .copy("Resources/demo")],
            swiftSettings: warnings
        ),
        .target(
            name: "CairnActivities",
            dependencies: [
                "CairnPlatform", "CairnAccounts", "CairnStreets", "CairnAPI", "Geo", "Routing", "Navigation", vapor,
                fluent, sqlKit,
            ],
            resources: [.copy("OpenAPI")],
            swiftSettings: warnings
        ),
        .target(
            name: "CairnCommunity",
            dependencies: [
                "CairnPlatform", "CairnAccounts", "CairnAPI", "Geo", vapor, fluent, sqlKit, nioConcurrencyHelpers,
            ],
            resources: [.copy("OpenAPI")],
            swiftSettings: warnings
        ),
        .target(
            name: "CairnPush",
            dependencies: [
                "CairnPlatform", "CairnAccounts", "CairnAPI", "Encodings", "WebPush", vapor, fluent, crypto,
                asyncHTTPClient,
                nioCore,
                nioHTTP1, nioConcurrencyHelpers, logging,
            ],
            resources: [.copy("OpenAPI")],
            swiftSettings: warnings
        ),
        .target(
            name: "CairnParking",
            dependencies: [
                "CairnPlatform", "CairnAccounts", "CairnAPI", "Encodings", "Parking", "Geo", vapor, fluent, sqlKit,
                crypto,
                logging,
            ],
            resources: [.copy("OpenAPI")],
            swiftSettings: warnings
        ),
        .target(
            name: "CairnTrails",
            dependencies: [
                "CairnPlatform", "CairnAccounts", "CairnAPI", "Trails", "Geo", "Routing", vapor, fluent, sqlKit,
                nioConcurrencyHelpers,
            ],
            resources: [.copy("OpenAPI")],
            swiftSettings: warnings
        ),
        .target(
            name: "CairnSki",
            dependencies: [
                "CairnPlatform", "CairnAccounts", "CairnAPI", "Ski", "Geo", "Routing", vapor, fluent, sqlKit,
                nioConcurrencyHelpers,
            ],
            resources: [.copy("OpenAPI"), .copy("Resources/demo")],
            swiftSettings: warnings
        ),
        .target(
            name: "CairnServer",
            dependencies: [
                "CairnPlatform", "CairnAccounts", "CairnStreets", "CairnWeather", "CairnRuns", "CairnFlora",
                "CairnActivities", "CairnCommunity", "CairnParking", "CairnTrails", "CairnSki", "CairnPush", "CairnAPI",
                "Ski", vapor, fluent, nioCore, nioPosix, nioConcurrencyHelpers,
            ],
            swiftSettings: warnings
        ),
        .executableTarget(
            name: "CairnCLI",
            dependencies: [
                "CairnServer", "CairnPlatform", "CairnAccounts", "CairnRuns", "CairnFlora", "CairnParking",
                "CairnTrails", "CairnSki", "Ski",
                "CairnAPI", "Routing", "Basemap", "Geo", "Parking", asyncHTTPClient, nioCore, nioHTTP1,
                argumentParser,
            ],
            swiftSettings: warnings
        ),

        // Benchmarks (`make bench`), never linked into `cairn`.
        .target(name: "RoutingBenchmarks", dependencies: ["Routing", "Geo"], swiftSettings: warnings),
        .target(
            name: "NavigationBenchmarks", dependencies: ["Navigation", "Routing", "Geo", "RoutingBenchmarks"],
            swiftSettings: warnings),
        .executableTarget(
            name: "CairnBench",
            dependencies: [
                "Routing", "RoutingBenchmarks", "NavigationBenchmarks", "Basemap", "Geo", "Zlib", "ExternalProgram",
                argumentParser,
                // WebSocket clients and event loops for `cairn-bench realtime`; HTTP clients for `cairn-bench parking`.
                vapor, nioConcurrencyHelpers, asyncHTTPClient, nioCore,
            ],
            swiftSettings: warnings
        ),

        // Tests: one target per library; CairnServerTests for what crosses modules. CairnTestSupport holds
        // the helpers they share (`withCairn`, the test database, fake weather, test streets, the clock).
        .testTarget(name: "GeoTests", dependencies: ["Geo", "GPXSchemaCheck"]),
        .testTarget(
            name: "RoutingTests", dependencies: ["Routing", "Geo", "Zlib", "CBzip2"], exclude: ["Fixtures"]),
        .testTarget(name: "NavigationTests", dependencies: ["Navigation", "Routing", "Geo"], exclude: ["Fixtures"]),
        .testTarget(
            name: "BasemapTests", dependencies: ["Basemap", "Routing", "Geo", "Zlib"], exclude: ["Fixtures"]),
        // libxml2's XML Schema validator, for checking written GPX against the official schema.
        .systemLibrary(name: "CLibXML2", path: "Tests/CLibXML2", providers: [.apt(["libxml2-dev"])]),
        // `GPXSchema`: written GPX checked against Topografix's GPX 1.1 schema (GeoTests, CairnActivitiesTests).
        .target(
            name: "GPXSchemaCheck", dependencies: ["CLibXML2"], path: "Tests/GPXSchemaCheck", exclude: ["Fixtures"]),
        .target(
            name: "CairnTestSupport",
            dependencies: [
                "CairnServer", "CairnPlatform", "CairnAccounts", "CairnStreets", "CairnWeather", "CairnAPI", "Geo",
                "Routing", "Basemap", "Encodings", "WebPush", vapor, vaporTesting, fluent, sqlKit, fluentPostgres,
                nioCore,
                nioPosix,
                nioConcurrencyHelpers, logging, asyncHTTPClient, crypto,
            ],
            path: "Tests/CairnTestSupport"
        ),
        .testTarget(
            name: "CairnPlatformTests",
            dependencies: [
                "CairnPlatform", "CairnTestSupport", "CairnAPI", "Geo", "Zlib", "ExternalProgram", vapor, vaporTesting,
                fluent, sqlKit,
                nioCore, nioPosix, nioWebSocket, nioConcurrencyHelpers,
            ]
        ),
        .testTarget(
            name: "CairnAccountsTests",
            dependencies: [
                "CairnAccounts", "CairnTestSupport", "CairnPlatform", "CairnAPI", "Geo", vapor, vaporTesting,
            ]
        ),
        .testTarget(
            name: "CairnStreetsTests",
            dependencies: [
                "CairnStreets", "CairnTestSupport", "CairnServer", "CairnPlatform", "CairnAPI", "Geo", "Routing",
                "Basemap", "Zlib", vapor, vaporTesting,
            ]
        ),
        .testTarget(
            name: "CairnWeatherTests",
            dependencies: [
                "CairnWeather", "CairnTestSupport", "CairnPlatform", "CairnAPI", "Geo", vapor, vaporTesting,
                asyncHTTPClient, nioCore,
            ]
        ),
        .testTarget(
            name: "CairnRunsTests",
            dependencies: [
                "CairnRuns", "CairnTestSupport", "CairnPlatform", "CairnAccounts", "CairnStreets", "CairnAPI", "Geo",
                "Routing", vapor, vaporTesting, nioConcurrencyHelpers,
            ]
        ),
        .testTarget(name: "FloraTests", dependencies: ["Flora", "CSVTables", "Geo", "ExternalProgram"]),
        .testTarget(name: "CSVTablesTests", dependencies: ["CSVTables"]),
        .testTarget(name: "SkiTests", dependencies: ["Ski", "CairnAPI", "Geo", "Routing"], exclude: ["Fixtures"]),
        .testTarget(name: "ParkingTests", dependencies: ["Parking", "Geo"]),
        .testTarget(name: "WebPushTests", dependencies: ["WebPush", "Encodings", crypto]),
        .testTarget(name: "TrailsTests", dependencies: ["Trails", "Geo", "Routing"]),
        .testTarget(
            name: "CairnTrailsTests",
            dependencies: [
                "CairnTrails", "Trails", "CairnTestSupport", "CairnServer", "CairnPlatform", "CairnAccounts",
                "CairnAPI", "Geo", vapor, vaporTesting, fluent,
            ]
        ),
        .testTarget(
            name: "CairnSkiTests",
            dependencies: [
                "CairnSki", "Ski", "CairnTestSupport", "CairnServer", "CairnPlatform", "CairnAccounts", "CairnAPI",
                "CairnWeather", "Geo", vapor, vaporTesting, fluent,
            ]
        ),
        .testTarget(
            name: "CairnParkingTests",
            dependencies: [
                "CairnParking", "Parking", "CairnTestSupport", "CairnServer", "CairnPlatform", "CairnAccounts",
                "CairnAPI", "Geo", vapor, vaporTesting, fluent, nioConcurrencyHelpers, asyncHTTPClient, nioCore,
            ]
        ),
        .testTarget(
            name: "CairnFloraTests",
            dependencies: [
                "CairnFlora", "Flora", "CairnTestSupport", "CairnServer", "CairnPlatform", "CairnAccounts", "CairnAPI",
                "Geo", "ExternalProgram",
                vapor,
                vaporTesting, fluent, nioConcurrencyHelpers,
            ]
        ),
        .testTarget(
            name: "CairnActivitiesTests",
            dependencies: [
                "CairnActivities", "CairnTestSupport", "CairnServer", "CairnPlatform", "CairnAccounts", "CairnStreets",
                "CairnPush", "CairnTrails", "CairnAPI", "Geo", "Routing", "Navigation", "GPXSchemaCheck", vapor,
                vaporTesting, fluent,
            ]
        ),
        .testTarget(
            name: "CairnCommunityTests",
            dependencies: [
                "CairnCommunity", "CairnPush", "CairnTestSupport", "CairnServer", "CairnPlatform", "CairnAccounts",
                "CairnAPI", "Encodings", "Geo", "WebPush",
                vapor, vaporTesting, fluent, crypto,
            ]
        ),
        .testTarget(
            name: "CairnServerTests",
            dependencies: [
                "CairnServer", "CairnTestSupport", "CairnPlatform", "CairnAccounts", "CairnRuns", "CairnWeather",
                "CairnFlora", "CairnParking", "CairnTrails", "CairnSki", "CairnAPI", "Geo", vapor, vaporTesting, fluent,
                sqlKit, nioConcurrencyHelpers,
            ],
            exclude: ["Fixtures", "Goldens"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
