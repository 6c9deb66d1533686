// swift-tools-version:6.0
// libFuzzer targets for everything Brolly decodes from outside (issue 35). Built apart from the
// product, with coverage instrumentation on BrollyCore and the harness:
//   bash scripts/fuzz.sh            # every target for a set time; see scripts/fuzz.sh
import PackageDescription

let package = Package(
    name: "BrollyFuzz",
    dependencies: [.package(name: "Brolly", path: "..")],
    targets: [
        .executableTarget(
            name: "BrollyFuzz",
            dependencies: [
                .product(name: "BrollyCore", package: "Brolly"), .product(name: "BrollyCompatibleAPIs", package: "Brolly"),
            ]
        )
    ]
)
