import FoundationEssentials
import ShakeDetection
import ShakeRecording

/// The options that choose a detector configuration, shared by `replay`, `evaluate` and `live`.
enum DetectorOptions {
    static let specs: [OptionSpec] = [
        .option("config", value: "file",
                help: "Detector configuration as JSON (as written by 'shake tune'; - reads standard input); keys left out "
                    + "take the medium preset's values."),
        .option("preset", value: "name", help: presetHelp,
                values: ShakeConfiguration.presetNames, default: "medium"),
    ]

    /// `--detector shakekit|seismic`, for `replay`, `evaluate` and `plot`.
    static let detectorSpec = OptionSpec.option(
        "detector", value: "name",
        help: "Detector: ShakeKit's, or the Seismic baseline (3/4 of samples with |a| above 11/13/15 m/s² "
            + "for light/medium/hard in a 0.5 s window; takes --preset, not --config).",
        values: ["shakekit", "seismic"], default: "shakekit")

    /// What the presets differ in, from their values: light (gentle shakes count), medium, hard
    /// (only vigorous shakes).
    static var presetHelp: String {
        func values(_ c: ShakeConfiguration, units: Bool) -> String {
            let unit = units ? " m/s²" : ""
            return "onset \(TuneCommand.number(c.onsetAcceleration))\(unit), release "
                + "\(TuneCommand.number(c.releaseAcceleration)), strokes of \(TuneCommand.number(c.ongoingMotionPeakAcceleration)) "
                + "while walking"
        }
        return "Sensitivity preset, when no --config is given: light (gentle shakes count: \(values(.light, units: true))), "
            + "medium (\(values(.medium, units: false))) or hard (only vigorous shakes: \(values(.hard, units: false))); "
            + "the rest is the same ('shake config --preset NAME' prints all of it)."
    }

    /// For an unknown option that names a detector parameter (`--onset`, `--quietSeconds=0.3`,
    /// `--minimum-half-waves`: a configuration key, or the start of only one, in any case, with
    /// or without dashes), where that parameter is set instead; nil for any other option.
    /// `tuning`: the command is `tune`, which also holds or limits a parameter with `--range`.
    static func parameterHint(forOption option: String, tuning: Bool) -> String? {
        let word = option.drop { $0 == "-" }.filter { $0 != "-" && $0 != "_" }.lowercased()
        guard word.count >= 4 else { return nil }
        let keys = ConfigCommand.values(.medium).keys.sorted()
        let startingSo = keys.filter { $0.lowercased().hasPrefix(word) }
        guard let key = keys.first(where: { $0.lowercased() == word }) ?? (startingSo.count == 1 ? startingSo[0] : nil)
        else { return nil }
        let unit = TuneCommand.unit(of: key)
        let named = unit.isEmpty ? key : "\(key) (\(unit))"
        guard tuning else {
            return "\(named) is a detector parameter, set in a configuration file given with --config "
                + "('shake config --preset medium -o my.json' writes one to edit)"
        }
        guard ParameterAxis.standard.contains(where: { $0.isNamed(key) }) else {
            return "\(named) is a detector parameter, set in the base configuration given with --config (tune does not search it)"
        }
        return "\(named) is a detector parameter: hold it with --range \(key)=VALUE, limit it with --range "
            + "\(key)=LOW..HIGH, or set it in the base configuration given with --config"
    }

    /// The detector chosen by `--detector` with its `--preset` or `--config`.
    static func detector(_ arguments: ParsedArguments) throws -> SelectedDetector {
        guard arguments.value("detector") == "seismic" else {
            return .shakeKit(ShakeDetector(configuration: try configuration(arguments)))
        }
        if arguments.value("config") != nil {
            throw UsageError("'--config' configures ShakeKit's detector; the seismic detector takes only '--preset'")
        }
        let name = arguments.value("preset") ?? "medium"
        return .seismic(SeismicDetector(
            thresholdMetersPerSecondSquared: SeismicDetector.threshold(preset: name) ?? SeismicDetector.mediumThreshold))
    }

    /// `--spread-batches`, for `replay`, `evaluate`, `tune`, `plot` and `convert`.
    static let spreadBatchesSpec = OptionSpec.flag(
        "spread-batches",
        help: "Give each sample of a FIFO batch its own time when the samples come in batches (a batch stamped with "
            + "one time, or its samples microseconds apart as read out), as BatchTimeSpreader does in a program: "
            + "each sample after a batch's first gets the time before it plus 0.98 of the sample period, measured "
            + "over the last 8 batches (events come up to a batch later; labels are scored at the same times, as "
            + "'shake convert --spread-batches' writes them). Other recordings are read as they are.")

    static let formatSpec = OptionSpec.option(
        "format", value: "format", help: "Output format.", values: ["text", "json"], default: "text")

    /// Which configuration `configuration(_:)` chose, in words: `the medium preset`,
    /// `the configuration in tuned.json` (`... from standard input` for `-`).
    static func configurationSource(_ arguments: ParsedArguments) -> String {
        if let path = arguments.value("config") {
            return path == "-" ? "the configuration from standard input" : "the configuration in \(path)"
        }
        return "the \(arguments.value("preset") ?? "medium") preset"
    }

    /// The configuration chosen by `--config` or `--preset` (default: medium).
    static func configuration(_ arguments: ParsedArguments) throws -> ShakeConfiguration {
        if arguments.value("config") != nil && arguments.value("preset") != nil {
            throw UsageError("Use either '--config' or '--preset', not both")
        }
        if let path = arguments.value("config") {
            if path == "-" && arguments.positionals.contains("-") {
                throw UsageError("'--config -' and the recording '-' cannot both be read from standard input: "
                    + "give the configuration as a file (or as <(...) in the shell)")
            }
            // Validated: the detector assumes a valid configuration.
            do {
                return try ConfigurationFile.load(path: path)
            } catch {
                throw CommandFailure(
                    "\(error)", exitStatus: error.kind == .unreadable ? ExitStatus.noInput : ExitStatus.dataError)
            }
        }
        let name = arguments.value("preset") ?? "medium"
        // The parser has already checked the name against the preset list.
        return ShakeConfiguration.preset(named: name) ?? .default
    }
}

/// Which detector a JSON report's figures come from, so that a saved report says how it was
/// made: `"detector": "shakekit"` with the whole `"configuration"` (every key, as --config reads
/// it), or `"detector": "seismic"` with `"seismic_threshold_m_s2"`.
struct DetectorReport: Encodable {
    var selected: SelectedDetector

    enum CodingKeys: String, CodingKey {
        case detector, configuration
        case seismicThreshold = "seismic_threshold_m_s2"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch selected {
        case .shakeKit(let detector):
            try container.encode("shakekit", forKey: .detector)
            try container.encode(detector.configuration, forKey: .configuration)
        case .seismic(let detector):
            try container.encode("seismic", forKey: .detector)
            try container.encode(detector.thresholdMetersPerSecondSquared, forKey: .seismicThreshold)
        }
    }
}

/// The detector `replay` and `evaluate` run: ShakeKit's or the Seismic baseline.
///
/// Not itself a `ShakeDetecting`: switching per sample would copy the detector's state twice per
/// sample. `replay` picks the concrete detector once and streams the whole file through it.
enum SelectedDetector: Sendable {
    case shakeKit(ShakeDetector)
    case seismic(SeismicDetector)

    /// The events of a fresh copy of this detector over `samples`, and the cancellation of a
    /// shake still in progress at the last sample.
    func events(_ samples: [Sample]) -> [ShakeEvent] {
        switch self {
        case .shakeKit(var detector): return Self.events(samples, &detector)
        case .seismic(var detector): return Self.events(samples, &detector)
        }
    }

    private static func events<D: ShakeDetecting>(_ samples: [Sample], _ detector: inout D) -> [ShakeEvent] {
        var events = samples.compactMap { detector.process($0) }
        if let last = samples.last, let event = detector.interrupt(at: last.time) { events.append(event) }
        return events
    }

    /// Streams `path` through a fresh copy of this detector (parsing on a thread of its own with
    /// `readAhead`: see `RecordingReplay.run`). Gaps are counted over ShakeKit's
    /// `maximumGapSeconds` (the presets' 0.5 s for the seismic rule, which has none).
    ///
    /// With `spreadingBatches`, the samples go through a `BatchTimeSpreader` first (events carry
    /// the spread times), and `spreadSamples` is how many times it moved; nil without.
    func replay(
        path: String, options: CSVImportOptions, readAhead: Bool = false, spreadingBatches: Bool = false
    ) throws -> (result: RecordingReplay.Result, spreadSamples: Int?) {
        switch self {
        case .shakeKit(var detector):
            if spreadingBatches {
                var spreading = BatchSpreadingDetector(detector)
                let result = try RecordingReplay.run(path: path, options: options, detector: &spreading, readAhead: readAhead)
                return (result, spreading.spreader.spreadSamples)
            }
            return (try RecordingReplay.run(path: path, options: options, detector: &detector, readAhead: readAhead), nil)
        case .seismic(var detector):
            if spreadingBatches {
                var spreading = BatchSpreadingDetector(detector)
                let result = try RecordingReplay.run(path: path, options: options, detector: &spreading, readAhead: readAhead)
                return (result, spreading.spreader.spreadSamples)
            }
            return (try RecordingReplay.run(path: path, options: options, detector: &detector, readAhead: readAhead), nil)
        }
    }
}

/// Whether `--format json` was given.
func wantsJSON(_ arguments: ParsedArguments) -> Bool { arguments.value("format") == "json" }

/// JSON text of `value`: keys sorted, one line per key (pretty), ending in a newline.
func jsonText<T: Encodable>(_ value: T) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Encoding plain structs of numbers and strings cannot fail.
    let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self) + "\n"
}

/// `value` with a fixed number of decimals (as `printf("%.*f")`, which `String(format:)` gave),
/// or "-" for nil.
func fixed(_ value: Double?, _ decimals: Int) -> String {
    guard let value else { return "-" }
    return FixedDecimals.format(value, decimals: decimals)
}

/// `label`'s 95 % confidence intervals as one line (`shake evaluate` under its table, `shake tune`
/// under its summary), or nothing when there is neither a labelled shake nor negative time.
func confidenceLine(_ label: String, _ summary: EvaluationSummary) -> String {
    let intervals = summary.intervals
    var parts: [String] = []
    if let recall = intervals.recall {
        parts.append("recall \(fixed(recall.lowerBound, 3)) to \(fixed(recall.upperBound, 3)) "
                     + "(\(summary.detected) of \(summary.shakes) shakes, Wilson score)")
    }
    if let rate = intervals.falsePerHour {
        // Named as the tables' column, so that grepping `evaluate --list` for "false shake" finds
        // the listing only.
        parts.append("false/h \(fixed(rate.lowerBound, 1)) to \(fixed(rate.upperBound, 1)) "
                     + "(\(summary.falseShakes) in \(fixed(summary.negativeHours, 3)) h, exact Poisson)")
    }
    guard !parts.isEmpty else { return "" }
    return label + ", 95 % confidence: " + parts.joined(separator: "; ") + "\n"
}

/// `value` in the shortest form that reads back as the same number (`100`, `0.05`).
func shortestDecimal(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}

/// Maps a failure writing a recording to the error the CLI reports, with exit status 73
/// (`Error: file: message`, as for recordings read, not `Error: file: error: message`).
func outputFailure(_ error: any Error) -> CommandFailure {
    var failure = recordingFailure(error)
    failure.exitStatus = ExitStatus.cannotCreate
    return failure
}

/// Maps a failure reading a recording to the error and exit status the CLI reports.
func recordingFailure(_ error: any Error) -> CommandFailure {
    if let failure = error as? CommandFailure { return failure }
    guard let error = error as? RecordingError else {
        return CommandFailure("\(error)", exitStatus: ExitStatus.failure)
    }
    // `Error: file:line:column: message` (the tool already says it is an error).
    var text = OutputFile.text(error)
    if error.kind == .io { text += notUTF8NameNote(error.path) }
    switch error.kind {
    case .io, .isDirectory: return CommandFailure(text, exitStatus: ExitStatus.noInput)
    case .fileExists: return CommandFailure(text, exitStatus: ExitStatus.cannotCreate)
    default: return CommandFailure(text, exitStatus: ExitStatus.dataError)
    }
}

/// Why a file named on the command line is not found when its name was not UTF-8: such a name
/// (Latin-1, say) reaches the tool with U+FFFD in place of those bytes (Swift's command-line
/// arguments are text). Empty for other paths.
func notUTF8NameNote(_ path: String) -> String {
    guard path.contains("\u{FFFD}"), !FileManager.default.fileExists(atPath: path) else { return "" }
    return " (the name holds \u{FFFD}, which stands for bytes that are not UTF-8: shake opens files by UTF-8 "
        + "names only; rename the file, e.g. with convmv -f latin1 -t utf8, or give it as '-' on standard input)"
}
