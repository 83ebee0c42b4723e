#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FoundationEssentials
import ShakeDetection
import ShakeIIO
import ShakeRecording

/// `shake record`: a live device to a canonical CSV recording.
enum RecordCommand: ShakeCommand {
    static let spec = CommandSpec(
        name: "record",
        abstract: "Record an IIO accelerometer to a CSV file.",
        discussion: """
            Writes the canonical recording (time_s,x,y,z: seconds from the first sample, m/s² with \
            gravity, in the device's axes) with '# device:' and '# rate_hz:' lines (the rate the \
            device reports; the summary says when it delivers another). Stops after \
            --duration, on Ctrl-C, SIGTERM or SIGHUP, or when the device vanishes; every sample \
            received until then is kept and the file is valid. Rows go to FILE.partial (valid after \
            every flush) and the file appears under its name when recording ends; an existing file \
            is left alone unless --force is given, and a run that recorded no sample writes nothing \
            (also when stopped while still connecting). A '# mount_matrix:' line gives the rotation \
            applied. With --reconnect, a device or iiod not there yet at the start is waited for, \
            and the summary counts the outages. A device whose first samples, still, read |a| far \
            from 9.8 m/s² is warned about (a wrong scale or offset); its samples are recorded as read. So \
            is one whose measuring range is under the strokes a shake needs during a walk with the medium \
            preset (25 m/s²: ±2 g clips them in the recording), with the wider ranges it offers.
            """,
        options: IIOOptions.all + [
            IIOOptions.duration,
            .option("output", short: "o", value: "file", help: "The CSV file to write (required)."),
            .flag("force", help: "Replace the output file if it exists (by default an existing file is an error)."),
            .hidden(.flag("overwrite", help: "The former name of --force.")),
            IIOOptions.reconnect,
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        guard let output = arguments.value("output") else {
            throw UsageError("Missing the output file: '-o <file>' (the recording to write)")
        }
        let duration = try arguments.double("duration", range: 0.000_001...1e9)
        let force = arguments.flag("force") || arguments.flag("overwrite")
        // Before connecting: a device may take seconds to open, and the user is still at the keyboard.
        try OutputFile.check(output, force: force, partial: true)
        let reconnect = arguments.flag("reconnect")
        let keptBatchTimes = arguments.flag("keep-batch-times")
        IIOOptions.applyVerbosity(arguments, io: io)
        let reader = ReconnectingAccelerometerReader(
            uri: try IIOOptions.uri(arguments), device: arguments.value("device"),
            options: try IIOOptions.readOptions(arguments), reconnects: reconnect)
        var writer: RecordingWriter?
        var rateHertz = 0.0
        var deviceName = ""
        let stopper = SignalStopper(stopping: reader)
        defer { stopper.remove() }
        var lastProgress = AccelerometerReaderClock.now()
        var flushEvery = 1
        var writeError: RecordingError?
        var readError: IIOError?
        var connectedDevice: AccelerometerDescription?
        var levelCheck = DeviceLevelCheck()
        var lastKeptTime: Double?
        var rangeWarned = false
        do {
            try reader.run(onEvent: { event in
                switch event {
                case .connected(let device, let rate, let mode, let mountMatrix):
                    connectedDevice = device
                    levelCheck.restart()
                    if let writer {
                        io.err("Reconnected to \(device.displayName); recording goes on.\n")
                        try writer.flush()
                        return
                    }
                    rateHertz = rate
                    deviceName = device.displayName
                    if let warning = SlowSampleRate.deviceWarning(device, hertz: rate) { io.err(warning) }
                    // Against the default preset: a recording is replayed with it unless told otherwise.
                    if !rangeWarned, let warning = DeviceRange.warning(
                        device, configuration: .medium, configurationName: "the medium preset", recording: true,
                        uri: reader.uri) {
                        rangeWarned = true
                        io.err(warning)
                    }
                    flushEvery = max(1, Int(rate * 0.1))
                    let metadata: [(key: String, value: String)] = [
                        ("device", device.displayName),
                        ("rate_hz", hertzText(rate)),
                        ("source", "\(reader.uri) \(device.id) (\(mode.rawValue))"),
                        ("units", "m/s^2"),
                        // The rotation applied (the device's, --mount-matrix's or the identity):
                        // how the recording's axes relate to the sensor's.
                        ("mount_matrix", mountMatrix.description),
                    ]
                    writer = try RecordingWriter(path: output, metadata: metadata, overwrite: force)
                case .lost(let error, _):
                    try writer?.flush()
                    if reconnect { io.err("Device lost: \(error)\nWaiting for it to come back (Ctrl-C to stop)...\n") }
                case .waiting(let error):
                    io.err(waitingText(error, uri: reader.uri, device: reader.deviceName))
                case .retryFailed(let error):
                    io.err("Still waiting: \(error)\n")
                }
            }) { sample in
                guard let writer else { return }
                if let duration, sample.time >= duration {
                    reader.stop()
                    return
                }
                try writer.write(sample)
                lastKeptTime = sample.time
                if let connectedDevice, let warning = levelCheck.add(sample, device: connectedDevice) {
                    if io.errIsTerminal { io.err("\r\u{1B}[K") }
                    io.err(warning)
                }
                // Flush every 0.1 s of samples: a crash or full disk loses at most that much.
                if writer.samplesWritten % flushEvery == 0 { try writer.flush() }
                let now = AccelerometerReaderClock.now()
                if now - lastProgress >= 0.25 {
                    lastProgress = now
                    if io.errIsTerminal {
                        io.err("\r" + progress(reader, samples: writer.samplesWritten, device: deviceName, rate: rateHertz,
                                          keptBatchTimes: keptBatchTimes)
                            + "\u{1B}[K")
                    }
                }
            }
        } catch let error as IIOError {
            readError = error
        } catch let error as RecordingError {
            writeError = error
        }
        if io.errIsTerminal { io.err("\r\u{1B}[K") }
        guard let writer else {
            if let writeError { throw CommandFailure(outputErrorText(writeError), exitStatus: ExitStatus.cannotCreate) }
            if let readError { throw deviceFailure(readError) }
            if stopper.signal != nil { io.err("Stopped before reading started; \(output) was not written\n") }
            return ExitStatus.success
        }
        if writer.samplesWritten == 0 {
            // Nothing recorded (the device failed or stalled before its first sample, or the
            // user stopped first): a file of no samples must not take the name, least of all
            // over a recording that --force would have replaced.
            writer.discard()
            let kept = FileManager.default.fileExists(atPath: output) ? " (the file already there is kept)" : ""
            io.err("Recorded no samples from \(deviceName); \(output) was not written\(kept)\n")
            if let writeError { throw CommandFailure(outputErrorText(writeError), exitStatus: ExitStatus.cannotCreate) }
            if let readError { throw deviceFailure(readError) }
            return ExitStatus.success
        }
        var kept = writer.samplesWritten
        var keptSeconds: Double?
        if writeError == nil {
            do {
                try writer.finish()
            } catch {
                writeError = error
            }
        }
        if writeError != nil {
            // Disk full or similar: the writer cut its partial file back to whole lines; give it
            // the name asked for (unless a file appeared there meanwhile) and say how much it holds.
            (kept, keptSeconds) = keepPartialRecording(writer, at: output)
        }
        // Where the samples are now: under the name asked for, unless a file appeared there
        // meanwhile (then the partial file keeps them).
        let place = writeError != nil && FileManager.default.fileExists(atPath: writer.partialPath) ? writer.partialPath : output
        // The summary's length is that of the samples kept: not the one --duration stopped at.
        io.err(progress(reader, samples: kept, seconds: keptSeconds ?? lastKeptTime, device: deviceName, rate: rateHertz,
                        keptBatchTimes: keptBatchTimes)
            + " -> \(place)\n")
        if let writeError {
            // The writer's words are about its partial file ("kept in this file"); say where the
            // samples are.
            let cause = writeError.message.components(separatedBy: ";").first ?? writeError.message
            throw CommandFailure("\(writeError.path): \(cause); \(place) keeps the \(kept) samples written before",
                                 exitStatus: ExitStatus.cannotCreate)
        }
        if let readError { throw deviceFailure(readError) }
        return ExitStatus.success
    }

    static func outputErrorText(_ error: RecordingError) -> String {
        OutputFile.text(error)
    }

    /// Moves `<output>.partial` to `output` (never over an existing file); its rows and the
    /// time of the last one, s.
    static func keepPartialRecording(_ writer: RecordingWriter, at output: String) -> (rows: Int, seconds: Double?) {
        var path = writer.partialPath
        if !FileManager.default.fileExists(atPath: output), link(writer.partialPath, output) == 0 {
            unlink(writer.partialPath)
            path = output
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return (0, nil) }
        let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.dropFirst()
        return (rows.count, rows.last.flatMap { Double($0.prefix { $0 != "," }) })
    }

    /// `seconds`: the time of the last sample kept, when not the last one read.
    static func progress(
        _ reader: ReconnectingAccelerometerReader, samples: Int, seconds: Double? = nil, device: String, rate: Double,
        keptBatchTimes: Bool = false
    ) -> String {
        let stats = reader.statistics
        return "Recorded \(counted(samples, "sample")) (\(fixed(seconds ?? stats.lastSampleTime ?? 0, 1)) s) from "
            + "\(device) at \(hertzText(rate)) Hz; dropped \(stats.droppedSamples)"
            + " in \(stats.gaps) gap\(stats.gaps == 1 ? "" : "s")\(outageText(stats))\(measuredRateText(stats, reported: rate))"
            + spreadText(stats) + discardedText(stats, keptBatchTimes: keptBatchTimes) + clockText(stats)
    }
}
