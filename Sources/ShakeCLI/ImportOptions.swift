import ShakeDetection
import ShakeRecording

/// Options for reading foreign CSV exports, shared by every command that reads recordings.
enum ImportOptions {
    static let specs: [OptionSpec] = [
        .option("separator", value: "sep", help: "Field separator; auto picks the most frequent of comma, semicolon and tab in the header, else pipe (|) if it has one.",
                values: ["auto", "comma", "semicolon", "tab", "pipe"], canonical: separatorName, default: "auto"),
        .flag("decimal-comma", help: "Numbers use a decimal comma (3,14), as in some European exports."),
        .option("units", value: "unit", help: "Acceleration unit of the file; converted to m/s². Default: the header's unit, else m/s^2 (another unit than the header's is an error; a header unit not known here is taken to be this one).",
                values: ["m/s^2", "g", "mg"], canonical: { CSVImportOptions.AccelerationUnit(argument: $0)?.rawValue }),
        .option("time-units", value: "unit", help: "Time unit of the file; converted to seconds. Default: the header's unit, else s (another unit than the header's is an error; a header unit not known here is taken to be this one).",
                values: ["s", "ms", "us", "ns"], canonical: { CSVImportOptions.TimeUnit(argument: $0)?.rawValue }),
        .flag("rebase-time", help: "Shift times so the first sample is at 0 s (for epoch or boot-time stamps)."),
        .option("time-column", value: "name|n", help: "Column holding time: a header name or a 1-based position."),
        .option("x-column", value: "name|n", help: "Column holding x acceleration."),
        .option("y-column", value: "name|n", help: "Column holding y acceleration."),
        .option("z-column", value: "name|n", help: "Column holding z acceleration."),
        .option("label-column", value: "name|n", help: "Column holding the 0/1 shake label. Default: a column named 'shake' or 'label'."),
        .flag("ignore-labels", help: "Read the file without shake labels (a 'label' column of an export's activity names, say)."),
        .flag("no-header", help: "The file has no header row: columns are time, x, y, z unless given."),
        .flag("skip-rows-without-acceleration",
              help: "Skip rows whose x, y and z are all empty (other sensors' rows in a merged export, as edge-ml writes); their shake labels go with them."),
    ]

    /// For `evaluate` and `tune`, which score the labels: `--ignore-labels` would read every file
    /// as unlabelled and fail on the first as having no 'shake' column, blaming the file.
    static func checkLabelsAreRead(_ arguments: ParsedArguments, command: String) throws(UsageError) {
        guard arguments.flag("ignore-labels") else { return }
        throw UsageError("'--ignore-labels' reads recordings without their shake labels, which \(command) scores against: "
            + "leave it out (for a 'label' column of activity names, name the 0/1 column with --label-column)")
    }

    /// For times given on the command line (`--shakes`, `--from`, `--to`) that miss a recording
    /// read without `--rebase-time` whose samples run from `first` to `last` s, far from 0 (an
    /// export stamped with epoch or boot times): when they lie within its length from 0, as
    /// times from its first sample do, that --rebase-time counts them so; else empty. Times
    /// are written with `decimals`, or as the shortest decimal of the microseconds when nil.
    static func rebaseTimeNote(times: [Double], first: Double?, last: Double?, decimals: Int?) -> String {
        guard let first, let last, !times.isEmpty else { return "" }
        let length = last - first
        guard first > length, times.allSatisfy({ $0 >= 0 && $0 <= length * 1.5 + 1 }) else { return "" }
        // The length of an epoch-stamped recording carries the subtraction's error (23.829999923706055):
        // to the microsecond, as recordings keep time.
        let text = { (value: Double) in decimals.map { fixed(value, $0) } ?? shortestDecimal((value * 1e6).rounded() / 1e6) }
        return "; for times from the first sample, pass --rebase-time (the samples then run from \(text(0)) to \(text(length)) s)"
    }

    /// The listed name of a separator given as the reader spells it (`;` for `semicolon`).
    @Sendable static func separatorName(_ text: String) -> String? {
        switch CSVImportOptions.Separator(argument: text) {
        case .auto?: "auto"
        case .comma?: "comma"
        case .semicolon?: "semicolon"
        case .tab?: "tab"
        case .pipe?: "pipe"
        case nil: nil
        }
    }

    static let discussion = """
        Recordings are CSV: optional '# key: value' lines, a header, one row per sample. Header \
        names match case-insensitively, ignoring quotes and a unit in parentheses, so exports of \
        phyphox, Sensor Logger, Physics Toolbox, AndroSensor, SensorLog (iOS) and MATLAB Mobile load \
        as they are or with a flag or two: --units g for values in g; --time-units ns --rebase-time for \
        nanosecond stamps (Android's SensorEvent dumps, timestamp,values[0],values[1],values[2], count \
        from the phone's start); --time-units ms for Science Journal; --decimal-comma (with ';', tab or \
        '|' separators) for decimal commas; edge-ml's with --skip-rows-without-acceleration --time-units ms \
        --rebase-time. Errors name the flag a file needs. Use an export whose acceleration includes gravity: Sensor Logger's \
        TotalAcceleration.csv (on iOS, which writes none, 'shake convert Accelerometer.csv \
        --add-gravity Gravity.csv -o OUT' makes one; \
        Accelerometer.csv alone has gravity taken out, and Gyroscope.csv, Magnetometer.csv and \
        Gravity.csv are refused), phyphox's "Acceleration with g", Physics \
        Toolbox's g-Force Meter (of its multi-record file the gFx columns are read). Times are numbers, or dates and clock times (2024-01-31 13:05:10.25, \
        31-Jan-2024 13:05:10.250, 13:05:10.25, 13:05:10:250, 05:10.25; read as seconds since the \
        first row's midnight, or hour). CRLF line ends, a \
        UTF-8 byte-order mark, blank lines, lines starting with # (comments, anywhere), Excel's \
        'sep=;' line before the header (it sets the separator) and repeated timestamps are accepted; anything else \
        unexpected is an error naming the file, line and column. Recordings sampled more than \
        10 % slower than 25 Hz, the slowest rate the detector is made for, are flagged by \
        replay (on the file's line), evaluate and tune (a warning on stderr). Recordings whose |a| \
        averages under 4.9 m/s² over their first 64 samples (gravity alone gives 9.8) look like \
        acceleration with gravity taken out, in which the detector misses shakes: replay, \
        evaluate, tune, plot and convert warn on stderr; Sensor Logger's Accelerometer.csv, told by its \
        header and name, gets the warning whatever its values.
        """

    /// The warning for a recording at `path` whose acceleration looks like it has gravity taken
    /// out (`EarlyMagnitude.looksGravityFree`), with its line end; nil for any other. Its |a| is
    /// named when it says so; an export told by its header and name alone (Sensor Logger's
    /// Accelerometer.csv beginning with a shake, whose |a| is a shake's) is named as that export.
    static func gravityFreeWarning(path: String, _ early: EarlyMagnitude) -> String? {
        guard early.looksGravityFree else { return nil }
        let advice = "in which the detector misses shakes; use the export with gravity (Sensor Logger: TotalAcceleration.csv, "
            + "or on iOS 'shake convert Accelerometer.csv --add-gravity Gravity.csv'; phyphox: Acceleration with g; "
            + "Physics Toolbox: g-Force Meter)"
        if early.meanLooksGravityFree, let mean = early.mean {
            return "Warning: \(RecordingError.displayName(ofPath: path)): |a| averages \(fixed(mean, 2)) m/s² over the first "
                + "\(early.count) samples, where gravity alone gives "
                + "\(fixed(standardGravity, 1)) m/s²: the acceleration looks like it has gravity taken out (a linear "
                + "accelerometer's export, such as Sensor Logger's Accelerometer.csv), \(advice), or pass --units g if the "
                + "values are in g\n"
        }
        guard let export = early.gravityFreeExport else { return nil }
        return "Warning: \(RecordingError.displayName(ofPath: path)): its header and name are those of \(export), whose "
            + "acceleration has gravity taken out, \(advice)\n"
    }

    /// The import options the flags ask for.
    /// - Throws: `UsageError` for a column given as a number under 1 (positions count from 1).
    static func options(_ arguments: ParsedArguments) throws(UsageError) -> CSVImportOptions {
        for name in ["time-column", "x-column", "y-column", "z-column", "label-column"] {
            if let text = arguments.value(name), let position = Int(text), position < 1 {
                throw UsageError("'--\(name)' \(text): column positions count from 1 (or give the header name)")
            }
        }
        var options = CSVImportOptions.canonical
        // The parser has already checked every value against the lists above.
        if let text = arguments.value("separator"), let separator = CSVImportOptions.Separator(argument: text) {
            options.separator = separator
        }
        if arguments.flag("decimal-comma") { options.decimalSeparator = .comma }
        if let text = arguments.value("units") { options.accelerationUnit = .init(argument: text) }
        if let text = arguments.value("time-units") { options.timeUnit = .init(argument: text) }
        options.rebasesTime = arguments.flag("rebase-time")
        options.hasHeader = !arguments.flag("no-header")
        options.skipsRowsWithoutAcceleration = arguments.flag("skip-rows-without-acceleration")
        options.time = arguments.value("time-column").map(CSVImportOptions.Column.init(argument:))
        options.x = arguments.value("x-column").map(CSVImportOptions.Column.init(argument:))
        options.y = arguments.value("y-column").map(CSVImportOptions.Column.init(argument:))
        options.z = arguments.value("z-column").map(CSVImportOptions.Column.init(argument:))
        options.label = arguments.value("label-column").map(CSVImportOptions.Column.init(argument:))
        options.ignoresLabels = arguments.flag("ignore-labels")
        if options.decimalSeparator == .comma && options.separator == .comma {
            throw UsageError("'--decimal-comma' needs '--separator semicolon', 'tab' or 'pipe' (or none, to detect it), not 'comma'")
        }
        if !options.hasHeader {
            for name in ["time-column", "x-column", "y-column", "z-column", "label-column"] {
                if let text = arguments.value(name), case .named = CSVImportOptions.Column(argument: text) {
                    throw UsageError("'--\(name) \(text)' chooses a column by name, but --no-header is given: choose it by "
                        + "its position (1 for the first)")
                }
            }
        }
        if options.ignoresLabels && options.label != nil {
            throw UsageError("'--ignore-labels' and '--label-column' contradict each other: leave one out")
        }
        return options
    }
}
