import Dispatch
import Foundation
import ShakeDetection
import ShakeIIO
import ShakeRecording
import Synchronization

/// Options shared by the commands that read IIO devices.
enum IIOOptions {
    static let uri = OptionSpec.option(
        "uri", value: "uri",
        help: "libiio context: local: (this machine), ip:HOST (a remote iiod), usb:BUS.ADDR.INTF or usb:.",
        default: "local:")
    static let device = OptionSpec.option(
        "device", value: "name", help: "Accelerometer name, label or id (default: the first accelerometer).")
    static let rate = OptionSpec.option(
        "rate", value: "hz", help: "Sampling rate in hertz; the nearest rate the device offers is used (default: the device's).")
    static let mode = OptionSpec.option(
        "mode", value: "mode", help: "buffered reads the device's buffer, polled reads in_accel_*_raw at the rate.",
        values: ["auto", "buffered", "polled"], default: "auto")
    static let timeout = OptionSpec.option(
        "timeout", value: "seconds", help: "End with an error when no sample arrives for this long.", default: "2")
    static let duration = OptionSpec.option(
        "duration", value: "seconds", help: "Stop after this many seconds of samples (default: until Ctrl-C).")
    static let mountMatrix = OptionSpec.option(
        "mount-matrix", value: "matrix",
        help: "Mount matrix \"x, y, z; x, y, z; x, y, z\" to use instead of the device's.")

    static let reconnect = OptionSpec.flag(
        "reconnect", help: "When the device vanishes or stalls, wait for it to come back and go on (times stay continuous).")

    static let all: [OptionSpec] = [uri, device, rate, mode, timeout, mountMatrix]

    static func readOptions(_ arguments: ParsedArguments) throws -> AccelerometerReadOptions {
        var options = AccelerometerReadOptions()
        options.rateHertz = try arguments.double("rate", range: 0.001...1_000_000)
        options.readTimeout = try arguments.double("timeout", range: 0.01...86_400) ?? 2
        switch arguments.value("mode") ?? "auto" {
        case "buffered": options.mode = .buffered
        case "polled": options.mode = .polled
        default: options.mode = .automatic
        }
        if let text = arguments.value("mount-matrix") {
            do {
                options.mountMatrix = try MountMatrix(parsing: text)
            } catch {
                throw UsageError("--mount-matrix: \(error.detail ?? "\(error)")")
            }
        }
        return options
    }

    static func reader(_ arguments: ParsedArguments) throws -> AccelerometerReader {
        let options = try readOptions(arguments)
        do {
            return try AccelerometerReader(
                uri: arguments.value("uri") ?? IIOContext.defaultURI, device: arguments.value("device"),
                options: options)
        } catch {
            throw deviceFailure(error)
        }
    }
}

/// An ``IIOError`` as a CLI failure: exit status 74 (`EX_IOERR`), 77 (`EX_NOPERM`) for access.
func deviceFailure(_ error: IIOError) -> CommandFailure {
    CommandFailure("\(error)", exitStatus: error.kind == .permissionDenied ? 77 : ExitStatus.ioError)
}

/// Stops a reader on SIGINT or SIGTERM while installed; restores default handling at `remove()`.
final class SignalStopper {
    private final class Received: Sendable {
        let signal = Mutex<Int32?>(nil)
    }

    private let sources: [any DispatchSourceSignal]
    private let received = Received()

    convenience init(stopping reader: AccelerometerReader) {
        self.init { reader.stop() }
    }

    convenience init(stopping reader: ReconnectingAccelerometerReader) {
        self.init { reader.stop() }
    }

    init(stop: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "shake.signals")
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [received] in
                received.signal.withLock { $0 = number }
                stop()
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    /// The signal that stopped the reader, if any.
    var signal: Int32? { received.signal.withLock { $0 } }

    func remove() {
        for source in sources { source.cancel() }
        Glibc.signal(SIGINT, SIG_DFL)
        Glibc.signal(SIGTERM, SIG_DFL)
    }
}

/// Formats `value` in hertz without needless decimals: `51`, `12.5`.
func hertzText(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e12 ? String(Int64(value)) : String(value)
}

/// `shake devices`: the accelerometers a libiio context offers.
enum DevicesCommand: ShakeCommand {
    static let spec = CommandSpec(
        name: "devices",
        abstract: "List the IIO accelerometers of a libiio context.",
        discussion: """
            Lists devices with accel_x, accel_y and accel_z input channels: name, label, scale \
            (m/s² per LSB), offset (LSB), sampling frequency and the available ones (Hz), whether \
            samples come through a buffer (with a timestamp channel) or by polling, the current \
            trigger and the mount matrix. Reading /sys/bus/iio and /dev/iio:device* usually needs \
            root or a udev rule.
            """,
        options: [IIOOptions.uri, DetectorOptions.formatSpec])

    struct Report: Encodable {
        var uri: String
        var backend: String
        var accelerometers: [AccelerometerDescription]
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let uri = arguments.value("uri") ?? IIOContext.defaultURI
        let report: Report
        do {
            let context = try IIOContext(uri: uri)
            report = Report(uri: uri, backend: context.backend, accelerometers: try context.accelerometers())
        } catch {
            throw deviceFailure(error)
        }
        if wantsJSON(arguments) {
            io.out(jsonText(report))
        } else {
            io.out(text(report))
        }
        return ExitStatus.success
    }

    static func text(_ report: Report) -> String {
        guard !report.accelerometers.isEmpty else {
            return "No accelerometers at \(report.uri) (\(report.backend) backend).\n"
        }
        var text = ""
        for device in report.accelerometers {
            text += "\(device.id): \(device.name ?? "(no name)")"
            if let label = device.label { text += " [\(label)]" }
            text += "\n"
            var reading = device.isBufferCapable ? "buffered" : "polled (no buffer)"
            if device.isBufferCapable {
                reading += device.hasTimestampChannel ? ", timestamp channel" : ", no timestamp channel"
            }
            if let format = device.scanFormat, device.isBufferCapable { reading += ", format \(format)" }
            text += "    reading:        \(reading)\n"
            text += "    scale:          \(device.scale.map { "\($0) m/s² per LSB" } ?? "none (raw values used as m/s²)")\n"
            text += "    offset:         \(device.offset.map { "\($0) LSB" } ?? "0")\n"
            var rate = device.samplingFrequencyHertz.map { "\(hertzText($0)) Hz" } ?? "not adjustable"
            if !device.availableSamplingFrequenciesHertz.isEmpty {
                rate += " (available: " + device.availableSamplingFrequenciesHertz.map(hertzText).joined(separator: " ") + ")"
            }
            text += "    sampling:       \(rate)\n"
            text += "    trigger:        \(device.currentTrigger ?? "none")\n"
            text += "    mount matrix:   \(device.mountMatrix.map { "\($0)" } ?? "none (identity)")\n"
        }
        return text
    }
}

/// `shake record`: a live device to a canonical CSV recording.
enum RecordCommand: ShakeCommand {
    static let spec = CommandSpec(
        name: "record",
        abstract: "Record an IIO accelerometer to a CSV file.",
        discussion: """
            Writes the canonical recording (time_s,x,y,z: seconds from the first sample, m/s² with \
            gravity, in the device's axes) with '# device:' and '# rate_hz:' lines. Stops after \
            --duration, on Ctrl-C or SIGTERM, or when the device vanishes; every sample received \
            until then is kept and the file is valid. Rows go to FILE.partial (valid after every \
            flush) and the file appears under its name when recording ends; an existing file is \
            left alone unless --overwrite is given.
            """,
        options: IIOOptions.all + [
            IIOOptions.duration,
            .option("output", short: "o", value: "file", help: "The CSV file to write."),
            .flag("overwrite", help: "Replace the output file if it exists (by default an existing file is an error)."),
            IIOOptions.reconnect,
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        guard let output = arguments.value("output") else { throw UsageError("Missing '--output <file>'") }
        let duration = try arguments.double("duration", range: 0.000_001...1e9)
        let reconnect = arguments.flag("reconnect")
        let reader = ReconnectingAccelerometerReader(
            uri: arguments.value("uri") ?? IIOContext.defaultURI, device: arguments.value("device"),
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
        do {
            try reader.run(onEvent: { event in
                switch event {
                case .connected(let device, let rate, let mode):
                    if let writer {
                        io.err("Reconnected to \(device.displayName); recording goes on.\n")
                        try writer.flush()
                        return
                    }
                    rateHertz = rate
                    deviceName = device.displayName
                    flushEvery = max(1, Int(rate * 0.1))
                    let metadata: [(key: String, value: String)] = [
                        ("device", device.displayName),
                        ("rate_hz", hertzText(rate)),
                        ("source", "\(reader.uri) \(device.id) (\(mode.rawValue))"),
                        ("units", "m/s^2"),
                    ]
                    writer = try RecordingWriter(path: output, metadata: metadata, overwrite: arguments.flag("overwrite"))
                case .lost(let error, _):
                    try writer?.flush()
                    if reconnect { io.err("Device lost: \(error)\nWaiting for it to come back (Ctrl-C to stop)...\n") }
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
                // Flush every 0.1 s of samples: a crash or full disk loses at most that much.
                if writer.samplesWritten % flushEvery == 0 { try writer.flush() }
                let now = AccelerometerReaderClock.now()
                if now - lastProgress >= 0.25 {
                    lastProgress = now
                    if io.errIsTerminal {
                        io.err("\r" + progress(reader, samples: writer.samplesWritten, device: deviceName, rate: rateHertz)
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
            return ExitStatus.success
        }
        var kept = writer.samplesWritten
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
            kept = keepPartialRecording(writer, at: output)
        }
        io.err(progress(reader, samples: kept, device: deviceName, rate: rateHertz) + " -> \(output)\n")
        if let writeError {
            throw CommandFailure(outputErrorText(writeError) + "; \(output) keeps the \(kept) samples written before",
                                 exitStatus: ExitStatus.cannotCreate)
        }
        if let readError { throw deviceFailure(readError) }
        return ExitStatus.success
    }

    static func outputErrorText(_ error: RecordingError) -> String {
        error.description.replacingOccurrences(of: ": error: ", with: ": ")
    }

    /// Moves `<output>.partial` to `output` (never over an existing file) and counts its rows.
    static func keepPartialRecording(_ writer: RecordingWriter, at output: String) -> Int {
        var path = writer.partialPath
        if !FileManager.default.fileExists(atPath: output), link(writer.partialPath, output) == 0 {
            unlink(writer.partialPath)
            path = output
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return 0 }
        let lines = text.split(separator: "\n")
        return max(0, lines.filter { !$0.hasPrefix("#") }.count - 1)
    }

    static func progress(_ reader: ReconnectingAccelerometerReader, samples: Int, device: String, rate: Double) -> String {
        let stats = reader.statistics
        return "Recorded \(samples) samples (\(fixed(stats.lastSampleTime ?? 0, 1)) s) from "
            + "\(device) at \(hertzText(rate)) Hz; dropped \(stats.droppedSamples)"
            + " in \(stats.gaps) gap\(stats.gaps == 1 ? "" : "s")"
    }
}

/// `shake live`: shake detection on a live device.
enum LiveCommand: ShakeCommand {
    static let spec = CommandSpec(
        name: "live",
        abstract: "Detect shakes on a live IIO accelerometer.",
        discussion: """
            Prints each shake event as it happens (times in seconds from the first sample, peak in \
            m/s² with gravity removed) and, on a terminal, a status line on stderr. Runs until \
            --duration, Ctrl-C or SIGTERM (exit 0), or until the device vanishes or stalls (exit 74; \
            with --reconnect it waits for the device to come back, cancelling a shake in progress).
            """,
        options: IIOOptions.all + [IIOOptions.duration, IIOOptions.reconnect] + DetectorOptions.specs
            + [DetectorOptions.formatSpec])

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let configuration = try DetectorOptions.configuration(arguments)
        let duration = try arguments.double("duration", range: 0.000_001...1e9)
        let json = wantsJSON(arguments)
        if arguments.flag("reconnect") {
            return try runReconnecting(arguments, configuration: configuration, duration: duration, json: json, io: io)
        }
        let reader = try IIOOptions.reader(arguments)
        io.err("Listening to \(reader.device.displayName) at \(hertzText(reader.rateHertz)) Hz "
            + "(\(reader.mode.rawValue), \(reader.uri)); Ctrl-C to stop.\n")
        let stopper = SignalStopper(stopping: reader)
        defer { stopper.remove() }
        // Reads through the async sequence (the CLI's `record` uses the callback API).
        let outcome = LiveOutcome()
        let done = DispatchSemaphore(value: 0)
        Task {
            var session = LiveSession(configuration: configuration, json: json, io: io)
            do {
                for try await sample in reader.samples() {
                    if let duration, sample.time >= duration { break }
                    session.process(sample)
                }
            } catch let error as IIOError {
                session.interrupted()
                outcome.failure.withLock { $0 = error }
            } catch {
                outcome.failure.withLock { $0 = IIOError(code: .ioError, function: "live", detail: "\(error)") }
            }
            outcome.shakes.withLock { $0 = session.shakes }
            done.signal()
        }
        done.wait()
        if io.errIsTerminal { io.err("\r\u{1B}[K") }
        let stats = reader.statistics
        let shakes = outcome.shakes.withLock { $0 }
        io.err("\(shakes) shake\(shakes == 1 ? "" : "s") in \(stats.samplesDelivered) samples "
            + "(\(fixed(stats.lastSampleTime ?? 0, 1)) s); dropped \(stats.droppedSamples)"
            + (stats.consumerOverruns > 0 ? ", \(stats.consumerOverruns) not processed in time" : "") + "\n")
        if let failure = outcome.failure.withLock({ $0 }) { throw deviceFailure(failure) }
        return ExitStatus.success
    }

    /// `--reconnect`: the callback API through ``ReconnectingAccelerometerReader``; a lost
    /// device interrupts the detector (cancelling a shake in progress).
    static func runReconnecting(
        _ arguments: ParsedArguments, configuration: ShakeConfiguration, duration: Double?, json: Bool, io: CommandIO
    ) throws -> Int32 {
        let reader = ReconnectingAccelerometerReader(
            uri: arguments.value("uri") ?? IIOContext.defaultURI, device: arguments.value("device"),
            options: try IIOOptions.readOptions(arguments))
        let stopper = SignalStopper(stopping: reader)
        defer { stopper.remove() }
        var session = LiveSession(configuration: configuration, json: json, io: io)
        do {
            try reader.run(onEvent: { event in
                switch event {
                case .connected(let device, let rate, let mode):
                    io.err("Listening to \(device.displayName) at \(hertzText(rate)) Hz (\(mode.rawValue), "
                        + "\(reader.uri)); Ctrl-C to stop.\n")
                case .lost(let error, _):
                    session.interrupted()
                    io.err("Device lost: \(error)\nWaiting for it to come back (Ctrl-C to stop)...\n")
                case .retryFailed(let error):
                    io.err("Still waiting: \(error)\n")
                }
            }) { sample in
                if let duration, sample.time >= duration {
                    reader.stop()
                    return
                }
                session.process(sample)
            }
        } catch let error as IIOError {
            throw deviceFailure(error)
        }
        if io.errIsTerminal { io.err("\r\u{1B}[K") }
        let stats = reader.statistics
        io.err("\(session.shakes) shake\(session.shakes == 1 ? "" : "s") in \(stats.samplesDelivered) samples "
            + "(\(fixed(stats.lastSampleTime ?? 0, 1)) s); dropped \(stats.droppedSamples)\n")
        return ExitStatus.success
    }

    final class LiveOutcome: Sendable {
        let shakes = Mutex(0)
        let failure = Mutex<IIOError?>(nil)
    }

    /// The detector and what `live` prints as samples arrive.
    struct LiveSession {
        var detector: ShakeDetector
        let json: Bool
        let io: CommandIO
        var shakes = 0
        var lastStatus = 0.0
        var lastTime: Double?

        init(configuration: ShakeConfiguration, json: Bool, io: CommandIO) {
            detector = ShakeDetector(configuration: configuration)
            self.json = json
            self.io = io
        }

        mutating func process(_ sample: Sample) {
            lastTime = sample.time
            if let event = detector.process(sample) { report(event) }
            let now = AccelerometerReaderClock.now()
            if io.errIsTerminal && now - lastStatus >= 0.2 {
                lastStatus = now
                io.err("\r\(fixed(sample.time, 1)) s  |a| \(fixed(sample.magnitude, 1)) m/s²  "
                    + "\(detector.isShaking ? "SHAKING" : "still  ")  shakes: \(shakes)\u{1B}[K")
            }
        }

        /// The stream broke: a shake in progress is cancelled.
        mutating func interrupted() {
            if let lastTime, let event = detector.interrupt(at: lastTime) { report(event) }
        }

        mutating func report(_ event: ShakeEvent) {
            if event.phase == .began { shakes += 1 }
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

/// Monotonic seconds for progress throttling.
enum AccelerometerReaderClock {
    static func now() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
