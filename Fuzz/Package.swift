// swift-tools-version:6.0
// libFuzzer targets for everything Brolly decodes from outside (issue 35): the product's own
// BrollyFuzzTargets (Fuzz/Targets, which the suite runs over the kept corpus in its debug build),
// built apart from the product with coverage instrumentation on BrollyCore and the harness:
//   bash scripts/fuzz.sh            # every target for a set time; see scripts/fuzz.sh
import PackageDescription

let package = Package(
    name: "BrollyFuzz",
    dependencies: [.package(name: "Brolly", path: "..")],
    targets: [
        .executableTarget(
            name: "BrollyFuzz",
            dependencies: [.product(name: "BrollyFuzzTargets", package: "Brolly")]
        )
    ]
)
