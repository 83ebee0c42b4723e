import ShakeDetection
import ShakeRecording

/// `shake replay FILE...`: the shakes a detector finds in recordings.
enum ReplayCommand: ShakeCommand {
    static let spec = CommandSpec(
        name: "replay",
        abstract: "Replay recordings through the detector and print the shakes it finds.",
        discussion: """
            Each FILE is a CSV recording: optional '# key: value' lines, then the header time_s,x,y,z \
            (optionally ,shake), time in seconds and acceleration in m/s² including gravity. \
            Every event is listed: began (the shake is recognised; its time is when it fired), \
            ended (shaking stopped), cancelled (with the reason). Times are in seconds from the \
            recording's time origin, peak acceleration in m/s² with gravity removed. Columns: \
            time_s (when the event fired), start_s and end_s (the shake's first half-wave's start \
            and its last half-wave's end so far: an ended event fires quietSeconds, 0.4 s in the \
            presets, after end_s, later after a pause in the samples), peak_m/s², reversals (direction reversals so far: half-waves \
            minus one, so a shake that began on 4 half-waves shows 3) and axis (the dominant \
            device axis). A file's line counts its shakes, and how many of them were cancelled \
            (\"1 shake (1 cancelled)\": no undo comes of those). It \
            also says, when there are any, how many rows repeat the previous row's time (the \
            detector ignores them) and how many gaps between samples are longer than \
            maximumGapSeconds (0.5 s in the presets; the detector restarts after each), with the \
            longest, and whether its samples come more than 10 % slower than 25 Hz, the slowest \
            rate the detector is made for (measured over a second or more; shakes may then be \
            missed), and whether its first intervals come in bursts close together, then a pause \
            (a FIFO batch stamped sample by sample as it is read out: the detector sees each burst \
            as one moment) or share their times (a batch stamped once); --spread-batches then \
            gives each sample of a batch its own time, and the line says how many were moved; \
            JSON has them always: \
            'repeated_timestamps', 'gaps', 'gap_limit_s', 'largest_gap_s', 'sample_rate_hz' \
            (the mean rate between samples, gaps and repeated timestamps left out; null with \
            fewer than two samples), 'samples_per_burst' (the bursts' size, null when there are \
            none), and with --spread-batches 'spread_samples' (the samples whose time was \
            moved). JSON also says which detector ran: 'detector' (shakekit or \
            seismic) and, for shakekit, 'configuration' (every key, as --config reads it), for \
            seismic 'seismic_threshold_m_s2'.

            With --explain, each file's events are followed by what the rules measured as each \
            shake began (against their limits: how close it came to being refused) and by its \
            near misses: every chain of \
            two or more linked half-waves (excursions of the linear acceleration past the onset, \
            each reversing the one before) that did not become a shake, with why: the rule that \
            refused it once it had enough half-waves (the value it measured, and the limit with \
            its configuration key; the last rule that refused it, then each other rule that did \
            earlier, as the chain went on and changed), or how many half-waves it reached and \
            why the next one did not link. To see why a shake was missed, or which setting to change ('shake config \
            --preset medium' prints them all as JSON, for --config).

            """ + "\n" + ImportOptions.discussion,
        arguments: [ArgumentSpec("file", help: "Recordings to replay, or folders of them (their *.csv files, "
                                    + "sorted; - reads standard input).", variadic: true)],
        options: DetectorOptions.specs + [
            DetectorOptions.detectorSpec, DetectorOptions.formatSpec, DetectorOptions.spreadBatchesSpec,
            .flag("explain", help: "Also list what the rules measured as each shake began, and the near misses "
                    + "(chains of half-waves that did not become a shake) and why. With --format json: per file, "
                    + "'began_why' ([{time_s, why}]) and 'near_misses' ([{start_s, last_peak_s, peaks_m_s2, "
                    + "reason, earlier_reasons, ended, why}]; earlier_reasons: the other rules that refused the "
                    + "chain before the last). ShakeKit's detector only."),
        ] + ImportOptions.specs
    )

    struct FileReport: Encodable {
        var file: String
        var samples: Int
        var durationSeconds: Double
        var shakes: Int
        var repeatedTimestamps: Int
        var gaps: Int
        var gapLimit: Double
        var largestGap: Double
        /// Nil when the file has no interval to measure it on.
        var sampleRate: Double?
        /// Nil unless the samples come in bursts (`BunchedTimes`).
        var samplesPerBurst: Double?
        /// Written only with `--spread-batches`: the samples whose time was moved.
        var spreadSamples: Int?
        var events: [EventReport]
        /// Written only with `--explain`.
        var nearMisses: [NearMissReport]?
        /// Written only with `--explain`: what the rules measured as each shake began.
        var beganWhy: [BeganWhy]?

        enum CodingKeys: String, CodingKey {
            case file, samples, shakes, events
            case durationSeconds = "duration_s"
            case repeatedTimestamps = "repeated_timestamps"
            case gaps
            case gapLimit = "gap_limit_s"
            case largestGap = "largest_gap_s"
            case sampleRate = "sample_rate_hz"
            case samplesPerBurst = "samples_per_burst"
            case spreadSamples = "spread_samples"
            case nearMisses = "near_misses"
            case beganWhy = "began_why"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            try container.encode(samples, forKey: .samples)
            try container.encode(RoundedNumber.seconds(durationSeconds), forKey: .durationSeconds)
            try container.encode(shakes, forKey: .shakes)
            try container.encode(repeatedTimestamps, forKey: .repeatedTimestamps)
            try container.encode(gaps, forKey: .gaps)
            try container.encode(RoundedNumber.seconds(gapLimit), forKey: .gapLimit)
            try container.encode(RoundedNumber.seconds(largestGap), forKey: .largestGap)
            try container.encode(sampleRate.map(RoundedNumber.hertz), forKey: .sampleRate)
            try container.encode(samplesPerBurst, forKey: .samplesPerBurst)
            try container.encodeIfPresent(spreadSamples, forKey: .spreadSamples)
            try container.encode(events, forKey: .events)
            try container.encodeIfPresent(nearMisses, forKey: .nearMisses)
            try container.encodeIfPresent(beganWhy, forKey: .beganWhy)
        }
    }

    struct BeganWhy: Encodable {
        var time: Double
        var why: String

        enum CodingKeys: String, CodingKey {
            case time = "time_s", why
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(RoundedNumber.seconds(time), forKey: .time)
            try container.encode(why, forKey: .why)
        }
    }

    struct EventReport: Encodable {
        var phase: String
        var time: Double
        var start: Double
        var end: Double
        var peak: Double
        var reversals: Int
        var axis: String
        var reason: String?

        enum CodingKeys: String, CodingKey {
            case phase, reversals, axis, reason
            case time = "time_s"
            case start = "start_s"
            case end = "end_s"
            case peak = "peak_m_s2"
        }

        init(_ event: ShakeEvent) {
            phase = event.phase.rawValue
            time = event.time
            start = event.startTime
            end = event.endTime
            peak = event.peakAcceleration
            reversals = event.reversals
            axis = event.dominantAxis.rawValue
            reason = event.cancellationReason?.rawValue
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(phase, forKey: .phase)
            try container.encode(RoundedNumber.seconds(time), forKey: .time)
            try container.encode(RoundedNumber.seconds(start), forKey: .start)
            try container.encode(RoundedNumber.seconds(end), forKey: .end)
            try container.encode(RoundedNumber.acceleration(peak), forKey: .peak)
            try container.encode(reversals, forKey: .reversals)
            try container.encode(axis, forKey: .axis)
            try container.encode(reason, forKey: .reason)
        }
    }

    struct Report: Encodable {
        var files: [FileReport]
        var detector: DetectorReport

        enum CodingKeys: String, CodingKey { case files }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(files, forKey: .files)
            try detector.encode(to: encoder)
        }
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        // Standard input can be read once: the second '-' would find it empty, after the first
        // was replayed.
        if arguments.positionals.count(where: { $0 == "-" }) > 1 {
            throw UsageError("The file '-' (standard input) is given twice; it can be read only once")
        }
        let chosen = try DetectorOptions.detector(arguments)
        var explained: ShakeConfiguration?
        if arguments.flag("explain") {
            guard case .shakeKit(let detector) = chosen else {
                throw UsageError("'--explain' explains ShakeKit's detector; the seismic detector has no half-waves")
            }
            explained = detector.configuration
        }
        let options = try ImportOptions.options(arguments)
        var reports: [FileReport] = []
        // A folder stands for its recordings; a file is left to the reader, whose errors name it.
        let files = try arguments.positionals.flatMap { path in
            let folder = path != "-" && isFolder(path) == true
            return folder ? try EvaluateCommand.expandedRecordingFiles([path]) : [path]
        }
        for path in files {
            let result: RecordingReplay.Result
            var spreadSamples: Int?
            var nearMisses: [NearMissReport]?
            var beganWhy: [BeganWhy]?
            var quiet: String?
            do {
                // Files one after another, each parsed on a second thread beside the detector.
                if let configuration = explained {
                    let run = try RecordingReplay.runExplaining(
                        path: path, options: options, configuration: configuration, readAhead: true,
                        spreadingBatches: arguments.flag("spread-batches"))
                    result = run.result
                    spreadSamples = run.spreadSamples
                    nearMisses = run.nearMisses.map { NearMissReport($0, configuration: configuration) }
                    quiet = NearMissReport.underTheOnset(run.largestLinearAcceleration, configuration: configuration)
                    beganWhy = run.shakes.compactMap { chain in
                        guard let time = chain.shakeBegan,
                              let why = NearMissReport.beganWhy(chain, configuration: configuration) else { return nil }
                        return BeganWhy(time: time, why: why)
                    }
                } else {
                    (result, spreadSamples) = try chosen.replay(
                        path: path, options: options, readAhead: true, spreadingBatches: arguments.flag("spread-batches"))
                }
            } catch {
                throw recordingFailure(error)
            }
            let name = RecordingError.displayName(ofPath: path)
            // A header and no rows (a truncated export, say) is no recording, as evaluate, plot
            // and convert say too: "0 shakes" would pass it off as one where nothing happened.
            guard result.sampleCount > 0 else {
                throw CommandFailure("\(name): no samples", exitStatus: ExitStatus.dataError)
            }
            if let warning = ImportOptions.gravityFreeWarning(path: path, result.earlyMagnitude) { io.err(warning) }
            let shakes = result.events.filter { $0.phase == .began }.count
            let duration = (result.endTime ?? 0) - (result.startTime ?? 0)
            if wantsJSON(arguments) {
                // JSON is one object for all files, so the reports are kept until the end.
                reports.append(FileReport(
                    file: name, samples: result.sampleCount, durationSeconds: duration, shakes: shakes,
                    repeatedTimestamps: result.repeatedTimestamps, gaps: result.gaps, gapLimit: result.gapLimit,
                    largestGap: result.largestTimeGap, sampleRate: result.meanSampleRate,
                    samplesPerBurst: result.samplesPerBurst, spreadSamples: spreadSamples,
                    events: result.events.map(EventReport.init), nearMisses: nearMisses, beganWhy: beganWhy))
            } else {
                // Text goes out file by file, its events in chunks, so that a long recording's
                // events are not held twice more (as reports and as one string).
                let cancelled = result.events.count { $0.phase == .cancelled }
                var text = "\(name): \(counted(shakes, "shake"))\(cancelledNote(cancelled)) in "
                    + "\(counted(result.sampleCount, "sample")) "
                    + "(\(fixed(duration, 1)) s)\(timeIrregularities(result, spreadSamples: spreadSamples))\n"
                if !result.events.isEmpty {
                    text += "    time_s  event      start_s    end_s  peak_m/s²  reversals  axis\n"
                }
                for event in result.events {
                    text += line(event)
                    if text.utf8.count >= 1 << 16 {
                        io.out(text)
                        text = ""
                    }
                }
                if let beganWhy, !beganWhy.isEmpty {
                    text += "  why each shake began (what the rules measured, against their limits):\n"
                    for shake in beganWhy { text += fixed(shake.time, 3).leftPadded(10) + "  " + shake.why + "\n" }
                }
                if let nearMisses {
                    text += nearMisses.isEmpty ? "  no near misses\(quiet.map { ": \($0)" } ?? "")\n" : NearMissReport.header
                    for miss in nearMisses {
                        text += miss.line
                        if text.utf8.count >= 1 << 16 {
                            io.out(text)
                            text = ""
                        }
                    }
                }
                if !text.isEmpty { io.out(text) }
            }
        }
        if wantsJSON(arguments) { io.out(jsonText(Report(files: reports, detector: DetectorReport(selected: chosen)))) }
        return ExitStatus.success
    }

    /// The repeated timestamps and the gaps of a replayed recording, and a sample rate under the
    /// detector's slowest, in words after `; `, or nothing when it has none: `; 3 repeated
    /// timestamps ignored, 1 gap over 0.5 s (2.3 s)`, `; 10.0 Hz, under the 25 Hz the detector is
    /// made for: shakes may be missed`. `spreadSamples`: how many times `--spread-batches` moved
    /// (nil without it); when it moved any, the repeats and bursts are told as spread.
    static func timeIrregularities(_ result: RecordingReplay.Result, spreadSamples: Int? = nil) -> String {
        var parts: [String] = []
        let repeated = result.repeatedTimestamps
        let spread = (spreadSamples ?? 0) > 0
        if repeated > 0 {
            var part = "\(repeated) repeated timestamp\(repeated == 1 ? "" : "s")"
            if !spread {
                part += " ignored"
                if spreadSamples == nil, BunchedTimes.repeatsPerTime(result) != nil {
                    part += " (a FIFO batch stamped once? --spread-batches spreads them)"
                }
            }
            parts.append(part)
        }
        if let spreadSamples, spread {
            parts.append("\(spreadSamples) sample time\(spreadSamples == 1 ? "" : "s") spread over \(spreadSamples == 1 ? "its batch" : "their batches")")
        }
        if result.gaps > 0 {
            let limit = TuneCommand.number(result.gapLimit)
            let largest = result.gaps == 1 ? "" : "largest "
            parts.append("\(result.gaps) gap\(result.gaps == 1 ? "" : "s") over \(limit) s "
                + "(\(largest)\(TuneCommand.number(result.largestTimeGap)) s)")
        }
        if BunchedTimes.repeatsPerTime(result) == nil, let rate = SlowSampleRate.flagged(result) {
            parts.append(SlowSampleRate.phrase(rate))
        }
        if let burst = result.samplesPerBurst, !spread {
            parts.append(BunchedTimes.phrase(burst, hinting: spreadSamples == nil))
        }
        return parts.isEmpty ? "" : "; " + parts.joined(separator: ", ")
    }

    /// One event as a row of the text table, with its line end.
    static func line(_ event: ShakeEvent) -> String {
        var line = fixed(event.time, 3).leftPadded(10) + "  " + event.phase.rawValue.padding(toLength: 9)
        // A space before each column, whatever its width: times since 1970 or since boot
        // (62637.504) overflow the 9 characters, and had run into the next column.
        line += " " + fixed(event.startTime, 3).leftPadded(8) + " " + fixed(event.endTime, 3).leftPadded(8)
        line += " " + fixed(event.peakAcceleration, 1).leftPadded(10) + " " + String(event.reversals).leftPadded(10)
        line += "     " + event.dominantAxis.rawValue
        if let reason = event.cancellationReason { line += "  (\(reason.rawValue))" }
        return line + "\n"
    }
}

extension String {
    func leftPadded(_ length: Int) -> String {
        count >= length ? self : String(repeating: " ", count: length - count) + self
    }
}
