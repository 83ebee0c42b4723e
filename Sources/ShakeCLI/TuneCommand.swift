import Dispatch
import FoundationEssentials
import ShakeDetection
import ShakeRecording
import Synchronization

/// `shake tune PATH...`: searches detector configurations on labelled recordings.
enum TuneCommand: ShakeCommand {
    static let spec = CommandSpec(
        name: "tune",
        abstract: "Find the detector configuration with the best recall within a false-shake budget.",
        discussion: """
            Each PATH is a labelled CSV recording or a folder of them: a 'shake' column, 1 during \
            each deliberate shake and 0 elsewhere ('shake convert FILE --shakes 3.2-4.5,10-11.25 -o \
            OUT' labels a recording of your own). Give it both the shakes your device should answer \
            and the motion it should not (walking, carrying, handling: hours of it, for a budget of \
            under one false shake per hour to be measured). Every file is read once into memory, \
            and each is replayed some 800 times: on dev (17 recordings, 0.7 h, 50 to 400 Hz) a run \
            takes about 4 s on 2 processors (measured 2026-12-04), and the time grows with the samples; progress, with \
            the time left, goes to stderr. Then ship the -o file: it is what --config reads. An \
            output that cannot be written once the search is done (its folder removed meanwhile) \
            costs neither the figures nor the other output: the error naming it follows them, \
            with exit 73.

            The search tries a coarse grid over the onset threshold, release fraction, \
            reversal interval, half-wave count, linearity limit and gravity time constant, then \
            refines the best few points one parameter at a time (also the reversal angle, \
            shortest reversal interval, interval ratio, linearity time constant, quiet time and \
            refractory period), and the base's own value of each (where a --range holds it); --range \
            limits any of them to some values or holds it at one. \
            Objective: the highest recall whose false shakes per hour stay within --max-false-per-hour and that fires no duplicates; ties go to fewer false \
            shakes (a budget raised to see what is possible buys recall, not speed paid for in false \
            shakes), then to the lower median latency (in steps of 50 ms), then to the configuration \
            closest to the base: the medium \
            preset, or the configuration --config gives (a product's sensor range, say: the values \
            not searched are the base's). \
            The result is the same for the same inputs, whatever --jobs is.

            Reported: the in-sample figures (optimistic: tuned and scored on the same data); \
            cross-validated figures: each recording group (the file name up to its first '_', e.g. \
            wiimote, microbit, oxford) is held out in turn (k-fold by file when there are fewer \
            than 3 groups), a configuration is tuned without it and scored on it, and the held-out \
            counts are pooled; the base's figures on all recordings (not tuned, so as honest as \
            held-out ones: tuned values that do worse held out than the base are fitted to these \
            recordings); and the trade-off curve: the best recall within \
            each budget of 0, 0.5, 1, 2, 5 and 10 false shakes per hour (in sample). In text, under \
            the figures, the 95 % confidence intervals of the cross-validated recall and false \
            shakes per hour (in-sample when there is no cross-validation), as 'shake evaluate' \
            gives them: a few shakes prove little, whatever the score. Then a WARNING line for \
            each of: values no configuration could have (the base's other values rule them out, \
            and the checks of 'shake config' refuse them: left out of the search); \
            cross-validated figures over the budget (when the in-sample ones meet it); no \
            labelled shake at all (recall \
            cannot be measured); too little time labelled shake=0 \
            for the budget to be measured (one false shake in it is more than the budget); a \
            fold tuned on recordings with no shakes or no shake=0 time.

            With --format json, one object: 'configuration' (the chosen configuration, every key as \
            --config reads it; -o writes the same), 'tuned_parameters' (the names of the parameters \
            searched, as the text lists them), 'searched_values' (each one's values tried: as --range left \
            them, with the base's own, less those the base ruled out), 'reference_configuration' (the base: the \
            values of the parameters not searched, and what ties lean toward), 'reference_in_sample' \
            (the base's figures on all recordings, not tuned: what the cross-validated figures \
            should beat), 'max_false_per_hour' \
            (the budget, --max-false-per-hour), 'met_budget' (false when no configuration tried \
            met it: the chosen one then has the fewest false shakes and duplicates), 'in_sample' \
            (the chosen configuration's figures on all recordings, keys as in 'shake evaluate': \
            shakes, detected, recall, duplicates, false_shakes, negative_hours, false_per_hour, \
            precision, f1, latency_median_s, latency_p95_s), 'cross_validation' (left out with one \
            recording: 'method', 'folds' ([{name, held_out_files, configuration, met_budget, \
            training, held_out}], each fold's configuration with its figures on the files it was \
            tuned on and on those held out), 'pooled' (the held-out figures added up) and 'met_budget' \
            (whether the pooled figures stay within the budget)), \
            'tradeoff' ([{max_false_per_hour, met_budget, summary, configuration}], one per budget), \
            'configurations_evaluated' (configurations replayed), 'recordings' and 'samples' (read), \
            'search_seconds' (the search's wall-clock time, s), 'jobs' (replays run at once) and \
            'warnings' (the text's WARNING lines: no configuration meeting the budget, held-out figures \
            over the budget, no labelled shake, \
            too little time labelled shake=0 for the budget to be measured, a fold tuned on no shakes).

            """ + "\n" + ImportOptions.discussion,
        arguments: [ArgumentSpec("path", help: "Labelled recordings or folders of them (- reads standard input).", variadic: true)],
        options: [
            .option("config", value: "file",
                    help: "Base configuration as JSON (keys left out take the medium preset's values): the values not "
                        + "searched come from it, ties lean toward it, and its untuned figures are the first row. "
                        + "Default: the medium preset."),
            .option("range", value: "key=low..high",
                    help: "Search only these values of a parameter: those tune tries that lie from low to high "
                        + "(onsetAcceleration=12..16: a product that must not fire on gentle motion), or one value "
                        + "to hold it there (minimumHalfWaves=4). Keys as the text lists them (the release fraction: "
                        + "releaseAcceleration/onsetAcceleration); repeat for others.",
                    repeats: true),
            .option("max-false-per-hour", value: "rate",
                    help: "False shakes per hour of shake=0 time the chosen configuration may fire.",
                    default: "0.5"),
            .option("output", short: "o", value: "file",
                    help: "Write the chosen configuration as JSON (for --config of replay, evaluate, live)."),
            .option("report", value: "file",
                    help: "Draw the trade-off curve as an SVG file: recall against false shakes per hour at each "
                        + "budget, the chosen configuration, its cross-validated figures and the base (medium) untuned. "
                        + "The axis follows the figures: a budget beyond twice the largest is named at its end, not "
                        + "drawn to scale."),
            .flag("force", help: "Overwrite existing --output and --report files."),
            .option("jobs", short: "j", value: "n", help: "Replays run at once.",
                    default: "active processor count"),
            DetectorOptions.formatSpec, DetectorOptions.spreadBatchesSpec,
        ] + ImportOptions.specs
    )

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        var options = TuningOptions()
        options.maximumFalsePerHour = try arguments.double("max-false-per-hour", range: 0...1_000_000) ?? 0.5
        options.jobs = try arguments.int("jobs", range: 1...1024) ?? options.jobs
        let force = arguments.flag("force")
        let output = arguments.value("output")
        let report = arguments.value("report")
        if let output, let report, OutputFile.namesSameFile(output, report) {
            throw UsageError("'--output' and '--report' name the same file ('\(output)', '\(report)')")
        }
        if let report { try OutputFile.checkSVGName(report, writer: "--report") }
        try ImportOptions.checkLabelsAreRead(arguments, command: "tune")
        let importOptions = try ImportOptions.options(arguments)
        let base: String
        if let path = arguments.value("config") {
            options.reference = try DetectorOptions.configuration(arguments)
            base = "base"
            if let output, path != "-", OutputFile.namesSameFile(output, path) {
                throw UsageError("'--output' would replace the base configuration '\(path)' (--config): give another file")
            }
            if let report { try OutputFile.checkNotTheConfiguration(report, flag: "report", arguments) }
        } else {
            base = "medium"
        }
        options.axes = try axes(arguments.values("range"), reference: options.reference)
        // Refuse before spending minutes on the search, and never write over a recording read.
        let files = try EvaluateCommand.recordingFiles(arguments.positionals)
        if let output { try OutputFile.checkNotAnInput(output, inputs: files, writing: "the configuration (-o)") }
        if let report { try OutputFile.checkNotAnInput(report, inputs: files, writing: "the trade-off plot (--report)") }
        for path in [output, report].compactMap({ $0 }) {
            try OutputFile.check(path, force: force)
        }
        do {
            try Tuner.checkSearchable(axes: options.axes, reference: options.reference)
        } catch {
            throw UsageError("'--range': \(error.message)")
        }
        let progress = ProgressDisplay(io: io, label: "tune")
        progress.note("reading \(files.count) recording\(files.count == 1 ? "" : "s")")
        var recordings = try load(files: files, options: importOptions, jobs: options.jobs)
        let spreading = arguments.flag("spread-batches")
        for index in recordings.indices {
            let recording = recordings[index]
            let gapLimit = ShakeConfiguration.medium.maximumGapSeconds
            // Spread once here: the spreader depends on the times alone, not on the configuration.
            let moved = spreading ? BunchedTimes.spread(recording.samples) : nil
            let repeats = BunchedTimes.repeatsPerTime(samples: recording.samples)
            // Shared times make the rate between new times look slow: the batch is the problem.
            if repeats == nil, let rate = SlowSampleRate.flagged(samples: recording.samples, gapLimit: gapLimit) {
                io.err(SlowSampleRate.fileWarning(recording.path, hertz: rate))
            }
            if let moved, moved.moved > 0 {
                recordings[index].samples = moved.samples
            } else if let warning = BunchedTimes.fileWarning(recording.path, samples: recording.samples, gapLimit: gapLimit,
                                                             hinting: !spreading) {
                io.err(warning)
            }
            if let warning = ImportOptions.gravityFreeWarning(path: recording.path, EarlyMagnitude(recording.samples)) {
                io.err(warning)
            }
        }

        let started = ContinuousClock.now
        var tuner = Tuner(recordings: recordings, options: options)
        let result: TuningResult
        do {
            result = try tuner.run { progress.update($0) }
        } catch {
            // Checked above (`checkSearchable`, and `load` refuses no recordings): not reached.
            throw UsageError("'--range': \(error.message)")
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        progress.finish("searched \(result.configurationsEvaluated) configurations in \(fixed(seconds, 1)) s")

        // Outputs that cannot be written now (a folder removed during the search) cost neither the
        // figures, printed as ever, nor the other output: each failure is said after them (exit 73).
        var written: [String] = []
        var failures: [(failure: CommandFailure, what: String)] = []
        // Held back: a signal while a file is given its name would leave its temporary file.
        withSignalsDeferred {
            if let output {
                do {
                    try ConfigurationFile.save(result.configuration, to: output, overwrite: force)
                    written.append(output)
                    // Written as asked, but never as if it met the budget: said on the line that names it.
                    progress.note("wrote \(output) (load it with --config)" + (result.metBudget ? ""
                        : "; it does NOT meet the budget of \(number(result.maximumFalsePerHour)) false shakes per hour (the text's "
                            + "WARNING says what it fires)"))
                } catch {
                    failures.append((OutputFile.writeFailure(error), "the configuration (-o)"))
                }
            }
            if let report {
                var plot = TradeoffPlot(result: result, title: "shake tune: recall and false shakes per hour")
                plot.referenceName = base
                do {
                    try PlotFile.write(plot.svg(), to: report, overwrite: force)
                    written.append(report)
                    progress.note("wrote \(report)")
                } catch {
                    failures.append((OutputFile.writeFailure(error), "the trade-off plot (--report)"))
                }
            }
        }
        if wantsJSON(arguments) {
            io.out(jsonText(JSONReport(result: result, axes: options.axes, reference: options.reference, base: base,
                                       seconds: seconds, jobs: options.jobs)))
        } else {
            io.out(text(result, axes: options.axes, reference: options.reference, base: base,
                        basePath: arguments.value("config"), seconds: seconds, jobs: options.jobs))
        }
        guard !failures.isEmpty else { return ExitStatus.success }
        let kept = "the figures went to standard output" + (written.isEmpty ? "" : ", and " + written.joined(separator: " and ")
            + (written.count == 1 ? " was" : " were") + " written")
        for (index, item) in failures.enumerated() {
            var failure = item.failure
            failure.message += ": \(item.what) was not written (\(kept))"
            if index == failures.count - 1 { throw failure }
            io.err("Error: \(failure.message)\n")
        }
        return ExitStatus.success
    }

    /// The axes to search: the standard ones, each `--range KEY=LOW..HIGH` keeping only its values
    /// from LOW to HIGH, each `--range KEY=VALUE` holding its parameter at VALUE. The base's own
    /// value of a searched parameter is among its values (where a range holds it), so that a
    /// base set off the standard values (a release of 4 m/s²) is kept on a tie, as the objective
    /// says, rather than moved to the nearest value tried.
    static func axes(_ ranges: [String], reference: ShakeConfiguration) throws(UsageError) -> [ParameterAxis] {
        var (axes, restrictedTo) = try searchedAxes(ranges, reference: reference)
        for (index, axis) in axes.enumerated() where axis.values.count > 1 {
            let own = axis.value(in: reference)
            guard own.isFinite, !axis.values.contains(own), restrictedTo[axis.name].map({ $0.contains(own) }) ?? true else { continue }
            axes[index] = ParameterAxis(axis.name, axis.field, values: axis.values + [own],
                                        coarse: axis.coarseIndices.map { axis.values[$0] })
        }
        return axes
    }

    /// The axes as `--range` leaves them, and the LOW...HIGH of each it restricted.
    static func searchedAxes(_ ranges: [String], reference: ShakeConfiguration) throws(UsageError)
        -> (axes: [ParameterAxis], bounds: [String: ClosedRange<Double>]) {
        var axes = ParameterAxis.standard
        var restrictedTo: [String: ClosedRange<Double>] = [:]
        var named: Set<String> = []
        let keys = axes.map(\.name).joined(separator: ", ")
        for range in ranges {
            let parts = range.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
            guard parts.count == 2, !parts[0].isEmpty else {
                throw UsageError("'--range' takes KEY=LOW..HIGH or KEY=VALUE (onsetAcceleration=12..16), not '\(range)'")
            }
            let (key, bounds) = (parts[0], parts[1])
            guard let index = axes.firstIndex(where: { $0.isNamed(key) }) else {
                if ConfigCommand.values(reference).keys.contains(key) {
                    throw UsageError("'--range': tune does not search \(key); it keeps the base's value (set it with "
                        + "--config). It searches: \(keys)")
                }
                throw UsageError("'--range': no parameter '\(key)'\(closestAxisNote(key, axes)); tune searches: \(keys)")
            }
            let axis = axes[index]
            guard named.insert(axis.name).inserted else { throw UsageError("'--range' names \(axis.name) twice") }
            func value(_ text: String) throws(UsageError) -> Double {
                guard let number = Double(text), number.isFinite else {
                    var message = "'--range \(range)': '\(text)' is not a number"
                    if let number = ParsedArguments.numberBeforeUnit(text) {
                        message += ": give it without its unit (\(number))"
                    } else if let dash = text.dropFirst().firstIndex(of: "-"),
                              let low = Double(text[..<dash]), let high = Double(text[text.index(after: dash)...]),
                              low.isFinite, high.isFinite {
                        message += ": write a range as LOW..HIGH (\(text[..<dash])..\(text[text.index(after: dash)...]))"
                    }
                    throw UsageError(message)
                }
                if case .whole = axis.field, number != number.rounded() {
                    throw UsageError("'--range \(range)': \(axis.name) is a count: give whole numbers")
                }
                return number
            }
            let ends = bounds.components(separatedBy: "..")
            switch ends.count {
            case 1:
                axes[index] = axis.fixed(at: try value(ends[0]))
            case 2:
                let low = try value(ends[0]), high = try value(ends[1])
                guard low <= high else {
                    throw UsageError("'--range \(range)' is empty: \(number(low)) is above \(number(high))")
                }
                guard let kept = axis.restricted(to: low...high, preferred: axis.value(in: reference)) else {
                    throw UsageError("'--range \(range)' holds none of the values tune tries for \(axis.name) ("
                        + axis.values.map(number).joined(separator: ", ") + "): widen it, or give one value ("
                        + "\(axis.name)=\(number(low))) to hold it there")
                }
                axes[index] = kept
                restrictedTo[axis.name] = low...high
            default:
                throw UsageError("'--range' takes KEY=LOW..HIGH or KEY=VALUE (onsetAcceleration=12..16), not '\(range)'")
            }
        }
        return (axes, restrictedTo)
    }

    /// For a `--range` key that names no parameter: the one it most likely means, as
    /// ` (did you mean 'onsetAcceleration'?)` (a misspelling, or the start of only one name);
    /// empty when none is close.
    static func closestAxisNote(_ key: String, _ axes: [ParameterAxis]) -> String {
        let word = key.lowercased()
        let names = axes.map(\.name).filter { !$0.contains("/") }
        let startingSo = names.filter { $0.lowercased().hasPrefix(word) }
        let closest = names.min { editDistance($0.lowercased(), word) < editDistance($1.lowercased(), word) }
        if startingSo.count == 1, word.count >= 4 { return " (did you mean '\(startingSo[0])'?)" }
        if let closest, editDistance(closest.lowercased(), word) <= max(2, word.count / 6) {
            return " (did you mean '\(closest)'?)"
        }
        return ""
    }

    /// Reads every file once, on `jobs` threads; the first failing file (in order) is reported.
    static func load(files: [String], options: CSVImportOptions, jobs: Int) throws -> [TuningRecording] {
        let results = Mutex<[Int: Result<TuningRecording, CommandFailure>]>([:])
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, files.count))) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                if index >= files.count { break }
                let outcome: Result<TuningRecording, CommandFailure>
                do {
                    outcome = .success(try TuningRecording.load(path: files[index], options: options))
                } catch let error as TuningError {
                    outcome = .failure(CommandFailure(error.message, exitStatus: ExitStatus.dataError))
                } catch {
                    outcome = .failure(recordingFailure(error))
                }
                results.withLock { $0[index] = outcome }
            }
        }
        return try results.withLock { all in try files.indices.map { try all[$0]!.get() } }
    }

    // MARK: Output

    struct JSONReport: Encodable {
        var result: TuningResult
        var tuned: [String]
        var searched: [String: [Double]]
        var reference: ShakeConfiguration
        var seconds: Double
        var jobs: Int
        var warnings: [String]

        init(result: TuningResult, axes: [ParameterAxis], reference: ShakeConfiguration, base: String,
             seconds: Double, jobs: Int) {
            self.result = result
            warnings = TuneCommand.warnings(result, base: base, reference: reference, axes: axes)
            tuned = axes.map(\.name)
            // The values tried: those every configuration ruled out (by the base's other values)
            // were not, and a warning names them.
            let tried = result.valuesTried.count == axes.count ? result.valuesTried : axes.map(\.values)
            searched = Dictionary(uniqueKeysWithValues: zip(axes, tried).map { ($0.name, $1) })
            self.reference = reference
            self.seconds = (seconds * 10).rounded() / 10
            self.jobs = jobs
        }

        enum CodingKeys: String, CodingKey {
            case tuned = "tuned_parameters"
            case searched = "searched_values"
            case reference = "reference_configuration"
            case seconds = "search_seconds"
            case jobs, warnings
        }

        func encode(to encoder: any Encoder) throws {
            try result.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(tuned, forKey: .tuned)
            try container.encode(searched, forKey: .searched)
            try container.encode(reference, forKey: .reference)
            try container.encode(seconds, forKey: .seconds)
            try container.encode(jobs, forKey: .jobs)
            try container.encode(warnings, forKey: .warnings)
        }
    }

    /// `base` names the configuration not searched: "medium", or "base" (from `basePath`, --config).
    static func text(_ result: TuningResult, axes: [ParameterAxis], reference: ShakeConfiguration,
                     base: String = "medium", basePath: String? = nil, seconds: Double, jobs: Int) -> String {
        let hours = result.inSample.negativeHours
        var text = "Tuned on \(counted(result.recordings, "recording")) (\(counted(result.samples, "sample")), \(fixed(hours, 2)) h labelled "
            + "shake=0, \(result.inSample.shakes) labelled shakes).\n"
        text += "Searched \(result.configurationsEvaluated) configurations in \(fixed(seconds, 1)) s with \(jobs) "
            + "job\(jobs == 1 ? "" : "s").\n"
        text += "Objective: highest recall with false/h <= \(budgetText(result.maximumFalsePerHour)) and no duplicates; "
            + "ties: fewer false shakes, then lower median latency (50 ms steps), then closer to the \(baseLong(base)).\n"
        if let basePath { text += "Base: \(basePath) (--config): the values not searched are its own.\n" }
        // Restricted: some standard value left out (the base's own value may be added to any).
        let restricted = axes.filter { axis in
            !ParameterAxis.standard.contains { $0.name == axis.name && Set($0.values).isSubset(of: axis.values) }
        }
        if !restricted.isEmpty {
            text += "Searched only (--range): " + restricted.map { axis in
                let unit = unit(of: axis.name)
                return axis.name + " " + axis.values.map(number).joined(separator: ", ") + (unit.isEmpty ? "" : " " + unit)
            }.joined(separator: "; ") + ".\n"
        }
        text += "\nChosen configuration (tuned parameters; the rest as in \(base)):\n"
        let nameWidth = axes.map(\.name.count).max() ?? 0
        let unitWidth = axes.map { unit(of: $0.name).count }.max() ?? 0
        for axis in axes {
            let value = axis.value(in: result.configuration)
            let medium = axis.value(in: reference)
            let unit = unit(of: axis.name)
            var line = "  " + axis.name.padding(toLength: nameWidth) + "  " + number(value).leftPadded(7)
                + " " + unit.padding(toLength: unitWidth)
            if value != medium { line += "  (\(base): \(number(medium))\(unit.isEmpty ? "" : " " + unit))" }
            while line.hasSuffix(" ") { line.removeLast() }
            text += line + "\n"
        }
        text += "\n" + summaryTable([("\(base), not tuned", result.referenceSummary), ("in sample", result.inSample)]
            + (result.crossValidation.map { [("cross-validated", $0.pooled)] } ?? []))
        // How much the figures that matter (held out, where there are) can be trusted.
        if let pooled = result.crossValidation?.pooled {
            text += "  " + confidenceLine("cross-validated", pooled)
        } else {
            text += "  " + confidenceLine("in sample", result.inSample)
        }
        let warnings = warnings(result, base: base, reference: reference, axes: axes)
        if !warnings.isEmpty { text += "\n" + warnings.map { "WARNING: \($0)\n" }.joined() }
        if let validation = result.crossValidation {
            text += "\nCross-validation (\(validation.method), \(validation.folds.count) folds; each fold tuned "
                + "without its held-out files):\n"
            text += summaryTable(validation.folds.map { ("held out: " + $0.name, $0.heldOut) })
        } else {
            text += "\nCross-validation: skipped (needs at least 2 recordings).\n"
        }
        text += "\nTrade-off (in sample: best recall within each false-shake budget):\n"
        text += summaryTable(result.tradeoff.map {
            ("false/h <= " + budgetText($0.budget) + ($0.metBudget ? "" : " (not met)"), $0.summary)
        })
        return text
    }

    /// What makes the figures above less than they seem: held-out figures over the budget, too
    /// little shake-free time for the budget to be measured, folds tuned without shakes.
    /// `reference`: the base configuration (the preset, or --config's), to tell a choice that is
    /// the base's own; `axes`: those searched, to name the values no valid configuration had.
    static func warnings(_ result: TuningResult, base: String = "medium", reference: ShakeConfiguration? = nil,
                         axes: [ParameterAxis] = []) -> [String] {
        var warnings: [String] = []
        if result.valuesTried.count == axes.count {
            let untried = zip(axes, result.valuesTried).compactMap { axis, tried -> String? in
                let left = axis.values.filter { !tried.contains($0) }
                guard !left.isEmpty else { return nil }
                let unit = unit(of: axis.name)
                return axis.name + " " + left.map(number).joined(separator: ", ") + (unit.isEmpty ? "" : " " + unit)
            }
            if !untried.isEmpty {
                warnings.append("never tried, as every configuration with them that the search reached fails the checks "
                    + "of 'shake config' (the \(baseLong(base))'s other values rule them out): " + untried.joined(separator: "; "))
            }
        }
        if !result.metBudget {
            warnings.append("no configuration tried met the budget of \(number(result.maximumFalsePerHour)) false shakes "
                + "per hour; the one chosen has the fewest false shakes and duplicates")
        }
        let budget = result.maximumFalsePerHour
        let medium = result.referenceSummary
        let mediumMeetsBudget = medium.duplicates == 0
            && (medium.falseShakes == 0 || (medium.falsePerHour ?? .infinity) <= budget * (1 + 1e-12))
        // Held-out figures over the budget say the search fits what it is tuned on. When the
        // figures in sample are over it already, the warning above says all there is; when the
        // values chosen are the base's own, they were fitted to nothing, and only the advice to
        // record more holds (it had said to prefer the base: the configuration chosen).
        if let validation = result.crossValidation, !validation.metBudget, result.metBudget {
            let pooled = validation.pooled
            var broke = pooled.falsePerHour.map { "fire \(fixed($0, 2)) false shakes per hour" } ?? "fire false shakes"
            if pooled.duplicates > 0 { broke += " and \(counted(pooled.duplicates, "duplicate"))" }
            if reference == result.configuration {
                warnings.append("tuned in each fold without the recordings it holds out, the values chosen there \(broke) on those, "
                    + "over the budget of \(budgetText(budget)): so few recordings do not say which values hold for other motion. "
                    + "The configuration chosen here is the \(baseLong(base)) itself (the first row), not fitted to these "
                    + "recordings; record more of the motion that fires, in every group, before trusting a tuned one")
            } else {
                warnings.append("on recordings they were not tuned on, the chosen values \(broke), over the budget of "
                    + "\(budgetText(budget)): they fit these recordings more than motion in general. The \(baseLong(base)), "
                    + "not tuned on any of them, finds \(medium.detected) of \(medium.shakes) shakes with "
                    + "\(counted(medium.falseShakes, "false shake"))\(medium.duplicates > 0 ? " and \(counted(medium.duplicates, "duplicate"))" : "") (the first row)"
                    + (mediumMeetsBudget ? "; prefer it unless more recordings bear the tuned values out"
                        : ". Record more of the motion that fires, in every group, so that each fold is tuned on some"))
            }
        }
        let hours = result.inSample.negativeHours
        if result.inSample.shakes == 0 {
            warnings.append("no recording holds a labelled shake (shake=1), so recall cannot be measured: the search "
                + "only kept false shakes down, and the chosen values may miss every shake. Add recordings of the "
                + "shakes your device should answer, labelled ('shake convert FILE --shakes START-END,... -o OUT')")
        }
        if hours <= 0 {
            warnings.append("no time is labelled shake=0, so false shakes per hour cannot be measured and the "
                + "budget allows none: add recordings of motion without shakes (walking, carrying, handling)")
        } else if budget > 0 && 1 / hours > budget {
            warnings.append("the recordings hold \(fixed(hours, 2)) h labelled shake=0, so a single false shake is "
                + "\(fixed(1 / hours, 2)) per hour, over the budget of \(budgetText(budget)): the budget allows none. "
                + "For it to be measured, record at least \(fixed(1 / budget, 1)) h of motion without shakes")
        }
        for fold in result.crossValidation?.folds ?? [] {
            let missing = fold.training.shakes == 0 ? "no labelled shakes"
                : fold.training.negativeHours <= 0 ? "no time labelled shake=0" : nil
            guard let missing else { continue }
            let remedy = result.crossValidation?.method == "leave-one-group-out"
                ? "Folds hold out the files whose names share the part before the first '_': name the files so that "
                    + "each group mixes shakes and other motion"
                : "With fewer than 3 groups (the part of the file name before the first '_'), folds hold out files "
                    + "in turn: record more files, or name them in 3 or more groups that each mix shakes and other motion"
            warnings.append("the fold 'held out: \(fold.name)' was tuned on recordings with \(missing), so its "
                + "figures say little. " + remedy)
        }
        return warnings
    }

    /// "medium preset" or "base configuration" (--config).
    static func baseLong(_ base: String) -> String { base == "medium" ? "medium preset" : "base configuration" }

    /// The unit of a tuned parameter's values, from its name: `s` for the keys ending in
    /// Seconds, `m/s²` for those ending in Acceleration, none for counts, cosines and ratios
    /// (`releaseAcceleration / onsetAcceleration` among them).
    static func unit(of name: String) -> String {
        if name.contains("/") { return "" }
        if name.hasSuffix("Seconds") { return "s" }
        if name.hasSuffix("Acceleration") { return "m/s²" }
        return ""
    }

    static func summaryTable(_ rows: [(String, EvaluationSummary)]) -> String {
        let header = ["", "shakes", "detected", "recall", "dup", "false", "false/h", "precision", "lat_med_s", "lat_p95_s"]
        let cells = rows.map { name, s in
            [name, String(s.shakes), String(s.detected), fixed(s.recall, 3), String(s.duplicates), String(s.falseShakes),
             fixed(s.falsePerHour, 2), fixed(s.precision, 3), fixed(s.latencyMedianSeconds, 2),
             fixed(s.latencyP95Seconds, 2)]
        }
        let widths = header.indices.map { column in
            max(header[column].count, cells.map { $0[column].count }.max() ?? 0)
        }
        func line(_ values: [String]) -> String {
            "  " + values.enumerated().map { index, value in
                index == 0 ? value.padding(toLength: widths[0]) : value.leftPadded(widths[index])
            }.joined(separator: "  ") + "\n"
        }
        return ([header] + cells).map(line).joined()
    }

    static func budgetText(_ value: Double) -> String { number(value) }

    /// A value without trailing zeros: 0.5, 12, 0.25.
    static func number(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
        var text = FixedDecimals.format(value, decimals: 4)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
