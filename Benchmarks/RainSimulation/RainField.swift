import BenchmarkSupport
import Foundation

/// A day of constructed rain over a region 300 km square: showers (discs of 4–15 km radius
/// drifting east-north-east at 25–50 km/h for 1–4 hours, 0.15–2 mm a quarter hour) and one cold
/// front (a band 35 km wide crossing at 35 km/h, 0.4 mm a quarter hour). About a tenth of the
/// place-hours are wet, a showery autumn day.
///
/// The forecast of it, as a provider issuing at `issued` would give it: a shower is known from two
/// hours before it forms (convection is forecast, not its exact cell), and each is placed with a
/// timing error that grows with how far ahead it is (`timingError` of the lead, 5 % by default,
/// redrawn every hourly run).
struct RainField: Sendable {
    struct Shower: Sendable {
        var born: Double, dies: Double  // seconds from the day's start
        var x0: Double, y0: Double  // km, at `born`
        var vx: Double, vy: Double  // km/s
        var radius: Double, mm: Double
        var seed: UInt64
    }
    let origin: (latitude: Double, longitude: Double)
    let dayStart: Date
    let showers: [Shower]
    let front: (x0: Double, v: Double, width: Double, mm: Double)
    static let size = 300.0
    static let known: Double = 2 * 3600
    static let risk: Double = 12 * 3600
    let timingError: Double

    init(seed: UInt64, dayStart: Date, timingError: Double, origin: (Double, Double) = (50.0, 8.0), showers count: Int = 70) {
        self.timingError = timingError
        var r = SeededRandom(seed: seed)
        self.origin = origin
        self.dayStart = dayStart
        let heading = Double.random(in: 0.1...0.45, using: &r)  // radians north of east
        showers = (0..<count).map { i in
            let born = Double.random(in: -3 * 3600...22 * 3600, using: &r)
            let speed = Double.random(in: 25...50, using: &r) / 3600
            let h = heading + Double.random(in: -0.3...0.3, using: &r)
            return Shower(
                born: born, dies: born + Double.random(in: 3600...4 * 3600, using: &r),
                x0: Double.random(in: -60...Self.size - 40, using: &r), y0: Double.random(in: -40...Self.size, using: &r),
                vx: speed * cos(h), vy: speed * sin(h), radius: Double.random(in: 4...15, using: &r),
                mm: Double.random(in: 0.15...2.0, using: &r), seed: UInt64(i) &* 7919 &+ seed)
        }
        front = (x0: -40 - Double.random(in: 0...200, using: &r), v: 35.0 / 3600, width: 35, mm: 0.4)
    }

    func km(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        ((longitude - origin.longitude) * 111.32 * cos(origin.latitude * .pi / 180), (latitude - origin.latitude) * 110.57)
    }

    func coordinate(x: Double, y: Double) -> (latitude: Double, longitude: Double) {
        (origin.latitude + y / 110.57, origin.longitude + x / (111.32 * cos(origin.latitude * .pi / 180)))
    }

    /// mm falling at a point at `t` (seconds from the day's start) in a quarter hour, as it is
    /// (`issued` nil) or as forecast at `issued`.
    func rate(x: Double, y: Double, at t: Double, issued: Double? = nil) -> Double {
        var mm = 0.0
        let fx = front.x0 + front.v * t
        if abs(x - fx) < front.width / 2 { mm += front.mm }
        for s in showers {
            var when = t
            if let issued {
                if s.born - Self.known > issued { continue }
                let lead = max(0, t - issued)
                var g = SeededRandom(seed: s.seed &+ UInt64(max(0, issued / 3600)))
                when = t + g.normal() * timingError * lead
            }
            guard when >= s.born, when < s.dies else { continue }
            let dx = x - (s.x0 + s.vx * (when - s.born)), dy = y - (s.y0 + s.vy * (when - s.born))
            if dx * dx + dy * dy < s.radius * s.radius { mm += s.mm }
        }
        return mm
    }

    /// What fell in the quarter hour ending at `end` (sampled at its middle).
    func slot(x: Double, y: Double, end: Double, issued: Double? = nil) -> Double {
        rate(x: x, y: y, at: end - 450, issued: issued)
    }

    /// The forecast's chance of rain in the hour ending at `end`, as an ensemble gives it: 70 %
    /// where a known shower (widened by 10 km for its uncertainty) or the front passes, 40 % where
    /// the day's showers are forecast as a risk (within 30 km of one's path, known from 12 hours
    /// before it forms: the models see the unstable air, not the cell), 5 % elsewhere.
    func chance(x: Double, y: Double, hourEnding end: Double, issued: Double) -> (probability: Double, mm: Double) {
        var mm = 0.0
        var probability = 5.0
        for q in stride(from: end - 3150, through: end - 450, by: 900) {
            mm += rate(x: x, y: y, at: q, issued: issued)
            let fx = front.x0 + front.v * q
            if abs(x - fx) < front.width / 2 + 10 { probability = 70 }
            for s in showers where s.born - Self.risk <= issued && q >= s.born && q < s.dies {
                let dx = x - (s.x0 + s.vx * (q - s.born)), dy = y - (s.y0 + s.vy * (q - s.born))
                let d2 = dx * dx + dy * dy
                if s.born - Self.known <= issued && d2 < (s.radius + 10) * (s.radius + 10) {
                    probability = 70
                } else if d2 < (s.radius + 30) * (s.radius + 30) {
                    probability = max(probability, 40)
                }
            }
        }
        return (probability, mm)
    }
}
