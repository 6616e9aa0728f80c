// swift-tools-version: 6.0
import PackageDescription

/// Cairn: one self-hostable outdoor platform.
///
/// Layering (bottom to top): `Geo`, `Routing` and `Navigation` are domain libraries that import Foundation
/// only, so a native iOS app can link them unchanged; `CairnAPI` holds the Codable request/response types
/// shared with clients; `CairnServer` is the Vapor + Fluent server with one folder per app; `cairn` is the
/// thin CLI; `cairn-bench` runs the benchmarks (`make bench`), outside the production binary.
let package = Package(
    name: "Cairn",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Geo", targets: ["Geo"]),
        .library(name: "Routing", targets: ["Routing"]),
        .library(name: "Navigation", targets: ["Navigation"]),
        .library(name: "CairnAPI", targets: ["CairnAPI"]),
        .executable(name: "cairn", targets: ["CairnCLI"]),
        .executable(name: "cairn-bench", targets: ["CairnBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        .package(url: "https://github.com/vapor/fluent.git", from: "4.13.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.9.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.14.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "5.0.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // Cairn's own HTTP/1.1 server (Platform/HTTP/Server) is built on SwiftNIO's public pieces; both come
        // with Vapor already and are declared here because the server uses them directly.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
    ],
    targets: [
        .target(name: "Geo"),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CBzip2", providers: [.apt(["libbz2-dev"])]),
        .target(name: "Routing", dependencies: ["Geo", "CZlib", "CBzip2"]),
        .target(name: "RoutingBenchmarks", dependencies: ["Routing", "Geo"]),
        .target(name: "Navigation", dependencies: ["Geo", "Routing"]),
        .target(name: "NavigationBenchmarks", dependencies: ["Navigation", "Routing", "Geo", "RoutingBenchmarks"]),
        .target(name: "CairnAPI", dependencies: ["Geo"]),
        .target(
            name: "CairnServer",
            dependencies: [
                "Geo", "Routing", "CairnAPI", "CZlib",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ],
            resources: [.copy("OpenAPI"), .copy("Accounts/Resources/common-passwords.txt")]
        ),
        .executableTarget(
            name: "CairnCLI",
            dependencies: [
                "CairnServer", "Routing", "Geo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "CairnBench",
            dependencies: [
                "Routing", "RoutingBenchmarks", "NavigationBenchmarks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "GeoTests", dependencies: ["Geo", "CLibXML2"], exclude: ["Fixtures"]),
        .testTarget(name: "RoutingTests", dependencies: ["Routing", "Geo", "CZlib", "CBzip2"], exclude: ["Fixtures"]),
        .testTarget(name: "NavigationTests", dependencies: ["Navigation", "Routing", "Geo"]),
        // libxml2's XML Schema validator, for checking written GPX against the official schema.
        .systemLibrary(
            name: "CLibXML2", path: "Tests/CLibXML2", providers: [.apt(["libxml2-dev"])]),
        .testTarget(
            name: "CairnServerTests",
            dependencies: [
                "CairnServer",
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
