import BrollyFuzzTargets
import Foundation
import Testing

/// The fuzz targets in the ordinary debug build, without an instrumented build of their own
/// (issue 53: the libFuzzer run is `scripts/fuzz.sh`'s, off the suite's path): every input fuzzing
/// found to crash a decoder (Fuzz/found/<target>/) and every input of every target's kept corpus
/// (Fuzz/corpus/<target>/, the inputs that reached new code) is decoded again by the same target
/// the fuzzer feeds — each must be read or refused with an error, never trap.
@Suite struct FuzzCorpusTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    /// Runs each target over its files in `directory` (every target's, or `only` that one's); how many it ran.
    static func run(_ directory: URL, only: String? = nil) throws -> Int {
        let fm = FileManager.default
        var decoded = 0
        for target in try fm.contentsOfDirectory(atPath: directory.path).sorted() where only == nil || only == target {
            let decode = try #require(FuzzTargets.all[target], "no fuzz target for \(directory.lastPathComponent)/\(target)")
            let folder = directory.appendingPathComponent(target)
            for file in try fm.contentsOfDirectory(atPath: folder.path) {
                _ = try? decode(try Data(contentsOf: folder.appendingPathComponent(file)))
                decoded += 1
            }
        }
        return decoded
    }

    @Test func everyFindingIsReadOrRefused() throws {
        #expect(try Self.run(Self.fuzz.appendingPathComponent("found")) >= 6)
    }

    @Test func everyTargetHasACorpusOfAThousandInputsInAll() throws {
        let corpus = Self.fuzz.appendingPathComponent("corpus")
        let targets = try FileManager.default.contentsOfDirectory(atPath: corpus.path)
        // Every target has a corpus, and every corpus a target.
        #expect(Set(targets) == Set(FuzzTargets.all.keys))
        let inputs = try targets.map { try FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent($0).path).count }
        #expect(inputs.reduce(0, +) >= 1000)
    }

    /// Each target over its kept corpus, the targets side by side (one case each: the suite's
    /// longest case was all of them in a row, 28 s of the Swift tests' 29: issue 53).
    @Test(arguments: FuzzTargets.all.keys.sorted())
    func theTargetRunsOverItsCorpus(target: String) throws {
        #expect(try Self.run(Self.fuzz.appendingPathComponent("corpus"), only: target) > 0)
    }
}
