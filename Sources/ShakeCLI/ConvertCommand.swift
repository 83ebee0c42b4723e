import ShakeDetection
import ShakeRecording

/// `shake convert FILE -o OUT [--shakes RANGES]`: a recording in any layout the reader takes,
/// written as a canonical recording, labelled where the user says the shakes are.
enum ConvertCommand: ShakeCommand {
    static let spec = CommandSpec(
        name: "convert",
        abstract: "Write a recording as a canonical CSV, and mark where its shakes are.",
        discussion: """
            Reads FILE as replay does (an app's export, with the import options below) and writes \
            it as a canonical recording: its '# key: value' lines (other comment lines are not \
            kept; a shakes_s line written with --shakes replaces the file's own), a \
            'converted_from' line (one per conversion, oldest first), then \
            time_s,x,y,z[,shake], time in seconds (6 decimals) and acceleration in m/s² including \
            gravity (5 decimals). This is how a recording of your own becomes a labelled one for \
            'shake evaluate' and 'shake tune'.

            With --shakes the output is labelled: shake=1 for each sample whose time as written \
            (to the microsecond) lies in one of the ranges (ends included), 0 for every other, \
            replacing any labels the file had (a label column of activity names is then not read). \
            Times are the output's (after --rebase-time), as 'shake plot' and 'shake replay' show \
            them (for an export stamped with dates or epoch times, pass --rebase-time to both, and \
            the times are seconds from the first sample; times before 0 are given with their minus \
            sign, -3.5--2 for -3.5 to -2 s); a labelled shake should run from the \
            first stroke to the last. Each range must hold a sample, and a sample must lie between \
            one range and the next (else 'shake evaluate' would count the two as one shake); \
            otherwise nothing is written. Without --shakes the file's labels are kept, and a file \
            without labels stays without. A file whose |a| averages under 4.9 m/s² over its first \
            64 samples, where gravity alone gives 9.8, looks like acceleration with gravity taken \
            out (a linear accelerometer's export): it is converted, with a warning on stderr.

            With --spread-batches, a recording whose samples come in FIFO batches stamped once (or \
            microseconds apart, as read out) is written with each sample at its own time, as \
            'shake replay --spread-batches' reads it (a 'times_spread' line says so, and the \
            summary how many were moved); labels stay with their samples, and --shakes takes the \
            written times.

            """ + "\n" + ImportOptions.discussion,
        arguments: [ArgumentSpec("file", help: "The recording to convert (- reads standard input).")],
        options: [
            .option("output", short: "o", value: "file", help: "The canonical recording to write (required)."),
            .option("shakes", value: "ranges",
                    help: "Where the shakes are: START-END in seconds, several separated by commas (3.2-4.5,10-11.25); a time before 0 keeps its minus sign, the dash between START and END follows it (-3.5--2, -0.5-1.25; write --shakes=-3.5--2 or --shakes -3.5--2); none labels every sample 0 (a walk, say: other motion, on which false shakes are counted)."),
            .option("add-gravity", value: "file",
                    help: "Add this file's x, y and z to the recording's, row by row, their times equal: gravity, for an app that writes it apart from acceleration without gravity (Sensor Logger on iOS: Accelerometer.csv --add-gravity Gravity.csv)."),
            .flag("force", help: "Overwrite the output file if it exists."),
            DetectorOptions.spreadBatchesSpec,
        ] + ImportOptions.specs
    )

    /// Labelled time ranges, s, sorted and apart.
    struct ShakeRanges {
        var ranges: [ClosedRange<Double>]

        /// Parses `START-END[,START-END...]`, or `none` (no shake: every sample labelled 0, for a
        /// recording of other motion). A time before 0 (a recording stamped so) has its minus
        /// sign: the dash between START and END is the first after START's digits, so `-3.5--2`
        /// is -3.5 to -2 s and `-1-2.5` is -1 to 2.5 s.
        init(argument text: String) throws(UsageError) {
            func invalid(_ why: String) -> UsageError {
                UsageError("The value '\(text)' is invalid for '--shakes': \(why)")
            }
            var ranges: [ClosedRange<Double>] = []
            if text.trimmingWhitespace().lowercased() == "none" {
                self.ranges = ranges
                return
            }
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                let range = part.trimmingWhitespace()
                // START's own minus sign, if any, is not the dash that ends it.
                let dash = range.dropFirst(range.hasPrefix("-") ? 1 : 0).firstIndex(of: "-")
                let ends = dash.map { [String(range[..<$0]).trimmingWhitespace(),
                                       String(range[range.index(after: $0)...]).trimmingWhitespace()] } ?? []
                // Plain decimals, signed or not: Double() would take 0x3 or 1e1, which nobody means here.
                func number(_ text: String) -> Double? {
                    let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
                    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else { return nil }
                    return Double(text)
                }
                guard ends.count == 2, let start = number(ends[0]), let end = number(ends[1]) else {
                    let which = range.isEmpty ? "an empty range" : "'\(range)'"
                    throw invalid("\(which) is not START-END in seconds; give ranges separated by commas, like "
                        + "3.2-4.5,10-11.25 (a time before 0 with its minus: -3.5--2), or none (a recording without shakes)")
                }
                guard end > start else {
                    throw invalid("the range \(part) " + (end == start ? "is empty: its end must come after its start" : "ends before it starts"))
                }
                ranges.append(start ... end)
            }
            ranges.sort { $0.lowerBound < $1.lowerBound }
            for (a, b) in zip(ranges, ranges.dropFirst()) where b.lowerBound <= a.upperBound {
                throw invalid("the ranges \(Self.text(a)) and \(Self.text(b)) overlap: give each shake one range")
            }
            self.ranges = ranges
        }

        static func text(_ range: ClosedRange<Double>) -> String {
            "\(plainDecimal(range.lowerBound))-\(plainDecimal(range.upperBound))"
        }

        /// `shortestDecimal(value)` without an exponent (`1e-05` is `0.00001`, `1e+16`
        /// `10000000000000000`), as `--shakes` reads it back.
        static func plainDecimal(_ value: Double) -> String {
            let text = shortestDecimal(value)
            guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
                  let exponent = Int(text[text.index(after: e)...]) else { return text }
            var mantissa = text[..<e]
            let negative = mantissa.hasPrefix("-")
            if negative { mantissa = mantissa.dropFirst() }
            let point = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count
            var digits = Array(mantissa.filter { $0 != "." })
            var position = point + exponent  // where the point goes among `digits`
            if position <= 0 {
                digits.insert(contentsOf: repeatElement("0", count: 1 - position), at: 0)
                position = 1
            } else if position > digits.count {
                digits.append(contentsOf: repeatElement("0", count: position - digits.count))
            }
            var integer = String(digits[..<position])
            let fraction = String(digits[position...]).reversed().drop { $0 == "0" }.reversed()
            if integer.isEmpty { integer = "0" }
            return (negative ? "-" : "") + integer + (fraction.isEmpty ? "" : "." + String(fraction))
        }
    }

    /// Labels samples in time order by `ShakeRanges`, noting which ranges and which spaces
    /// between two ranges received a sample.
    struct Labeller {
        let ranges: [ClosedRange<Double>]
        private var index = 0
        private(set) var sampleIn: [Bool]
        private(set) var sampleBetween: [Bool]

        init(_ ranges: ShakeRanges) {
            self.ranges = ranges.ranges
            sampleIn = Array(repeating: false, count: ranges.ranges.count)
            sampleBetween = Array(repeating: false, count: max(0, ranges.ranges.count - 1))
        }

        mutating func isShake(at time: Double) -> Bool {
            while index < ranges.count && time > ranges[index].upperBound { index += 1 }
            guard index < ranges.count else { return false }
            if time >= ranges[index].lowerBound {
                sampleIn[index] = true
                return true
            }
            if index > 0 { sampleBetween[index - 1] = true }
            return false
        }

        /// The first range that holds no sample, if any.
        var emptyRange: ClosedRange<Double>? { sampleIn.firstIndex(of: false).map { ranges[$0] } }

        /// Why the ranges do not label the recording as meant, or nil when they do.
        func problem(first: Double?, last: Double?) -> String? {
            let span = first.flatMap { f in last.map { l in " (its samples run from \(fixed(f, 3)) to \(fixed(l, 3)) s)" } } ?? " (it has no samples)"
            if let empty = sampleIn.firstIndex(of: false) {
                return "the range \(ShakeRanges.text(ranges[empty])) s of '--shakes' holds no sample of the recording\(span)"
            }
            if let touching = sampleBetween.firstIndex(of: false) {
                return "no sample lies between the ranges \(ShakeRanges.text(ranges[touching])) and "
                    + "\(ShakeRanges.text(ranges[touching + 1])) s of '--shakes': they would be one labelled shake; "
                    + "join them into one range, or leave a sample between them"
            }
            return nil
        }
    }

    /// `text` on one line, as a metadata line can hold it: every character that ends a line
    /// (form feed, U+0085, U+2028…) and NUL a space, no spaces or tabs at the ends.
    static func oneLine(_ text: String) -> String {
        let joined = String(text.map { $0.isNewline || $0 == "\0" ? " " : $0 })
        // Scalars, as the writer checks them: a space before a combining mark is a space too.
        let scalars = joined.unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(Substring(scalars[first...last]))
    }

    /// A file's name for a metadata line: as it is, or, when it would not stay as it is on one
    /// line (spaces at its ends, a line break), in Swift's quoted form ("\" sp.csv \"").
    static func fileName(_ path: String) -> String {
        let name = RecordingError.displayName(ofPath: path)
        return oneLine(name) == name ? name : name.debugDescription
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        guard let output = arguments.value("output") else {
            throw UsageError("Missing the output file: '-o <file>' (the recording to write)")
        }
        let ranges = try arguments.value("shakes").map { text throws(UsageError) in try ShakeRanges(argument: text) }
        let input = arguments.positionals[0]
        let force = arguments.flag("force")
        let gravityPath = arguments.value("add-gravity")
        if gravityPath == "-" && input == "-" {
            throw UsageError("'--add-gravity -' and the recording '-' cannot both be read from standard input")
        }
        try OutputFile.checkNotAnInput(output, inputs: [input] + (gravityPath.map { [$0] } ?? []), writing: "the converted recording")
        try OutputFile.check(output, force: force, partial: true)
        var options = try ImportOptions.options(arguments)
        // --shakes replaces the file's labels: a 'label' column of activity names, which would
        // have to read as 0 and 1, is not read at all (unless named with --label-column).
        if ranges != nil && options.label == nil { options.ignoresLabels = true }

        var reader: RecordingReader
        var gravity: RecordingReader?
        do {
            reader = try RecordingReader(path: input, options: options)
            if let gravityPath { gravity = try gravityReader(gravityPath, options: options) }
        } catch {
            throw recordingFailure(error)
        }
        let labelled = ranges != nil || reader.hasLabels
        // The rows are written in m/s²: a `# units: g` line copied as it was would have every
        // reader take them to be in g.
        var metadata = reader.metadata.map { entry in
            guard entry.key.lowercased() == "units",
                  let unit = CSVImportOptions.AccelerationUnit(argument: entry.value), unit != .metersPerSecondSquared else { return entry }
            return (key: entry.key, value: "m/s^2")
        }
        // What the reader took as one line may hold characters the writer counts as line breaks
        // (a form feed, U+2028): written as spaces, as a file name is written in quotes.
        metadata = metadata.map { (key: Self.oneLine($0.key), value: Self.oneLine($0.value)) }.filter { !$0.key.isEmpty }
        var added: [(key: String, value: String)] = [("converted_from", Self.fileName(input))]
        if let gravityPath { added.append(("gravity_added_from", Self.fileName(gravityPath))) }
        var spreader = arguments.flag("spread-batches") ? BatchTimeSpreader() : nil
        if spreader != nil {
            added.append(("times_spread", "where the samples came in FIFO batches (shake convert --spread-batches)"))
        }
        if let ranges {
            added.append(("shakes_s", ranges.ranges.isEmpty ? "none" : ranges.ranges.map(ShakeRanges.text).joined(separator: ",")))
        }
        // A line that says what the rows are now replaces the input's line of that key when this
        // run writes one (a converted file labelled again: shakes_s says the labels now written,
        // not both); kept otherwise (the labels or times are still those). converted_from and
        // gravity_added_from add up, one per conversion, oldest first.
        let replaced = Set(added.map(\.key)).intersection(["shakes_s", "times_spread"])
        metadata = metadata.filter { !replaced.contains($0.key.lowercased()) } + added
        let writer: RecordingWriter
        do {
            writer = try RecordingWriter(path: output, metadata: metadata, labelled: labelled, overwrite: force)
        } catch {
            throw outputFailure(error)
        }
        let stopOnSignal = StopOnSignal(partialPath: writer.partialPath, output: output)
        defer { stopOnSignal.remove() }
        var labeller = ranges.map(Labeller.init)
        var count = 0
        var shakes = 0
        var wasShake = false
        var first: Double?
        var last: Double?
        // With --spread-batches, the rows before the spreader has measured the stream (its first
        // 32 intervals or so) are held back until it changes a time, and then spread as the rows
        // after them (`BatchTimeSpreader.spreadingBack`): written at once, they would be the
        // file's first bursts, which replay and evaluate flag. At most `heldRowsLimit` are held.
        var held: [LabeledSample]? = spreader != nil ? [] : nil
        var spreadBack = 0
        func write(_ row: LabeledSample) throws {
            let time = row.sample.time
            if first == nil { first = time }
            last = time
            var isShake = row.isShake
            // Labelled by the time as written (to the microsecond), which is what the file
            // will say: 1.5099999 (1.51 after --rebase-time) is a row at 1.510000.
            if let inRange = labeller?.isShake(at: RecordingWriter.writtenTime(time)) { isShake = inRange }
            do {
                try writer.write(row.sample, isShake: labelled ? isShake : nil)
            } catch {
                throw OutputFile.discardedRecordingFailure(error, output: output)
            }
            count += 1
            if isShake == true && !wasShake { shakes += 1 }
            wasShake = isShake == true
        }
        do {
            while var row = try reader.next() {
                if gravity != nil { row.sample = try addGravity(row.sample, from: &gravity!, to: reader) }
                if spreader != nil {
                    let given = row.sample
                    row.sample = spreader!.spread(given)
                    if held != nil {
                        if row.sample.time == given.time && held!.count < Self.heldRowsLimit {
                            held!.append(row)
                            continue
                        }
                        if row.sample.time != given.time,
                           let times = spreader!.spreadingBack(held!.map(\.sample.time), before: row.sample.time) {
                            for index in held!.indices where held![index].sample.time != times[index] {
                                held![index].sample.time = times[index]
                                spreadBack += 1
                            }
                        }
                        for earlier in held! { try write(earlier) }
                        held = nil
                    }
                }
                try write(row)
            }
            for earlier in held ?? [] { try write(earlier) }
            if count == 0 {
                throw CommandFailure("\(RecordingError.displayName(ofPath: input)): no samples to convert",
                                     exitStatus: ExitStatus.dataError)
            }
            if gravity != nil { try checkGravityEnds(&gravity!, after: reader) }
            if let problem = labeller?.problem(first: first, last: last) {
                let range = labeller?.emptyRange
                throw UsageError(problem + (options.rebasesTime ? "" : ImportOptions.rebaseTimeNote(
                    times: range.map { [$0.lowerBound, $0.upperBound] } ?? [], first: first, last: last, decimals: 3)))
            }
            stopOnSignal.finishing()
            do {
                try writer.finish()
            } catch {
                throw OutputFile.discardedRecordingFailure(error, output: output)
            }
        } catch {
            writer.discard()
            if error is UsageError || error is CommandFailure { throw error }
            throw recordingFailure(error)
        }
        if gravity == nil, let warning = ImportOptions.gravityFreeWarning(path: reader.path, reader.earlyMagnitude) { io.err(warning) }
        let duration = first.flatMap { f in last.map { $0 - f } } ?? 0
        let labels = labelled ? "\(shakes) labelled shake\(shakes == 1 ? "" : "s")" : "no labels"
        var spread = ""
        if let moved = spreader.map({ $0.spreadSamples + spreadBack }) {
            spread = ", \(moved) sample time\(moved == 1 ? "" : "s") spread over \(moved == 1 ? "its batch" : "their batches")"
        }
        io.out("\(output): \(counted(count, "sample")), \(fixed(duration, 1)) s, \(labels)\(spread)\n")
        return ExitStatus.success
    }

    /// The most rows `--spread-batches` holds back until the spreader has measured the stream:
    /// 4,096 (a stream not in batches is written as given once that many have come).
    static let heldRowsLimit = 4096

    /// The reader of `--add-gravity`'s file: the import options' (without labels); when they
    /// choose no axis columns and the file is refused for its columns (Sensor Logger's Gravity.csv
    /// is, as not acceleration), its columns `x`, `y` and `z`.
    static func gravityReader(_ path: String, options: CSVImportOptions) throws(RecordingError) -> RecordingReader {
        var options = options
        options.ignoresLabels = true
        options.label = nil
        do {
            return try RecordingReader(path: path, options: options)
        } catch where error.optionHint == .axisColumns && options.x == nil && options.y == nil && options.z == nil
            && path != "-" {
            (options.x, options.y, options.z) = (.named("x"), .named("y"), .named("z"))
            guard let reader = try? RecordingReader(path: path, options: options) else { throw error }
            return reader
        }
    }

    /// `sample` plus the gravity file's next sample, which must have the same time.
    static func addGravity(_ sample: Sample, from gravity: inout RecordingReader, to reader: RecordingReader) throws(RecordingError) -> Sample {
        let name = RecordingError.displayName(ofPath: reader.path)
        guard let added = try gravity.next() else {
            throw RecordingError(
                path: gravity.path, line: gravity.lineOfLastSample, kind: .fieldCount,
                message: "'--add-gravity' file ends after \(counted(gravity.samplesRead, "sample")) (this line), where "
                    + "\(name) goes on (line \(reader.lineOfLastSample)): the two files must have the same rows")
        }
        guard added.sample.time == sample.time else {
            throw RecordingError(
                path: gravity.path, line: gravity.lineOfLastSample, kind: .invalidArgument,
                message: "time \(added.sample.time) s, where \(name) has \(sample.time) s (line \(reader.lineOfLastSample)): "
                    + "'--add-gravity' needs the same times row by row")
        }
        return Sample(time: sample.time, x: sample.x + added.sample.x, y: sample.y + added.sample.y, z: sample.z + added.sample.z)
    }

    /// After the recording's last sample: the gravity file must end too, and the recording must
    /// have had no gravity of its own (else it would now hold it twice).
    static func checkGravityEnds(_ gravity: inout RecordingReader, after reader: RecordingReader) throws(RecordingError) {
        let name = RecordingError.displayName(ofPath: reader.path)
        if try gravity.next() != nil {
            throw RecordingError(
                path: gravity.path, line: gravity.lineOfLastSample, kind: .fieldCount,
                message: "'--add-gravity' file goes on where \(name) ends after \(counted(reader.samplesRead, "sample")) "
                    + "(line \(reader.lineOfLastSample)): the two files must have the same rows")
        }
        // Gravity alone reads 9.8 m/s² wherever the device points: a gyroscope's or
        // magnetometer's export, or acceleration with gravity taken out, averages far from it.
        let added = gravity.earlyMagnitude
        if let mean = added.mean, added.count >= EarlyMagnitude.fewestSamples, !(mean >= 4.9 && mean <= 14.7) {
            throw RecordingError(
                path: gravity.path, kind: .invalidArgument,
                message: "|a| averages \(fixed(mean, 2)) m/s² over the first \(added.count) samples, where gravity alone "
                    + "reads 9.8: '--add-gravity' takes a gravity export (Sensor Logger's Gravity.csv), not "
                    + (mean < 4.9 ? "acceleration with gravity taken out or another sensor's values" : "another sensor's values"))
        }
        let early = reader.earlyMagnitude
        if let mean = early.mean, !early.looksGravityFree, early.count >= EarlyMagnitude.fewestSamples {
            throw RecordingError(
                path: reader.path, kind: .invalidArgument,
                message: "|a| averages \(fixed(mean, 2)) m/s² over the first \(early.count) "
                    + "samples: the recording already holds gravity, and '--add-gravity' would add it twice (leave it out; "
                    + "Sensor Logger's Accelerometer.csv, gravity taken out, is told by its name whatever its first samples: "
                    + "keep a name ending in 'Accelerometer', such as run1_Accelerometer.csv)")
        }
    }
}
