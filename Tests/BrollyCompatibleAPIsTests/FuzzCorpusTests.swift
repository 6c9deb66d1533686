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

    /// Runs `target` over every file in `directory`; how many it ran.
    static func run(_ directory: URL) throws -> Int {
        let fm = FileManager.default
        var decoded = 0
        for target in try fm.contentsOfDirectory(atPath: directory.path).sorted() {
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

    @Test func everyTargetRunsOverItsCorpus() throws {
        let corpus = Self.fuzz.appendingPathComponent("corpus")
        let targets = try FileManager.default.contentsOfDirectory(atPath: corpus.path)
        // Every target has a corpus, and every corpus a target.
        #expect(Set(targets) == Set(FuzzTargets.all.keys))
        #expect(try Self.run(corpus) >= 1000)
    }
}
