#if canImport(Glibc)
import Glibc
#endif
// FoundationEssentials (for JSONEncoder) and no more, as the `shake` tool: full Foundation would
// load ICU into the process whose memory `--json` reports.
import FoundationEssentials
import ShakeRecording

#if DEBUG
let buildConfiguration = "debug"
write("""
    ****************************************************************
    * WARNING: shake-bench was built in DEBUG mode.                *
    * Its figures mean nothing. Build with: swift build -c release *
    ****************************************************************

    """, to: STDERR_FILENO)
#else
let buildConfiguration = "release"
#endif

/// The JSON document `shake-bench --json` prints.
struct Report: Encodable {
    var build: String
    var runs: Int
    var benchmarks: [Measurement]
}

/// Writes all of `text` to the file descriptor `descriptor` (`STDOUT_FILENO`, `STDERR_FILENO`).
func write(_ text: String, to descriptor: CInt) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            return
        }
        bytes = bytes.dropFirst(written)
    }
}

func formatted(_ value: Double, _ digits: Int) -> String { FixedDecimals.format(value, decimals: digits) }

func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

/// `48.2 M samples/s`, `312.5 MB/s` (MB = 10⁶ bytes).
func rateText(_ measurement: Measurement) -> String {
    measurement.unit == "bytes"
        ? formatted(measurement.perSecond / 1e6, 1) + " MB/s"
        : formatted(measurement.perSecond / 1e6, 1) + " M samples/s"
}

func table(_ measurements: [Measurement], runs: Int) -> String {
    var text = "shake-bench (\(buildConfiguration) build): one warm-up, then \(runs) timed runs; median\n"
    text += padded("benchmark", 10) + padded("median s", 10) + padded("min s", 10) + padded("max s", 10)
        + padded("rate", 20) + "work\n"
    for m in measurements {
        var work = m.unit == "bytes" ? formatted(Double(m.work) / 1e6, 1) + " MB, " : ""
        work += "\(m.output.samples) samples"
        if m.name == "detector" || m.name == "pipeline" { work += ", \(m.output.shakes) shakes" }
        text += padded(m.name, 10) + padded(formatted(m.medianSeconds, 3), 10)
            + padded(formatted(m.seconds.min() ?? 0, 3), 10) + padded(formatted(m.seconds.max() ?? 0, 3), 10)
            + padded(rateText(m), 20) + work + "\n"
    }
    return text
}

func allocationTable(_ measurements: [Measurement]) -> String {
    var text = "shake-bench (\(buildConfiguration) build): heap allocations during one run\n"
    text += padded("benchmark", 10) + padded("allocations", 14) + padded("per sample", 12) + "samples\n"
    for m in measurements {
        let allocations = m.allocations ?? 0
        text += padded(m.name, 10) + padded(String(allocations), 14)
            + padded(formatted(Double(allocations) / Double(max(m.output.samples, 1)), 4), 12)
            + "\(m.output.samples)\n"
    }
    return text
}

func onceTable(_ measurements: [Measurement]) -> String {
    var text = "shake-bench (\(buildConfiguration) build): each benchmark ran once, untimed\n"
    for m in measurements {
        text += padded(m.name, 10) + "\(m.output.samples) samples, \(m.output.events) events, "
            + "\(m.output.shakes) shakes\n"
    }
    return text
}

func main() -> Int32 {
    let options: BenchOptions
    do {
        options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    } catch {
        write("Error: \(error)\nUsage: \(BenchOptions.usage)\n  See 'shake-bench --help'.\n", to: STDERR_FILENO)
        return 64
    }
    if options.help {
        write(BenchOptions.help, to: STDOUT_FILENO)
        return 0
    }
    do {
        let counter = AllocationCounter()
        if options.countAllocations && counter == nil {
            throw BenchmarkError(description: "--count-allocations needs the counter preloaded: "
                                 + "LD_PRELOAD=<path>/libshakebench_malloc_count.so (Scripts/bench builds it)")
        }
        var measurements: [Measurement] = []
        for selection in options.selections {
            let benchmark: Benchmark
            switch selection {
            case .detector: benchmark = .detector(SyntheticSignal(count: options.samples))
            case .csv(let path): benchmark = try .csv(path: path)
            case .pipeline(let path): benchmark = try .pipeline(path: path)
            case .read(let path): benchmark = try .read(path: path)
            }
            if let counter, options.countAllocations {
                measurements.append(try countAllocations(benchmark, counter: counter))
            } else if options.once {
                measurements.append(try runOnce(benchmark))
            } else {
                measurements.append(try measure(benchmark, runs: options.runs))
            }
        }
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let runs = options.countAllocations || options.once ? 1 : options.runs
            let data = try encoder.encode(Report(build: buildConfiguration, runs: runs, benchmarks: measurements))
            write(String(decoding: data, as: UTF8.self) + "\n", to: STDOUT_FILENO)
        } else if options.countAllocations {
            write(allocationTable(measurements), to: STDOUT_FILENO)
        } else if options.once {
            write(onceTable(measurements), to: STDOUT_FILENO)
        } else {
            write(table(measurements, runs: options.runs), to: STDOUT_FILENO)
        }
        return 0
    } catch {
        write("Error: \(error)\n", to: STDERR_FILENO)
        return 1
    }
}

exit(main())
