/// What one run of a benchmark produced, kept so the optimiser cannot drop the work and so
/// every run can be checked to have done the same work.
struct RunOutput: Equatable, Encodable {
    /// Samples processed (rows read, or samples fed to the detector).
    var samples: Int
    /// Shake events emitted (`began`, `ended` and `cancelled`); 0 where no detector runs.
    var events: Int
    /// Shakes recognised (`began` events); 0 where no detector runs.
    var shakes: Int
    /// A sum over the data, so that reading it cannot be optimised away.
    var checksum: Double
}

/// A named piece of work, repeated: one warm-up, then `runs` timed runs.
struct Benchmark {
    /// Short name used on the command line and in the report, e.g. `detector`.
    var name: String
    /// What the benchmark measures, one line.
    var summary: String
    /// The unit of `work`: `samples` or `bytes`.
    var unit: String
    /// Work done by one run, in `unit`s.
    var work: Int
    /// Does the work once.
    var run: () throws -> RunOutput
}

/// The timings of one benchmark.
struct Measurement: Encodable {
    var name: String
    var summary: String
    var unit: String
    var work: Int
    /// Wall-clock seconds of each timed run, in the order they ran (warm-up excluded); empty
    /// when the benchmark ran once untimed (`--once`, `--count-allocations`).
    var seconds: [Double]
    var output: RunOutput
    /// Heap allocations during one run, when counted (`--count-allocations`).
    var allocations: Int?

    /// Median of `seconds`; the figure the report quotes.
    var medianSeconds: Double { median(seconds) }
    /// `work / medianSeconds`: samples or bytes per second.
    var perSecond: Double { Double(work) / medianSeconds }

    enum CodingKeys: String, CodingKey {
        case name, summary, unit, work, seconds, output, allocations
        case medianSeconds = "median_seconds"
        case perSecond = "per_second"
        case allocationsPerSample = "allocations_per_sample"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(summary, forKey: .summary)
        try container.encode(unit, forKey: .unit)
        try container.encode(work, forKey: .work)
        try container.encode(output, forKey: .output)
        if let allocations {
            try container.encode(allocations, forKey: .allocations)
            try container.encode(Double(allocations) / Double(max(output.samples, 1)), forKey: .allocationsPerSample)
        }
        if !seconds.isEmpty {
            try container.encode(seconds, forKey: .seconds)
            try container.encode(medianSeconds, forKey: .medianSeconds)
            try container.encode(perSecond, forKey: .perSecond)
        }
    }
}

/// Failure of a benchmark that is not a timing: differing work between runs, a missing hook.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
}

/// Runs `benchmark` once as a warm-up and then `runs` times, timing each run with the
/// monotonic clock. Every run must report the same `RunOutput` as the warm-up.
func measure(_ benchmark: Benchmark, runs: Int) throws -> Measurement {
    let expected = try benchmark.run()
    let clock = ContinuousClock()
    var seconds: [Double] = []
    for _ in 0..<runs {
        let start = clock.now
        let output = try benchmark.run()
        let elapsed = clock.now - start
        guard output == expected else {
            throw BenchmarkError(description: "\(benchmark.name): a run did different work than the warm-up "
                                 + "(\(output) vs \(expected))")
        }
        seconds.append(elapsed.seconds)
    }
    return Measurement(name: benchmark.name, summary: benchmark.summary, unit: benchmark.unit,
                       work: benchmark.work, seconds: seconds, output: expected, allocations: nil)
}

/// Runs `benchmark` once, untimed: for a profiler.
func runOnce(_ benchmark: Benchmark) throws -> Measurement {
    Measurement(name: benchmark.name, summary: benchmark.summary, unit: benchmark.unit,
                work: benchmark.work, seconds: [], output: try benchmark.run(), allocations: nil)
}

/// Runs `benchmark` once and counts the heap allocations it makes, through the counter that
/// `Scripts/bench-helpers/malloc_count.c` adds when preloaded.
func countAllocations(_ benchmark: Benchmark, counter: AllocationCounter) throws -> Measurement {
    let before = counter.count()
    let output = try benchmark.run()
    let allocations = counter.count() - before
    return Measurement(name: benchmark.name, summary: benchmark.summary, unit: benchmark.unit,
                       work: benchmark.work, seconds: [], output: output, allocations: allocations)
}

/// The middle value of `values` (mean of the two middle ones for an even count).
func median(_ values: [Double]) -> Double {
    precondition(!values.isEmpty, "median of no values")
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) * 1e-18
    }
}
