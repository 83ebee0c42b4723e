import Dispatch
import ShakeDetection
import ShakeIIO
import ShakeRecording
import ShakeThreads
import Synchronization

/// `shake devices`: the accelerometers a libiio context offers.
enum DevicesCommand: ShakeCommand {
    static let spec = CommandSpec(
        name: "devices",
        abstract: "List the IIO accelerometers of a libiio context.",
        discussion: """
            Lists devices with accel_x, accel_y and accel_z input channels: name, label, scale \
            (m/s² per LSB), offset (LSB), sampling frequency and the available ones (Hz), whether \
            samples come through a buffer (with a timestamp channel) or by polling, the current \
            trigger and the mount matrix (a device whose matrix cannot be parsed is listed with the \
            problem; reading it needs --mount-matrix), and the measuring range (the largest acceleration \
            each axis reports, from the scale and the scan format; in g and m/s²) with the ranges the driver \
            offers (in_accel_scale_available: write one's scale to in_accel_scale to widen it; shakes during a \
            walk need ±4 g or more). Reading /sys/bus/iio and /dev/iio:device* \
            usually needs root or a udev rule. With --format json: {"uri", "backend", \
            "accelerometers": [{"id", "name", "label", "scale_m_s2_per_lsb", "offset_lsb", \
            "range_m_s2" (null when unknown), "available_scales_m_s2_per_lsb", "available_ranges_m_s2", \
            "sampling_frequency_hz", "available_sampling_frequencies_hz", "buffered", \
            "timestamp_channel", "scan_format", "current_trigger", "mount_matrix" (its rows), \
            "mount_matrix_problem"}]}, null where the device does not say (the lists of available \
            values empty); a device whose axes \
            have scales or offsets of their own (in_accel_y_scale) also has "axis_scales_m_s2_per_lsb" \
            or "axis_offsets_lsb" (x, y, z), and "scale_m_s2_per_lsb" and "offset_lsb" are x's; one \
            whose scale or offset is no number is listed with "attribute_problem" (the value null), and one \
            whose in_accel_scale_available is no list of numbers with "available_scales_problem" (its \
            sampling_frequency_available: "available_sampling_frequencies_problem").
            """,
        options: [IIOOptions.listingURI, IIOOptions.listingTimeout, IIOOptions.verbose, DetectorOptions.formatSpec])

    struct Report: Encodable {
        var uri: String
        var backend: String
        var accelerometers: [AccelerometerDescription]

        enum CodingKeys: String, CodingKey { case uri, backend, accelerometers }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(uri, forKey: .uri)
            try container.encode(backend, forKey: .backend)
            try container.encode(accelerometers.map(DeviceJSON.init), forKey: .accelerometers)
        }
    }

    /// One accelerometer in the keys every JSON output of the tool uses: snake case, with the
    /// unit at the end (the library's `AccelerometerDescription` encodes its property names).
    struct DeviceJSON: Encodable {
        var device: AccelerometerDescription

        enum CodingKeys: String, CodingKey {
            case id, name, label, buffered
            case scale = "scale_m_s2_per_lsb", offset = "offset_lsb"
            case rate = "sampling_frequency_hz", available = "available_sampling_frequencies_hz"
            case timestampChannel = "timestamp_channel", scanFormat = "scan_format"
            case trigger = "current_trigger", mountMatrix = "mount_matrix"
            case mountMatrixProblem = "mount_matrix_problem"
            case attributeProblem = "attribute_problem"
            case axisScales = "axis_scales_m_s2_per_lsb", axisOffsets = "axis_offsets_lsb"
            case range = "range_m_s2", availableScales = "available_scales_m_s2_per_lsb"
            case availableRanges = "available_ranges_m_s2", availableScalesProblem = "available_scales_problem"
            case availableRatesProblem = "available_sampling_frequencies_problem"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(device.id, forKey: .id)
            try container.encode(device.name, forKey: .name)
            try container.encode(device.label, forKey: .label)
            try container.encode(device.scale, forKey: .scale)
            try container.encode(device.offset, forKey: .offset)
            // Only for a device whose axes have scales (offsets) of their own: x, y, z.
            // (null for an axis whose value is no number: see attribute_problem)
            if let yz = device.yzScales { try container.encode([device.scale] + yz, forKey: .axisScales) }
            if let yz = device.yzOffsets { try container.encode([device.offset] + yz, forKey: .axisOffsets) }
            try container.encode(device.rangeMetersPerSecondSquared.map(RoundedNumber.acceleration), forKey: .range)
            try container.encode(device.availableScales, forKey: .availableScales)
            // Each available scale's range (null where the scan format does not say).
            try container.encode(device.availableScales.map { device.range(atScale: $0).map(RoundedNumber.acceleration) },
                                 forKey: .availableRanges)
            // Only when in_accel_scale_available holds anything but numbers.
            try container.encodeIfPresent(device.availableScalesProblem, forKey: .availableScalesProblem)
            try container.encode(device.samplingFrequencyHertz, forKey: .rate)
            try container.encode(device.availableSamplingFrequenciesHertz, forKey: .available)
            // Only when sampling_frequency_available holds anything but numbers.
            try container.encodeIfPresent(device.availableSamplingFrequenciesProblem, forKey: .availableRatesProblem)
            try container.encode(device.isBufferCapable, forKey: .buffered)
            try container.encode(device.hasTimestampChannel, forKey: .timestampChannel)
            // A polled device has no scan elements: libiio's format for one is "le:u0/0>>0".
            try container.encode(device.isBufferCapable ? device.scanFormat : nil, forKey: .scanFormat)
            try container.encode(device.currentTrigger, forKey: .trigger)
            try container.encode(device.mountMatrix?.rows, forKey: .mountMatrix)
            try container.encode(device.mountMatrixProblem, forKey: .mountMatrixProblem)
            // Only for a device with an attribute that is no number (its value then null).
            try container.encodeIfPresent(device.attributeProblem, forKey: .attributeProblem)
        }
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let uri = try IIOOptions.uri(arguments, description: true)
        try IIOOptions.checkDescriptionFile(of: uri)
        let timeout = try arguments.double("timeout", range: 0.01...86_400) ?? 2
        IIOOptions.applyVerbosity(arguments, io: io)
        let report: Report
        do {
            report = try listing(uri: uri, timeout: timeout)
        } catch {
            // A readable file that libiio refuses is no context description (malformed input).
            if let path = IIOOptions.descriptionFile(of: uri), error.function == "iio_create_context_from_uri" {
                throw CommandFailure("\(path): not an IIO context description libiio can read (\(error))",
                                     exitStatus: ExitStatus.dataError)
            }
            throw deviceFailure(error, reconnects: false)
        }
        if wantsJSON(arguments) {
            io.out(jsonText(report))
        } else {
            io.out(text(report))
        }
        return ExitStatus.success
    }

    /// The accelerometers at `uri`. libiio opens the context on a thread of its own, waited for at
    /// most `timeout` seconds: libiio 0.24 gives an iiod that accepts the connection and says
    /// nothing 5 s, whatever the context's timeout, which is set only once it is open. The
    /// attribute reads after it each get `timeout` (`iio_context_set_timeout`). A thread given up
    /// on is left to end with the process.
    /// - Throws: ``IIOError``: libiio's, or `.timedOut` when the context is not open in time.
    static func listing(uri: String, timeout: Double) throws(IIOError) -> Report {
        let opened = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Report, IIOError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        NamedThread.start("shake.devices") {
            let result: Result<Report, IIOError>
            do throws(IIOError) {
                let context: IIOContext
                do throws(IIOError) {
                    context = try IIOContext(uri: uri)
                    opened.signal()
                } catch {
                    opened.signal()
                    throw error
                }
                // A saved description (xml:) reads nothing, and libiio refuses it a timeout.
                if context.backend != "xml" { try context.setTimeout(timeout) }
                result = .success(Report(uri: uri, backend: context.backend, accelerometers: try context.accelerometers()))
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        guard opened.wait(timeout: .now() + timeout) == .success else {
            let waited = "within \(timeout) s (--timeout)"
            throw IIOError(
                code: .timedOut, function: "iio_create_context_from_uri", uri: uri,
                detail: uri.hasPrefix("ip:")
                    ? "iiod at \(uri.dropFirst(3)) did not give the context \(waited): is it hung, or the host overloaded?"
                    : "libiio did not open the context \(waited)",
                kind: .timedOut)
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
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
            if report.backend == "xml" {
                // libiio's xml backend answers every attribute read with ENOSYS.
                text += "    values:         unknown: a saved description lists the channels, not the "
                    + "scale, offset, rate, trigger or mount matrix\n"
                continue
            }
            // A value that is no number is unknown, not absent: said first.
            let unknown = device.attributeProblem.map { problem in
                text += "    problem:        \(problem) (reading it fails so)\n"
                return "unknown (see the problem above)"
            }
            /// `x 0.0048, y unknown, z 0.0048`: each axis's own value.
            func perAxis(_ x: Double?, _ yz: [Double?]) -> String {
                zip(["x", "y", "z"], [x] + yz).map { "\($0) \($1.map { "\($0)" } ?? "unknown")" }.joined(separator: ", ")
            }
            if let yz = device.yzScales {
                text += "    scale:          \(perAxis(device.scale, yz)) m/s² per LSB (each axis its own)\n"
            } else {
                text += "    scale:          \(device.scale.map { "\($0) m/s² per LSB" } ?? unknown ?? "none (raw values used as m/s²)")\n"
            }
            if let yz = device.yzOffsets {
                text += "    offset:         \(perAxis(device.offset, yz)) LSB (each axis its own)\n"
            } else {
                text += "    offset:         \(device.offset.map { "\($0) LSB" } ?? unknown ?? "0")\n"
            }
            text += "    range:          \(DeviceRange.listing(device, valuesUnknown: unknown != nil))\n"
            let rateUnknown = device.attributeProblem?.contains("attribute \"sampling_frequency\"") == true
            var rate = device.samplingFrequencyHertz.map { "\(hertzText($0)) Hz" }
                ?? (rateUnknown ? "unknown (see the problem above)" : "not adjustable")
            if !device.availableSamplingFrequenciesHertz.isEmpty {
                rate += " (available: " + device.availableSamplingFrequenciesHertz.map(hertzText).joined(separator: " ") + ")"
            } else if let problem = device.availableSamplingFrequenciesProblem {
                rate += " (available: unknown: \(problem))"
            }
            if let current = device.samplingFrequencyHertz, SlowSampleRate.isTooSlow(current) {
                rate += "; under the \(hertzText(ShakeDetector.slowestSupportedSampleRate)) Hz the detector is made for"
                if let slowest = SlowSampleRate.fastEnoughRates(device).first {
                    rate += ": read it with --rate \(hertzText(slowest)) or more"
                }
            }
            text += "    sampling:       \(rate)\n"
            text += "    trigger:        \(device.currentTrigger ?? "none")\n"
            if let problem = device.mountMatrixProblem {
                text += "    mount matrix:   unusable (reading needs --mount-matrix): \(problem)\n"
            } else {
                text += "    mount matrix:   \(device.mountMatrix.map { "\($0)" } ?? "none (identity)")\n"
            }
        }
        return text
    }
}
