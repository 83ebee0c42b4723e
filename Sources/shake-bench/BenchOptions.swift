/// The command line of `shake-bench`.
struct BenchOptions {
    /// A benchmark requested on the command line, with its input file where it needs one.
    enum Selection: Equatable {
        case detector
        case csv(String)
        case pipeline(String)
        case read(String)
    }

    var selections: [Selection] = []
    var json = false
    /// Timed runs after the warm-up; the median of these is reported.
    var runs = 5
    /// Samples in the detector benchmark's synthetic signal.
    var samples = 20_000_000
    var countAllocations = false
    /// Run each benchmark once, untimed: for profilers such as callgrind.
    var once = false
    var help = false

    static let usage = "shake-bench [--json] [--runs <n>] [--samples <n>] [--once | --count-allocations] <benchmark> ..."

    static let help = """
        OVERVIEW: Benchmarks of ShakeKit's detection and recording paths. Build with -c release.

        USAGE: \(usage)

        BENCHMARKS:
          detector              ShakeDetector.process on synthetic in-memory samples (samples/s)
          csv <file>            RecordingReader over a CSV recording (bytes/s)
          pipeline <file>       RecordingReader into ShakeDetector, in process (bytes/s)
          read <file>           read(2) of the file counting newlines: the I/O floor (bytes/s)
          With no benchmark, runs 'detector'.

        OPTIONS:
          --json                Print one JSON object instead of a table.
          --runs <n>            Timed runs after one warm-up; the median is reported. (default: 5)
          --samples <n>         Samples in the detector's synthetic signal. (default: 20000000)
          --once                Run each benchmark once, untimed (for valgrind --tool=callgrind).
          --count-allocations   Run each benchmark once and count heap allocations instead of
                                timing; needs LD_PRELOAD of the counter that Scripts/bench builds.
          -h, --help            Show help information.

        """

    /// Parses `arguments` (without the program name).
    init(arguments: [String]) throws {
        var remaining = arguments[...]
        func value(for option: String) throws -> Int {
            guard let text = remaining.popFirst() else { throw BenchmarkError(description: "Missing value for '\(option)'") }
            guard let number = Int(text), number > 0 else {
                throw BenchmarkError(description: "The value '\(text)' is invalid for '\(option)': expected a positive integer")
            }
            return number
        }
        func file(for benchmark: String) throws -> String {
            guard let path = remaining.popFirst(), !path.hasPrefix("--") else {
                throw BenchmarkError(description: "Missing <file> for benchmark '\(benchmark)'")
            }
            return path
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--json": json = true
            case "--runs": runs = try value(for: argument)
            case "--samples": samples = try value(for: argument)
            case "--count-allocations": countAllocations = true
            case "--once": once = true
            case "-h", "--help": help = true
            case "detector": selections.append(.detector)
            case "csv": selections.append(.csv(try file(for: argument)))
            case "pipeline": selections.append(.pipeline(try file(for: argument)))
            case "read": selections.append(.read(try file(for: argument)))
            default:
                let kind = argument.hasPrefix("-") ? "option" : "benchmark"
                throw BenchmarkError(description: "Unknown \(kind) '\(argument)'")
            }
        }
        if selections.isEmpty { selections = [.detector] }
        if once && countAllocations {
            throw BenchmarkError(description: "'--once' and '--count-allocations' cannot be combined")
        }
    }
}
