// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Brolly",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "BrollyCore", targets: ["BrollyCore"]),
        .executable(name: "brolly", targets: ["brolly"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
    ],
    targets: [
        // Foundation only: models, providers, network and caching services, presentation.
        .target(name: "BrollyCore"),
        // The live transport on AsyncHTTPClient.
        .target(
            name: "BrollyHTTP",
            dependencies: [
                "BrollyCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // GRDB: the database of saved places, history and devices.
        .target(
            name: "BrollyStore",
            dependencies: [
                "BrollyCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Hummingbird server: JSON API and the web app.
        .target(
            name: "BrollyServer",
            dependencies: [
                "BrollyCore", "BrollyStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Public")]
        ),
        .target(
            name: "BrollyCLI",
            dependencies: [
                "BrollyCore", "BrollyHTTP", "BrollyServer", "BrollyStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "brolly", dependencies: ["BrollyCLI"]),
        .testTarget(
            name: "BrollyCoreTests",
            dependencies: ["BrollyCore"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "BrollyStoreTests", dependencies: ["BrollyStore", "BrollyCore"]),
        .testTarget(
            name: "BrollyServerTests",
            dependencies: [
                "BrollyServer", "BrollyCore",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ]
)
