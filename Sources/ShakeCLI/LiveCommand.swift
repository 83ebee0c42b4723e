#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ShakeDetection
import ShakeIIO
import ShakeRecording
import ShakeUndo

/// `shake live`: shake detection on a live device.
enum LiveCommand: ShakeCommand {
    static let spec = CommandSpec(
        name: "live",
        abstract: "Detect shakes on a live IIO accelerometer.",
        discussion: """
            Says on stderr which device, rate and configuration (preset or --config file) it \
            listens with (and warns when the device, still, reads |a| far from 9.8 m/s²: a wrong scale \
            or offset; and when its measuring range is under the strokes a shake needs during a walk, \
            ongoingMotionPeakAcceleration: ±2 g clips them, so shakes during a walk are often missed, \
            with the wider ranges it offers), then prints each shake event as it happens (times in seconds from the first sample, peak in \
            m/s² with gravity removed) and, on a terminal, a status line on stderr (time, |a|, the \
            largest |l| since the last update against the onset, shaking or not, shakes so far, and \
            during ongoing motion such as walking the peak a shake then needs). With --explain, \
            each near miss too, as it closes: a chain of linked half-waves that did not become a \
            shake, and why (see 'shake help replay'). Runs until --duration, Ctrl-C, SIGTERM or \
            SIGHUP (exit 0), or until the device vanishes or stalls (exit 74; with --reconnect it \
            waits for the device to come back, cancelling a shake in progress, and waits the same \
            way for a device or iiod not there yet at the start). However the stream ends, a \
            shake in progress is cancelled (interrupted). The summary counts the shakes (and how \
            many of them were cancelled: too long, a gap, the end; no undo comes of those), the \
            dropped samples and, with --reconnect, the outages and how long they lasted; with \
            --format json it is also the last line on stdout (none when reading fails before the first \
            sample), {"summary": {...}} (shakes, cancelled, \
            samples, duration_s, dropped_samples, gaps, outages, outage_s, and measured_rate_hz when \
            the device delivers more than 25 % off the rate it reports, spread_samples when FIFO \
            batches' times were spread, discarded_samples when samples whose time did not increase \
            were discarded, clock_steps_back when the device's timestamps went back by more than a \
            second and the times after were shifted to follow on).
            """,
        options: IIOOptions.all + [
            IIOOptions.duration, IIOOptions.reconnect,
            .flag("explain", help: "Also print each near miss (a chain of half-waves that did not become a shake) "
                    + "and why, when it closes. With --format json, lines {\"near_miss\": {...}} as in 'shake "
                    + "replay --explain'."),
            .flag("undo-demo", help: "Wire the shakes to shake to undo: the 'shake demo' editing session, live."),
            .option("choices", value: "list",
                    help: "With --undo-demo: the scripted answers to successive prompts, comma-separated (undo, redo, "
                        + "cancel); then cancel; an answer the prompt has no button for is a cancel.",
                    default: "undo,undo"),
        ] + DetectorOptions.specs + [DetectorOptions.formatSpec])

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let configuration = try DetectorOptions.configuration(arguments)
        let configurationSource = DetectorOptions.configurationSource(arguments)
        let duration = try arguments.double("duration", range: 0.000_001...1e9)
        if arguments.value("choices") != nil && !arguments.flag("undo-demo") {
            throw UsageError("'--choices' needs '--undo-demo' (the answers are for its prompts)")
        }
        let json = wantsJSON(arguments)
        if json && arguments.flag("undo-demo") {
            throw UsageError("'--undo-demo' prints its editing session as text for a person: leave out '--format json' "
                + "(or '--undo-demo', for the shakes as JSON lines)")
        }
        IIOOptions.applyVerbosity(arguments, io: io)
        // Every sample goes straight from the reader's thread into the detector through the
        // callback API (an async sequence costs about three times the CPU per sample). Without
        // --reconnect the first loss of the device ends the run (exit 74).
        let reader = ReconnectingAccelerometerReader(
            uri: try IIOOptions.uri(arguments), device: arguments.value("device"),
            options: try IIOOptions.readOptions(arguments), reconnects: arguments.flag("reconnect"))
        var demo: UndoDemoSession?
        if arguments.flag("undo-demo") {
            let choices = try DemoCommand.choices(arguments)
            demo = try UndoDemoSession(io: io, choices: choices, ringsBell: false,
                                    introduction: "Shake to undo on a live device (\(reader.uri)); the scripted user edits at 2, 4 and 6 s.")
        }
        let stopper = SignalStopper(stopping: reader)
        defer { stopper.remove() }
        // A reader of the output that goes away (`| head -1`, a log pipe closed) ends the run as
        // the end of --duration does, so the device's rate and buffer are put back: with
        // SIGPIPE ignored the write fails instead (`io.outFailure`, checked after each sample),
        // and the tool then ends quietly with 141, as SIGPIPE would have ended it.
        let pipeAction = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, pipeAction) }
        var session = LiveSession(configuration: configuration, json: json, io: io,
                                  explaining: arguments.flag("explain"))
        var failure: IIOError?
        var reportedRate = 0.0
        var connectedDevice: AccelerometerDescription?
        var levelCheck = DeviceLevelCheck()
        var rangeWarned = false
        do {
            try reader.run(onEvent: { event in
                switch event {
                case .connected(let device, let rate, let mode, _):
                    reportedRate = rate
                    connectedDevice = device
                    levelCheck.restart()
                    io.err("Listening to \(device.displayName) at \(hertzText(rate)) Hz (\(mode.rawValue), "
                        + "\(reader.uri)) with \(configurationSource); Ctrl-C to stop.\n")
                    if let warning = SlowSampleRate.deviceWarning(device, hertz: rate) { io.err(warning) }
                    if !rangeWarned, let warning = DeviceRange.warning(
                        device, configuration: configuration, configurationName: configurationSource,
                        recording: false, uri: reader.uri) {
                        rangeWarned = true
                        io.err(warning)
                    }
                case .lost(let error, _):
                    if let event = session.interrupted() { demo?.handle(event) }
                    if reader.reconnects {
                        io.err("Device lost: \(error)\nWaiting for it to come back (Ctrl-C to stop)...\n")
                    }
                case .waiting(let error):
                    io.err(waitingText(error, uri: reader.uri, device: reader.deviceName))
                case .retryFailed(let error):
                    io.err("Still waiting: \(error)\n")
                }
            }) { sample in
                if let duration, sample.time >= duration {
                    reader.stop()
                    return
                }
                if let connectedDevice, let warning = levelCheck.add(sample, device: connectedDevice) {
                    if io.errIsTerminal { io.err("\r\u{1B}[K") }
                    io.err(warning)
                }
                try demo?.advance(to: sample)
                if let event = session.process(sample) { demo?.handle(event) }
                if io.outFailure() != nil { reader.stop() }
            }
        } catch let error as IIOError {
            failure = error
        }
        // However the stream ended (--duration, a signal, the device lost), a shake in progress
        // is cancelled as interrupted, so a reader of the events never sees a began without an end.
        if let event = session.interrupted() { demo?.handle(event) }
        session.finish()
        if let lastTime = session.lastTime { demo?.finish(at: lastTime, shakes: session.shakes) }
        if io.errIsTerminal { io.err("\r\u{1B}[K") }
        let stats = reader.statistics
        // The samples the detector saw: those that arrived after --duration was reached are not.
        if json && (session.samples > 0 || failure == nil) {
            // The stream's last line, so a program reading it knows what was lost.
            io.out(jsonLine(["summary": Summary(session: session, statistics: stats)]))
        }
        if session.samples > 0 || failure == nil {
            io.err("\(counted(session.shakes, "shake"))\(cancelledNote(session.cancelled)) in \(counted(session.samples, "sample")) "
                + "(\(fixed(session.lastTime ?? 0, 1)) s); dropped \(stats.droppedSamples)"
                + " in \(stats.gaps) gap\(stats.gaps == 1 ? "" : "s")\(outageText(stats))"
                + "\(measuredRateText(stats, reported: reportedRate))\(spreadText(stats))"
                + "\(discardedText(stats, keptBatchTimes: arguments.flag("keep-batch-times")))\(clockText(stats))\n")
        }
        if let failure { throw deviceFailure(failure) }
        return ExitStatus.success
    }

    /// `{"summary": ...}`, the last line of `--format json`: the run's counts, as the text summary
    /// on stderr gives them.
    struct Summary: Encodable {
        var shakes: Int
        var cancelled: Int
        var samples: Int
        var duration: Double
        var droppedSamples: Int
        var gaps: Int
        var outages: Int
        var outageSeconds: Double
        var measuredRate: Double?
        var spreadSamples: Int
        var discardedSamples: Int
        var clockStepsBack: Int

        enum CodingKeys: String, CodingKey {
            case shakes, cancelled, samples, gaps, outages
            case duration = "duration_s"
            case droppedSamples = "dropped_samples"
            case outageSeconds = "outage_s"
            case measuredRate = "measured_rate_hz"
            case spreadSamples = "spread_samples"
            case discardedSamples = "discarded_samples"
            case clockStepsBack = "clock_steps_back"
        }

        init(session: LiveSession, statistics: AccelerometerReadStatistics) {
            shakes = session.shakes
            cancelled = session.cancelled
            samples = session.samples
            duration = session.lastTime ?? 0
            droppedSamples = statistics.droppedSamples
            gaps = statistics.gaps
            outages = statistics.outages
            outageSeconds = statistics.outageSeconds
            measuredRate = statistics.measuredRateHertz
            spreadSamples = statistics.spreadSamples
            discardedSamples = statistics.outOfOrderSamples
            clockStepsBack = statistics.clockStepsBack
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(shakes, forKey: .shakes)
            try container.encode(cancelled, forKey: .cancelled)
            try container.encode(samples, forKey: .samples)
            try container.encode(RoundedNumber.seconds(duration), forKey: .duration)
            try container.encode(droppedSamples, forKey: .droppedSamples)
            try container.encode(gaps, forKey: .gaps)
            try container.encode(outages, forKey: .outages)
            try container.encode(RoundedNumber.seconds(outageSeconds), forKey: .outageSeconds)
            // Only when the device delivers at a rate more than 25 % off the one it reports.
            try container.encodeIfPresent(measuredRate.map { RoundedNumber.hertz($0) }, forKey: .measuredRate)
            // Only when the reader spread a FIFO batch's times (the driver stamps batches once).
            if spreadSamples > 0 { try container.encode(spreadSamples, forKey: .spreadSamples) }
            // Only when the reader discarded samples whose time did not increase.
            if discardedSamples > 0 { try container.encode(discardedSamples, forKey: .discardedSamples) }
            // Only when the device's timestamps stepped back (the times after follow on).
            if clockStepsBack > 0 { try container.encode(clockStepsBack, forKey: .clockStepsBack) }
        }
    }

    /// The detector and what `live` prints as samples arrive.
    struct LiveSession {
        var detector: ShakeDetector
        let json: Bool
        let io: CommandIO
        var shakes = 0
        /// Shakes cancelled (too long, a gap, the stream's end): begun, but not for undo.
        var cancelled = 0
        /// Samples fed to the detector.
        var samples = 0
        var lastStatus = 0.0
        var lastTime: Double?
        /// The largest |l| since the status line was last drawn, m/s² (on a terminal only).
        var levelPeak = 0.0
        /// With --explain: the detector's chains, printed as near misses when they close.
        var chains: HalfWaveChainCollector?

        init(configuration: ShakeConfiguration, json: Bool, io: CommandIO, explaining: Bool = false) {
            detector = ShakeDetector(configuration: configuration)
            self.json = json
            self.io = io
            if explaining { chains = HalfWaveChainCollector() }
        }

        /// Feeds the detector; prints and returns the event it reports.
        @discardableResult
        mutating func process(_ sample: Sample) -> ShakeEvent? {
            lastTime = sample.time
            samples += 1
            let event: ShakeEvent?
            if chains != nil {
                var explanation = ShakeExplanation()
                event = detector.process(sample, explanation: &explanation)
                chains?.add(explanation, event: event)
                reportNearMisses(chains?.removeClosedChains() ?? [], at: sample.time)
            } else {
                event = detector.process(sample)
            }
            if let event { report(event) }
            guard io.errIsTerminal else { return event }
            let l = detector.linearAcceleration
            levelPeak = max(levelPeak, (l.x * l.x + l.y * l.y + l.z * l.z).squareRoot())
            let now = AccelerometerReaderClock.now()
            if now - lastStatus >= 0.2 {
                lastStatus = now
                // Ongoing motion (a walk, a run) raises the peaks a shake needs: say so, for tuning.
                let c = detector.configuration
                let motion = detector.isInOngoingMotion
                    ? "  ongoing motion: a shake needs \(c.ongoingMotionStrongHalfWaves) of \(c.minimumHalfWaves) "
                        + "half-waves at \(fixed(c.ongoingMotionPeakAcceleration, 0)) m/s²"
                    : ""
                io.err("\r\(fixed(sample.time, 1)) s  |a| \(fixed(sample.magnitude, 1)) m/s²  |l| up to "
                    + "\(fixed(levelPeak, 1)) m/s² (onset \(fixed(c.onsetAcceleration, 1)))  "
                    + "\(detector.isShaking ? "SHAKING " : "no shake")  shakes: \(shakes)\(motion)\u{1B}[K")
                levelPeak = 0
            }
            return event
        }

        /// The stream ended: prints the near miss still open, with --explain.
        mutating func finish() {
            guard var collector = chains, let lastTime else { return }
            reportNearMisses(collector.finish(), at: lastTime)
            chains = HalfWaveChainCollector()
        }

        /// Prints the near misses among `closed`, closed at `time`.
        mutating func reportNearMisses(_ closed: [HalfWaveChain], at time: Double) {
            for chain in closed where chain.isNearMiss {
                let miss = NearMissReport(chain, configuration: detector.configuration)
                if io.errIsTerminal { io.err("\r\u{1B}[K") }
                if json {
                    io.out(LiveCommand.jsonLine(["near_miss": miss]))
                } else {
                    io.out("\(fixed(time, 3)) s  near miss  (start \(fixed(miss.start, 3)) s, peaks "
                        + miss.peaks.map { fixed($0, 1) }.joined(separator: " ") + " m/s²): \(miss.why)\n")
                }
            }
        }

        /// The stream broke: a shake in progress is cancelled.
        @discardableResult
        mutating func interrupted() -> ShakeEvent? {
            guard let lastTime, let event = detector.interrupt(at: lastTime) else { return nil }
            report(event)
            return event
        }

        mutating func report(_ event: ShakeEvent) {
            if event.phase == .began { shakes += 1 }
            if event.phase == .cancelled { cancelled += 1 }
            if io.errIsTerminal { io.err("\r\u{1B}[K") }
            if json {
                io.out(LiveCommand.jsonLine(ReplayCommand.EventReport(event)))
            } else {
                var line = "\(fixed(event.time, 3)) s  shake \(event.phase.rawValue)"
                line += "  (start \(fixed(event.startTime, 3)) s, end \(fixed(event.endTime, 3)) s, peak "
                    + "\(fixed(event.peakAcceleration, 1)) m/s², \(event.reversals) reversals, axis \(event.dominantAxis.rawValue)"
                if let reason = event.cancellationReason { line += ", \(reason.rawValue)" }
                io.out(line + ")\n")
            }
        }
    }

    static func jsonLine<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
