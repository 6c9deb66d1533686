import BrollyCore
import BrollyStore
import BrollyUseCases
import Foundation

// A day of rain over N saved places, replayed through the real rain watcher (its plans, rules,
// cache and budget) on a simulated clock, against a double of Open-Meteo that counts the calls.
// Reports, per N: upstream calls in the day, rain onsets warned on time (lead ± 3 min), warned off
// time, missed, places not watched. See README "Rain pushes for thousands of places".
//
//     swift run -c release brolly-rain-simulation [--places 100,1000,10000] [--day showery|frontal] [--budget 1000/h,5000/day]

var sizes = [100, 1_000, 10_000]
var seed: UInt64 = 7
var budget = "1000/h,5000/day"  // the server's default BROLLY_WATCH_BUDGET
var timingError = 0.05
var grid = 0.01
var modelGrid = 0.1
var days = ["showery", "frontal"]
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let a = arguments.next() {
    switch a {
    case "--places": sizes = (arguments.next() ?? "").split(separator: ",").compactMap { Int($0) }
    case "--seed": seed = arguments.next().flatMap(UInt64.init) ?? seed
    case "--budget": budget = arguments.next() ?? budget
    case "--day": days = [arguments.next() ?? ""].filter { ["showery", "frontal"].contains($0) }
    case "--model-grid": modelGrid = arguments.next().flatMap(Double.init) ?? modelGrid
    case "--grid": grid = arguments.next().flatMap(Double.init) ?? grid
    case "--timing-error": timingError = arguments.next().flatMap(Double.init) ?? timingError
    default:
        FileHandle.standardError.write(
            Data(
                "usage: brolly-rain-simulation [--places 100,1000,10000] [--seed N] [--budget 1000/h,5000/day] [--timing-error 0.05] [--grid 0.01] [--model-grid 0.1] [--day showery|frontal]\n"
                    .utf8))
        exit(2)
    }
}

let dayStart = Date(timeIntervalSince1970: 1_795_651_200)  // 2026-11-26T00:00:00Z
for day in days {
    // A showery day: 70 showers and a front; a frontal day: the front and 15 showers.
    let field = RainField(seed: seed, dayStart: dayStart, timingError: timingError, showers: day == "showery" ? 70 : 15)
    print(
        "\nbrolly-rain-simulation: a \(day) day (seed \(seed): \(field.showers.count) showers and a front over 300 × 300 km), "
            + "budget \(budget), forecast timing error \(Int(timingError * 100)) % of the lead, watch grid \(grid)°, the model's grid \(modelGrid)°"
    )
    print(
        "| places | cells | grid points | calls a day | calls / place | watched all day | onsets there | on time (lead ± 3 min) | off time | missed "
            + "| not watched at some time | onsets there | wet quarter hours |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in sizes {
        let result = try await Simulation(places: n, field: field, seed: seed, budget: budget, grid: grid, modelGrid: modelGrid).run()
        print(result.row)
    }
}
