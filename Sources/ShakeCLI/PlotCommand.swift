import ShakeDetection
import ShakeRecording

/// `shake plot FILE -o OUT.svg`: a picture of a recording with the detector's view of it.
enum PlotCommand: ShakeCommand {
    static let spec = CommandSpec(
        name: "plot",
        abstract: "Draw a recording, its labelled shakes and the detected shakes as an SVG file.",
        discussion: """
            Two stacked panels over time (s): the raw x, y, z acceleration (m/s², gravity included), \
            and the linear acceleration |l| as the detector sees it (m/s²: gravity removed and \
            averaged over the smoothing window, what the thresholds are compared with) with the \
            onset and release thresholds as dashed lines (and the sensor saturation level on the \
            raw panel). Each half-wave's peak is a dot: filled when it linked to the one before, \
            hollow when it started a chain (see 'shake replay --explain' for why a chain was no \
            shake). Labelled shakes (shake=1) are shaded bands; the shakes the detector finds are \
            markers with their times (began ▲, ended ▼, cancelled ✕); markers closer than a label's \
            width share one ('3 began, 10.00 to 10.40 s'), and those with no room for a label are \
            counted in a note (draw a shorter range to see them); so is a threshold whose line has \
            no room for its label clear of the other labels. A pause between samples longer than \
            the detector's gap limit (maximumGapSeconds, 0.5 s in the presets) breaks the curves \
            and is shaded, with its length where the band holds it. Grey bands on the linear panel \
            mark ongoing motion (a walk or run without a half-second pause: a shake then needs \
            ongoingMotionStrongHalfWaves half-waves of ongoingMotionPeakAcceleration to begin). \
            With --detector seismic the markers are the Seismic baseline's, the linear panel shows \
            |a - gravity| with a one-pole low-pass of the medium preset's time constant, and no \
            thresholds, dots or bands are drawn (its threshold applies to |a| with gravity, on no \
            panel). The detector runs over the whole \
            recording; --from and --to only choose what is drawn. With --spread-batches, the \
            samples and their labels are drawn at the times the detector was given (the subtitle \
            says how many were moved). Long recordings are drawn as the minimum and maximum of \
            each pixel column. The SVG is self-contained (no fonts, no scripts).

            """ + "\n" + ImportOptions.discussion,
        arguments: [ArgumentSpec("file", help: "The CSV recording to draw (- reads standard input).")],
        options: DetectorOptions.specs + [DetectorOptions.detectorSpec, DetectorOptions.spreadBatchesSpec] + [
            .option("from", value: "seconds", help: "Start of the time range drawn, s. (default: the first sample)"),
            .option("to", value: "seconds", help: "End of the time range drawn, s. (default: the last sample)"),
            .option("output", short: "o", value: "file", help: "The SVG file to write, named .svg, not .png or .pdf (required)."),
            .flag("force", help: "Overwrite an existing output file."),
        ] + ImportOptions.specs
    )

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        guard let output = arguments.value("output") else {
            throw UsageError("Missing the output file: '-o <file>' (the SVG file to write)")
        }
        let from = try arguments.double("from")
        let to = try arguments.double("to")
        if let from, let to, !(to > from) {
            throw UsageError("'--to' (\(shortestDecimal(to)) s) must be after '--from' (\(shortestDecimal(from)) s)")
        }
        let force = arguments.flag("force")
        let path = arguments.positionals[0]
        try OutputFile.checkSVGName(output, writer: "plot")
        try OutputFile.checkNotAnInput(output, inputs: [path], writing: "the SVG")
        try OutputFile.checkNotTheConfiguration(output, flag: "output", arguments)
        try OutputFile.check(output, force: force)
        let selected = try DetectorOptions.detector(arguments)
        // The gravity filter drawn is the detector's; the Seismic rule has none, so medium's.
        var configuration = ShakeConfiguration.default
        if case .shakeKit(let detector) = selected { configuration = detector.configuration }
        var samples: [Sample] = []
        var labels: [Bool] = []
        var labelled = true
        do {
            var reader = try RecordingReader(path: path, options: ImportOptions.options(arguments))
            while let row = try reader.next() {
                samples.append(row.sample)
                if let isShake = row.isShake { labels.append(isShake) } else { labelled = false }
            }
            if let warning = ImportOptions.gravityFreeWarning(path: path, reader.earlyMagnitude) { io.err(warning) }
        } catch {
            throw recordingFailure(error)
        }
        // As replay, evaluate and tune say: samples in FIFO batches, read as they are, are drawn
        // (and detected) bunched.
        if !arguments.flag("spread-batches"),
           let warning = BunchedTimes.fileWarning(path, samples: samples, gapLimit: ShakeConfiguration.medium.maximumGapSeconds) {
            io.err(warning)
        }
        var spreadSamples: Int?
        if arguments.flag("spread-batches") {
            var spreader = BatchTimeSpreader()
            for index in samples.indices { samples[index] = spreader.spread(samples[index]) }
            spreadSamples = spreader.spreadSamples
        }
        guard let first = samples.first, let last = samples.last else {
            throw CommandFailure("\(RecordingError.displayName(ofPath: path)): no samples to draw",
                                 exitStatus: ExitStatus.dataError)
        }
        // One sample, or every sample at one time: no range can be drawn, whatever the options.
        guard last.time > first.time else {
            throw CommandFailure("\(RecordingError.displayName(ofPath: path)): its \(counted(samples.count, "sample")) "
                + "\(samples.count == 1 ? "lies" : "all lie") at \(shortestDecimal(first.time)) s: no span of time to draw",
                exitStatus: ExitStatus.dataError)
        }
        if let from, from > last.time {
            throw UsageError("'--from' (\(shortestDecimal(from)) s) is after the recording's last sample (\(shortestDecimal(last.time)) s)")
        }
        if let to, to < first.time {
            let note = arguments.flag("rebase-time") ? "" : ImportOptions.rebaseTimeNote(
                times: [from, to].compactMap { $0 }, first: first.time, last: last.time, decimals: nil)
            throw UsageError("'--to' (\(shortestDecimal(to)) s) is before the recording's first sample (\(shortestDecimal(first.time)) s)"
                + note)
        }
        // The range actually drawn, with the recording's own ends for what is not given: one of
        // no length (--to 0 on a recording from 0), or one between two samples, draws nothing.
        let (start, end) = (max(from ?? first.time, first.time), min(to ?? last.time, last.time))
        guard end > start else {
            throw UsageError("the range drawn, \(shortestDecimal(start)) to \(shortestDecimal(end)) s, has no length: "
                + "give '--from' and '--to' around the part to see (the recording runs from \(fixed(first.time, 3)) to "
                + "\(fixed(last.time, 3)) s)")
        }
        guard samples.contains(where: { $0.time >= start && $0.time <= end }) else {
            throw UsageError("no sample lies between \(shortestDecimal(start)) and \(shortestDecimal(end)) s: widen the "
                + "range (the recording runs from \(fixed(first.time, 3)) to \(fixed(last.time, 3)) s)")
        }
        // ShakeKit's detector: one pass gives its events, |l|, half-waves and ongoing motion.
        var view: RecordingPlot.DetectorView?
        if case .shakeKit = selected { view = RecordingPlot.detectorView(samples, configuration: configuration) }
        let events = view?.events ?? selected.events(samples)

        let name = path == "-" ? RecordingError.displayName(ofPath: path)
            : path.split(separator: "/").last.map(String.init) ?? path
        let preset = arguments.value("preset") ?? "medium"
        var detectorName = arguments.value("config").map { "configuration \($0)" } ?? "\(preset) preset"
        if case .seismic(let seismic) = selected {
            detectorName = "Seismic rule, |a| above \(fixed(seismic.thresholdMetersPerSecondSquared, 0)) m/s² (\(preset))"
        }
        let shown = events.filter { $0.phase == .began && $0.time >= (from ?? first.time) && $0.time <= (to ?? last.time) }
        var subtitle = "detector: \(detectorName) · \(counted(samples.count, "sample")), \(fixed(last.time - first.time, 1)) s"
        if labelled {
            let runs = zip(labels, [false] + labels).filter { $0 && !$1 }.count
            subtitle += " · \(runs) labelled shake\(runs == 1 ? "" : "s")"
        }
        if let spreadSamples, spreadSamples > 0 {
            subtitle += " · \(spreadSamples) sample time\(spreadSamples == 1 ? "" : "s") spread over "
                + (spreadSamples == 1 ? "its batch" : "their batches")
        }
        subtitle += " · \(events.filter { $0.phase == .began }.count) detected"
        if from != nil || to != nil {
            subtitle += " (\(shown.count) shown, \(FixedDecimals.formatReadably(from ?? first.time, decimals: 2)) to "
                + "\(FixedDecimals.formatReadably(to ?? last.time, decimals: 2)) s)"
        }
        var plot = RecordingPlot(title: name, subtitle: subtitle, samples: samples, labels: labelled ? labels : nil,
                                 events: events, thresholds: RecordingPlot.thresholds(of: configuration))
        plot.gravityTimeConstantSeconds = RecordingPlot.gravityTimeConstant(of: configuration)
        plot.gapLimitSeconds = configuration.maximumGapSeconds
        plot.saturation = RecordingPlot.saturation(of: configuration)
        if let view {
            plot.linear = view.linear
            plot.halfWaves = view.halfWaves
            plot.ongoingMotion = view.ongoingMotion
        } else {
            plot.thresholds = []
            plot.saturation = nil
        }
        plot.from = from
        plot.to = to
        do {
            try withSignalsDeferred { try PlotFile.write(plot.svg(), to: output, overwrite: force) }
        } catch {
            throw OutputFile.writeFailure(error)
        }
        io.err("plot: wrote \(output)\n")
        return ExitStatus.success
    }
}
