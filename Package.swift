// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Brolly",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "BrollyCore", targets: ["BrollyCore"]),
        .library(name: "BrollyURLSession", targets: ["BrollyURLSession"]),
        .library(name: "BrollyCompatibleAPIs", targets: ["BrollyCompatibleAPIs"]),
        // Every decoder by fuzz target name, for the libFuzzer binary (Fuzz/, its own package).
        .library(name: "BrollyFuzzTargets", targets: ["BrollyFuzzTargets"]),
        .executable(name: "brolly", targets: ["brolly"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.70.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.30.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.20.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.21.0"),
        // Tests only: property-based tests of the unit conversions, rounding and day grouping.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // Foundation only: models, providers, the network service (with a URLSession transport),
        // the caching service and the JSON weather contract. An iOS or macOS app embeds it as it is.
        .target(name: "BrollyCore", resources: [.copy("Languages")]),
        // The live transport on URLSession, for an app that embeds BrollyCore (iOS, macOS). Apart,
        // so that the CLI and the server (which use AsyncHTTPClient) do not link libcurl.
        .target(name: "BrollyURLSession", dependencies: ["BrollyCore"]),
        // The live transport on AsyncHTTPClient, for the server and the CLI.
        .target(
            name: "BrollyHTTP",
            dependencies: [
                "BrollyCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // GRDB: the database of saved places, history and devices (storage types only).
        .target(
            name: "BrollyStore",
            dependencies: [
                "BrollyCore", "CBrollySQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The application layer: one factory builds every service; each user operation is written
        // once here and called by both adapters (CLI and server); the JSON contracts it returns.
        .target(name: "BrollyUseCases", dependencies: ["BrollyCore", "BrollyStore"]),
        // Text for terminals (the `now` and `forecast` views, ANSI colour), shared by the CLI and
        // the server's curl endpoint.
        .target(name: "BrollyTerminal", dependencies: ["BrollyCore"]),
        // The APIs other weather apps speak (Dark Sky / Pirate Weather, Open-Meteo, OpenWeatherMap):
        // one folder each (its surface and documents) over the same weather, and the request rules
        // every API of the server reads by. Foundation and BrollyCore only: the server mounts them.
        .target(name: "BrollyCompatibleAPIs", dependencies: ["BrollyCore"]),
        // Hummingbird server: controllers, middleware and the web app — an adapter over BrollyUseCases;
        // `buildApplication(configuration:…)` builds the whole server (store, keys, guards, services).
        .target(
            name: "BrollyServer",
            dependencies: [
                "BrollyCore", "BrollyHTTP", "BrollyStore", "BrollyUseCases", "BrollyTerminal", "BrollyCompatibleAPIs", "CBrollyHeap",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                // HTTPS and HTTP/2 (`--tls-cert`/`--tls-key`): Hummingbird's HTTP/2 channel over NIOSSL.
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // The TLS port's handshake deadline watches NIOTLS's handshake event.
                .product(name: "NIOTLS", package: "swift-nio"),
                // ... and closes an HTTP/2 connection that never answers its GOAWAY (NIOHTTP2's frames).
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                // The plain port's HTTP/1.1 codec (`HTTP1ServerCodec`): NIO's request decoder and the
                // HTTP types' conversions of swift-nio-extras, with the response head written here.
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            resources: [.copy("Public"), .copy("openapi.json")]
        ),
        // swift-argument-parser commands and terminal rendering — the other adapter.
        .target(
            name: "BrollyCLI",
            dependencies: [
                "BrollyCore", "BrollyHTTP", "BrollyServer", "BrollyStore", "BrollyUseCases", "BrollyTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                // `brolly bench-reference --header`: the headers of the response it serves.
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // One SQLite setting Swift cannot make (a variadic C call), for the store.
        .target(name: "CBrollySQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        // glibc's allocator statistics and trim (`malloc.h`, which Swift's Glibc module leaves out),
        // for the server's HeapTrimmer.
        .target(name: "CBrollyHeap"),
        // The release binary is linked by lld with packed relative relocations (DT_RELR, glibc
        // 2.36+): the static binary's 155,000 relocations shrink from 3.7 MB to 30 KB, and a short
        // command's start loses ~1.5 ms of relocating (README, "the command's start").
        .executableTarget(
            name: "brolly", dependencies: ["BrollyCLI"],
            linkerSettings: [
                .unsafeFlags(
                    ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
                    .when(platforms: [.linux], configuration: .release))
            ]),
        // A day of constructed rain over 100 to 10,000 saved places through the real rain watcher
        // on a simulated clock: upstream calls, onsets warned on time, missed (README).
        .executableTarget(
            name: "brolly-rain-simulation", dependencies: ["BrollyCore", "BrollyStore", "BrollyUseCases", "BenchmarkSupport"],
            path: "Benchmarks/RainSimulation"),
        // The corrected forecast replayed over constructed places (issue 37's measure).
        .executableTarget(
            name: "brolly-correction-replay", dependencies: ["BrollyCore", "BenchmarkSupport"], path: "Benchmarks/CorrectionReplay"),
        // Every decoder of what Brolly reads from outside, by fuzz target name: the libFuzzer binary
        // (Fuzz/, scripts/fuzz.sh) feeds one, the suite runs each over its corpus (FuzzCorpusTests).
        .target(name: "BrollyFuzzTargets", dependencies: ["BrollyCore", "BrollyCompatibleAPIs"], path: "Fuzz/Targets"),
        // What the benchmarks share (a seeded random source).
        .target(name: "BenchmarkSupport", path: "Benchmarks/Support"),
        // The doubles and helpers every Swift suite shares (transports, a fake provider, a clock,
        // sample data, use cases over a double).
        .target(
            name: "BrollyTestSupport", dependencies: ["BrollyCore", "BrollyStore", "BrollyUseCases"], path: "Tests/BrollyTestSupport"),
        .testTarget(
            name: "BrollyCoreTests",
            dependencies: ["BrollyCore", "BrollyURLSession", "BrollyTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "BrollyCompatibleAPIsTests",
            dependencies: ["BrollyCompatibleAPIs", "BrollyCore", "BrollyTestSupport", "BrollyFuzzTargets"]),
        .testTarget(name: "BrollyStoreTests", dependencies: ["BrollyStore", "BrollyCore", "BrollyTestSupport"]),
        .testTarget(name: "BrollyUseCasesTests", dependencies: ["BrollyUseCases", "BrollyStore", "BrollyCore", "BrollyTestSupport"]),
        .testTarget(
            name: "BrollyTerminalTests",
            dependencies: [
                "BrollyTerminal", "BrollyCore", "BrollyCompatibleAPIs", "BrollyTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "BrollyServerTests",
            dependencies: [
                "BrollyServer", "BrollyCore", "BrollyStore", "BrollyUseCases", "BrollyTestSupport", "BrollyHTTP",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                // HTTP1ServerCodecTests: Brolly's codec against NIO's pipeline, on embedded channels.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ]
        ),
    ]
)
