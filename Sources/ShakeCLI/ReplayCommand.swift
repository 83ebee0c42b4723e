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
            recording's time origin, peak acceleration in m/s² with gravity removed.

            """ + "\n" + ImportOptions.discussion,
        arguments: [ArgumentSpec("file", help: "Recordings to replay.", variadic: true)],
        options: DetectorOptions.specs + [DetectorOptions.detectorSpec, DetectorOptions.formatSpec] + ImportOptions.specs
    )

    struct FileReport: Encodable {
        var file: String
        var samples: Int
        var durationSeconds: Double
        var shakes: Int
        var events: [EventReport]

        enum CodingKeys: String, CodingKey {
            case file, samples, shakes, events
            case durationSeconds = "duration_s"
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
            try container.encode(time, forKey: .time)
            try container.encode(start, forKey: .start)
            try container.encode(end, forKey: .end)
            try container.encode(peak, forKey: .peak)
            try container.encode(reversals, forKey: .reversals)
            try container.encode(axis, forKey: .axis)
            try container.encode(reason, forKey: .reason)
        }
    }

    struct Report: Encodable {
        var files: [FileReport]
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let chosen = try DetectorOptions.detector(arguments)
        let options = ImportOptions.options(arguments)
        var reports: [FileReport] = []
        for path in arguments.positionals {
            let result: RecordingReplay.Result
            do {
                result = try chosen.replay(path: path, options: options)
            } catch {
                throw recordingFailure(error)
            }
            let report = FileReport(
                file: path, samples: result.sampleCount,
                durationSeconds: (result.endTime ?? 0) - (result.startTime ?? 0),
                shakes: result.events.filter { $0.phase == .began }.count,
                events: result.events.map(EventReport.init))
            // Text goes out file by file; only JSON (one object for all files) keeps the reports.
            if wantsJSON(arguments) { reports.append(report) } else { io.out(text(report)) }
        }
        if wantsJSON(arguments) { io.out(jsonText(Report(files: reports))) }
        return ExitStatus.success
    }

    static func text(_ report: FileReport) -> String {
        let noun = report.shakes == 1 ? "shake" : "shakes"
        var text = "\(report.file): \(report.shakes) \(noun) in \(report.samples) samples "
            + "(\(fixed(report.durationSeconds, 1)) s)\n"
        guard !report.events.isEmpty else { return text }
        text += "    time_s  event      start_s    end_s  peak_m/s²  reversals  axis\n"
        for event in report.events {
            var line = fixed(event.time, 3).leftPadded(10) + "  " + event.phase.padding(toLength: 9)
            line += fixed(event.start, 3).leftPadded(9) + fixed(event.end, 3).leftPadded(9)
            line += fixed(event.peak, 1).leftPadded(11) + String(event.reversals).leftPadded(11)
            line += "     " + event.axis
            if let reason = event.reason { line += "  (\(reason))" }
            text += line + "\n"
        }
        return text
    }
}

extension String {
    func leftPadded(_ length: Int) -> String {
        count >= length ? self : String(repeating: " ", count: length - count) + self
    }
}
