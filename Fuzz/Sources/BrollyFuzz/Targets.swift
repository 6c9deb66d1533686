import BrollyFuzzTargets
import Foundation

/// One libFuzzer binary, many targets (`FuzzTargets`, built with the product as a library):
/// `BROLLY_FUZZ_TARGET` names the decoder a run feeds (read once).
enum Selected {
    static let selected: @Sendable (Data) throws -> Void = {
        let name = ProcessInfo.processInfo.environment["BROLLY_FUZZ_TARGET"] ?? "json"
        guard let target = FuzzTargets.all[name] else {
            FileHandle.standardError.write(Data("unknown BROLLY_FUZZ_TARGET \(name); one of \(FuzzTargets.all.keys.sorted())\n".utf8))
            exit(2)
        }
        return target
    }()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    _ = try? Selected.selected(data)
    return 0
}

/// libFuzzer's driver, from its runtime (`-sanitize=fuzzer`).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// SwiftPM links an executable's `main` to `<module>_main`: here it starts libFuzzer's driver with
/// the command line (libFuzzer's own options: -runs=, -max_total_time=, a corpus directory …).
@_cdecl("BrollyFuzz_main")
public func brollyFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzOne)
}
