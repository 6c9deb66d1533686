import Foundation

/// A reproducible random source (SplitMix64) for the benchmarks: the same seed, the same run.
public struct SeededRandom: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A standard normal value (Box–Muller).
    public mutating func normal() -> Double {
        let u = Double.random(in: 1e-12..<1, using: &self), v = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
    /// A normal value with standard deviation `sd`.
    public mutating func normal(_ sd: Double) -> Double { sd * normal() }
    /// A value between `a` and `b`.
    public mutating func uniform(_ a: Double, _ b: Double) -> Double { Double.random(in: a..<b, using: &self) }
}
