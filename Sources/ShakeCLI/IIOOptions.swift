#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ShakeIIO

/// Options shared by the commands that read IIO devices.
enum IIOOptions {
    static let uri = OptionSpec.option(
        "uri", value: "uri",
        help: "libiio context: local: (this machine), ip:HOST (a remote iiod), usb:BUS.ADDR.INTF or usb:.",
        default: "local:")
    /// `--uri` of `devices`, which also lists a saved description (`record` and `live` need samples).
    static let listingURI = OptionSpec.option(
        "uri", value: "uri",
        help: "libiio context: local: (this machine), ip:HOST (a remote iiod), usb:BUS.ADDR.INTF or usb:, "
            + "or xml:FILE (a context description saved as XML, e.g. by iio_genxml).",
        default: "local:")
    static let device = OptionSpec.option(
        "device", value: "name", help: "Accelerometer name, label or id (default: the first accelerometer).")
    static let rate = OptionSpec.option(
        "rate", value: "hz", help: "Sampling rate in hertz; the nearest rate the device offers is used (default: the device's), "
            + "and the device's own rate is put back at the end. The detector is made for 25 Hz or more: a slower "
            + "rate is warned about.")
    static let mode = OptionSpec.option(
        "mode", value: "mode", help: "buffered reads the device's buffer, polled reads in_accel_*_raw at the rate.",
        values: ["auto", "buffered", "polled"], default: "auto")
    static let timeout = OptionSpec.option(
        "timeout", value: "seconds",
        help: "End with an error when no sample arrives for this long, or the device is not open by then.", default: "2")
    /// `--timeout` of `devices`, which reads no samples.
    static let listingTimeout = OptionSpec.option(
        "timeout", value: "seconds",
        help: "End with an error when the context is not open by then (libiio alone waits 5 s for an iiod that does "
            + "not answer), or a read of the device's attributes takes longer.", default: "2")
    static let duration = OptionSpec.option(
        "duration", value: "seconds",
        help: "Stop at the first sample this many seconds or more from the first, keeping the samples before it (so "
            + "they span up to a sample period less: 1.92 s of 2 at 12.5 Hz); an outage waited out with --reconnect "
            + "counts; default: until Ctrl-C.")
    static let mountMatrix = OptionSpec.option(
        "mount-matrix", value: "matrix",
        help: "Mount matrix \"x, y, z; x, y, z; x, y, z\" to use instead of the device's (a rotation; a mirrored axis is allowed).")

    static let reconnect = OptionSpec.flag(
        "reconnect",
        help: "When the device vanishes or stalls, wait for it to come back and go on (times stay continuous); "
            + "wait too for a device or iiod not there yet at the start.")

    static let verbose = OptionSpec.flag(
        "verbose", help: "Also show libiio's own messages (e.g. 'WARNING: High-speed mode not enabled'), hidden by default.")

    static let keepBatchTimes = OptionSpec.flag(
        "keep-batch-times",
        help: "Keep the driver's timestamps as they are. By default, when the samples come in FIFO batches stamped "
            + "with one time (or microseconds apart, as read out), each sample gets its own time, spread over the "
            + "batch's period (see 'shake help replay', --spread-batches); kept, a sample whose time does not "
            + "increase is discarded (the summary counts them).")

    static let all: [OptionSpec] = [uri, device, rate, mode, timeout, mountMatrix, keepBatchTimes, verbose]

    /// Hides libiio's own messages on stderr unless --verbose is given (see ``LibIIODiagnostics``),
    /// when the command owns the process's stderr. Not undone when the command returns: the
    /// process ends with it, and a connection abandoned on Ctrl-C may still be finishing inside
    /// libiio (and printing) until then.
    static func applyVerbosity(_ arguments: ParsedArguments, io: CommandIO) {
        if io.ownsProcessStandardError && !arguments.flag("verbose") { LibIIODiagnostics.hide() }
    }

    /// The `--uri` value (default `local:`).
    /// - Throws: `UsageError` for a URI without one of libiio's schemes (a bare host name, say),
    ///   and for `xml:` unless `description` (a description has no samples to read).
    static func uri(_ arguments: ParsedArguments, description: Bool = false) throws(UsageError) -> String {
        let uri = arguments.value("uri") ?? IIOContext.defaultURI
        if let problem = IIOContext.schemeProblem(in: uri, forSamples: !description) {
            throw UsageError("'--uri \(uri)': \(problem)")
        }
        if uri.hasPrefix(xmlScheme) {
            guard description else {
                throw UsageError("'--uri \(uri)': an xml: context is a saved description, without samples; "
                    + "read a device through local:, ip:HOST or usb: ('shake devices --uri \(uri)' lists it)")
            }
            if uri.count == xmlScheme.count { throw UsageError("'--uri xml:' names no file: give xml:FILE") }
        }
        return uri
    }

    static let xmlScheme = "xml:"

    /// The file of an `xml:FILE` URI, or nil for another scheme.
    static func descriptionFile(of uri: String) -> String? {
        uri.hasPrefix(xmlScheme) ? String(uri.dropFirst(xmlScheme.count)) : nil
    }

    /// Throws (exit 66, naming the file) when the file of an `xml:FILE` URI does not exist, is a
    /// folder or cannot be read: libiio would say only "Invalid argument".
    static func checkDescriptionFile(of uri: String) throws {
        guard let path = descriptionFile(of: uri) else { return }
        func missing(_ message: String) -> CommandFailure {
            CommandFailure("\(path): \(message)", exitStatus: ExitStatus.noInput)
        }
        var fd: CInt
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            let code = errno
            throw missing(code == ENOENT ? "no such file"
                : "cannot be read: \(String(cString: strerror(code))) (errno \(code))")
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw missing("is a directory, not an IIO context description")
        }
    }

    static func readOptions(_ arguments: ParsedArguments) throws -> AccelerometerReadOptions {
        var options = AccelerometerReadOptions()
        options.spreadsBatchedTimes = !arguments.flag("keep-batch-times")
        options.rateHertz = try arguments.double("rate", range: 0.001...1_000_000)
        options.readTimeout = try arguments.double("timeout", range: 0.01...86_400) ?? 2
        switch arguments.value("mode") ?? "auto" {
        case "buffered": options.mode = .buffered
        case "polled": options.mode = .polled
        default: options.mode = .automatic
        }
        if let text = arguments.value("mount-matrix") {
            let matrix: MountMatrix
            do {
                matrix = try MountMatrix(parsing: text)
            } catch {
                throw UsageError("--mount-matrix: \(error.detail ?? "\(error)")")
            }
            if let problem = matrix.rotationProblem { throw UsageError("--mount-matrix '\(text)': \(problem)") }
            options.mountMatrix = matrix
        }
        return options
    }
}

/// An ``IIOError`` as a CLI failure: exit status 74 (`EX_IOERR`); 77 (`EX_NOPERM`) for access;
/// 66 (`EX_NOINPUT`) when the accelerometer asked for (`--device NAME`, or any), the trigger,
/// the IIO context (no IIO devices here) or the host is not there: the input named does not
/// exist, as for a missing recording file.
/// A device that vanished or stalled ends a run only without --reconnect: say that it exists,
/// when the command offers it (`reconnects`: `live` and `record`, not `devices`).
func deviceFailure(_ error: IIOError, reconnects: Bool = true) -> CommandFailure {
    var text = "\(error)"
    if reconnects && (error.kind == .deviceGone || error.kind == .timedOut) {
        text += " (--reconnect waits for the device to come back)"
    }
    // The library says what to do in its own terms; the tool's flag does it.
    text = text.replacing("; use polled mode", with: "; pass --mode polled (or leave --mode out)")
        .replacing("; or read by polling instead (polled mode)", with: "; or read by polling instead (--mode polled)")
        .replacing("or read by polling without setting the rate", with: "or pass --mode polled without --rate")
    if error.function == "mount matrix", error.kind == .badValue {
        text += "; pass --mount-matrix with the board's true matrix (\"1, 0, 0; 0, 1, 0; 0, 0, 1\": the sensor's "
            + "axes as they are) to read it regardless"
    }
    let status = switch error.kind {
    case .permissionDenied: ExitStatus.noPermission
    case .notFound: ExitStatus.noInput
    default: ExitStatus.ioError
    }
    return CommandFailure(text, exitStatus: status)
}

/// What `live` and `record` print when, with --reconnect, the device or iiod is not there at
/// the start: what they wait for, and why.
func waitingText(_ error: IIOError, uri: String, device: String?) -> String {
    let unreachable = [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EHOSTDOWN, ETIMEDOUT].contains(error.code.rawValue)
    let what = uri.hasPrefix("ip:") && error.function == "iio_create_context_from_uri" && unreachable
        ? "iiod at \(uri.dropFirst(3)) to answer"
        : "\(device.map { "accelerometer '\($0)'" } ?? "an accelerometer") at \(uri) to appear"
    return "Waiting for \(what) (--reconnect; Ctrl-C to stop): \(error)\n"
}

/// The outages in a summary, e.g. `; 1 outage (1.6 s without the device)`; empty when none.
func outageText(_ statistics: AccelerometerReadStatistics) -> String {
    guard statistics.outages > 0 else { return "" }
    return "; \(statistics.outages) outage\(statistics.outages == 1 ? "" : "s") "
        + "(\(fixed(statistics.outageSeconds, 1)) s without the device)"
}

/// `; 1788 sample times spread over their FIFO batches (the driver stamps a batch once, or as it
/// reads it out)` when the reader spread any (`AccelerometerReadOptions.spreadsBatchedTimes`);
/// else empty.
func spreadText(_ statistics: AccelerometerReadStatistics) -> String {
    let spread = statistics.spreadSamples
    guard spread > 0 else { return "" }
    return "; \(spread) sample time\(spread == 1 ? "" : "s") spread over \(spread == 1 ? "its" : "their") FIFO batches "
        + "(the driver stamps a batch once, or as it reads it out)"
}

/// `; 1788 samples discarded: their time did not increase` when the reader discarded any
/// (``AccelerometerReadStatistics/outOfOrderSamples``), with what to do when that came of
/// `--keep-batch-times`; else empty.
func discardedText(_ statistics: AccelerometerReadStatistics, keptBatchTimes: Bool) -> String {
    let discarded = statistics.outOfOrderSamples
    guard discarded > 0 else { return "" }
    return "; \(counted(discarded, "sample")) discarded: \(discarded == 1 ? "its" : "their") time did not increase"
        + (keptBatchTimes ? " (a FIFO batch stamped once? leave out --keep-batch-times to spread them)" : "")
}

/// `; the device's clock went back 2 times (the times after follow on)` when the timestamps
/// stepped back (``AccelerometerReadStatistics/clockStepsBack``); else empty.
func clockText(_ statistics: AccelerometerReadStatistics) -> String {
    let steps = statistics.clockStepsBack
    guard steps > 0 else { return "" }
    return "; the device's clock went back \(steps == 1 ? "once" : "\(steps) times") (the times after follow on)"
}

/// `; the device delivers about 100 Hz, not the 400 Hz it reports (drops counted at 100 Hz)`
/// when the rate measured from the samples' times is more than 25 % off the device's; else empty.
func measuredRateText(_ statistics: AccelerometerReadStatistics, reported: Double) -> String {
    guard let measured = statistics.measuredRateHertz else { return "" }
    return "; the device delivers about \(hertzText(measured.rounded())) Hz, not the \(hertzText(reported)) Hz it "
        + "reports (drops counted at \(hertzText(measured.rounded())) Hz)"
}

/// Formats `value` in hertz without needless decimals: `51`, `12.5`.
func hertzText(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e12 ? String(Int64(value)) : String(value)
}

/// Monotonic seconds for progress throttling.
enum AccelerometerReaderClock {
    static func now() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
