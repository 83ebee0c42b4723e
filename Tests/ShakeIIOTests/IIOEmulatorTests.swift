import Foundation
import Testing

/// End-to-end tests of `shake devices`, `shake record` and `shake live` against the emulated
/// accelerometer of `Scripts/iio-emulator`, through libiio's real local and network (iiod)
/// backends. Need root; fail loudly otherwise unless SHAKEKIT_SKIP_IIO=1.
@Suite(.serialized, .enabled(if: !Emulator.skipRequested, "SHAKEKIT_SKIP_IIO=1 is set"))
final class IIOEmulatorTests: EmulatorSuite {
    static let uris = ["local:", "ip:127.0.0.1"]
    static let scale = Fixture.scale
    static let tolerance = Fixture.tolerance

    func output(_ name: String = "recording.csv") -> String { directory.appendingPathComponent(name).path }

    func expectSamples(_ recorded: [Fixture.Row], match expected: ArraySlice<Fixture.Row>,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        Fixture.expectSamples(recorded, match: expected, sourceLocation: sourceLocation)
    }

    @Test(arguments: uris)
    func devicesListsTheEmulatedAccelerometer(uri: String) throws {
        let shake = try Emulator.shake
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--iiod", "--name", "test-accel", "--label", "lid"],
            command: [shake, "devices", "--uri", uri, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let devices = try #require(json["accelerometers"] as? [[String: Any]])
        #expect(devices.count == 1)
        let device = try #require(devices.first)
        #expect(device["name"] as? String == "test-accel")
        #expect(device["label"] as? String == "lid")
        // The keys of every JSON output of the tool: snake case, the unit at the end.
        #expect(Set(device.keys) == ["id", "name", "label", "scale_m_s2_per_lsb", "offset_lsb", "range_m_s2",
                                     "available_scales_m_s2_per_lsb", "available_ranges_m_s2", "sampling_frequency_hz",
                                     "available_sampling_frequencies_hz", "buffered", "timestamp_channel", "scan_format",
                                     "current_trigger", "mount_matrix", "mount_matrix_problem"], "\(device.keys)")
        #expect(device["scale_m_s2_per_lsb"] as? Double == Self.scale)
        #expect(device["offset_lsb"] as? Double == 0)
        #expect(device["sampling_frequency_hz"] as? Double == 50)
        #expect((device["available_sampling_frequencies_hz"] as? [Double])?.contains(50) == true)
        #expect(device["buffered"] as? Bool == true)
        #expect(device["timestamp_channel"] as? Bool == true)
        #expect(device["scan_format"] as? String == "le:s16/16>>0")
        // 32767 counts of the scale, the emulator's ±16 g; it publishes no in_accel_scale_available.
        #expect(device["range_m_s2"] as? Double == 156.888)
        #expect(device["available_scales_m_s2_per_lsb"] as? [Double] == [])
        #expect(device["current_trigger"] as? String == "test-accel-dev0")
        #expect(device["mount_matrix"] is NSNull && device["mount_matrix_problem"] is NSNull)
        #expect(json["backend"] as? String == (uri == "local:" ? "local" : "network"))
    }

    /// A device set to sample under 25 Hz: `devices` says so beside its rate, and which rate to
    /// read it at instead.
    @Test func devicesFlagsARateUnderTheDetectorsSlowest() throws {
        let shake = try Emulator.shake
        let slow = try Emulator.run(fixture: fixture.path, options: ["--rate-hz", "12.5"], command: [shake, "devices"])
        #expect(slow.status == 0, "\(slow.stderr)")
        #expect(slow.stdout.contains("    sampling:       12.5 Hz (available: 12.5 25 50 100 200 400); under the 25 Hz "
                                     + "the detector is made for: read it with --rate 25 or more\n"), "\(slow.stdout)")
        let own = try Emulator.run(fixture: fixture.path, options: [], command: [shake, "devices"])
        #expect(own.stdout.contains("    sampling:       50 Hz (available: 12.5 25 50 100 200 400)\n"), "\(own.stdout)")
    }

    /// The scales a lis3dh-like driver offers (m/s² per LSB), ±2 g to ±16 g.
    static let scalesOffered = "0.000598 0.001196 0.002392 0.004785"

    /// A device set to ±2 g (in_accel_scale 0.000598): `devices` shows its measuring range in g
    /// and m/s², that it is under what a shake during a walk needs, and the ranges its driver
    /// offers (in_accel_scale_available), in text and JSON, through both backends.
    @Test(arguments: uris)
    func devicesShowsTheRangeAndTheRangesOffered(uri: String) throws {
        let shake = try Emulator.shake
        let result = try Emulator.run(
            fixture: fixture.path,
            options: ["--iiod", "--scale", "0.000598", "--sysfs-attr", "in_accel_scale_available=\(Self.scalesOffered)"],
            command: ["sh", "-c", "\"$0\" devices --uri \"$1\" && \"$0\" devices --uri \"$1\" --format json", shake, uri])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("    range:          ±2 g (19.6 m/s²), under the 25 m/s² a shake during a walk needs "
            + "(medium) (available: ±2 g at scale 0.000598, ±4 g at 0.001196, ±8 g at 0.002392, ±16 g at 0.004785)\n"),
                "\(result.stdout)")
        let json = try #require(result.stdout.range(of: "{").map { String(result.stdout[$0.lowerBound...]) })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let device = try #require((object["accelerometers"] as? [[String: Any]])?.first)
        #expect(device["range_m_s2"] as? Double == 19.595, "\(device)")
        #expect(device["available_scales_m_s2_per_lsb"] as? [Double] == [0.000598, 0.001196, 0.002392, 0.004785])
        #expect(device["available_ranges_m_s2"] as? [Double] == [19.595, 39.189, 78.379, 156.79])
        #expect(device["available_scales_problem"] == nil)
        // The emulator's own ±16 g: no word about walks, and no list it does not publish.
        let wide = try Emulator.run(fixture: fixture.path, options: [], command: [shake, "devices"])
        #expect(wide.stdout.contains("    range:          ±16 g (157 m/s²)\n"), "\(wide.stdout)")
        // A polled device does not say how many bits its raw values have.
        let polled = try Emulator.run(fixture: fixture.path, options: ["--no-buffer"], command: [shake, "devices"])
        #expect(polled.stdout.contains("    range:          unknown (no scan format: a polled device does not say its "
            + "raw values' bits)\n"), "\(polled.stdout)")
        // In JSON too: no scan format (libiio's for a device without scan elements is
        // "le:u0/0>>0", which `devices --format json` gave until stop 50).
        let polledJSON = try Emulator.run(fixture: fixture.path, options: ["--no-buffer"],
                                          command: [shake, "devices", "--format", "json"])
        let polledObject = try #require(try JSONSerialization.jsonObject(with: Data(polledJSON.stdout.utf8)) as? [String: Any])
        let polledDevice = try #require((polledObject["accelerometers"] as? [[String: Any]])?.first)
        #expect(polledDevice["buffered"] as? Bool == false)
        #expect(polledDevice["scan_format"] is NSNull, "\(polledDevice)")
        #expect(polledDevice["range_m_s2"] is NSNull, "\(polledDevice)")
    }

    /// `live` and `record` on a ±2 g device: one warning at the start, saying the range, what it
    /// means for shakes during a walk and after a pause, and how to widen it (the ranges offered,
    /// the sysfs file to write). The run goes on and exits 0. The emulator's own ±16 g: no warning.
    @Test(arguments: ["live", "record"])
    func aRangeTooNarrowForShakesDuringAWalkIsWarnedAbout(command: String) throws {
        let shake = try Emulator.shake
        let arguments = command == "live" ? "live --duration 2" : "record --duration 2 -o \"$1\""
        let narrow = try Emulator.run(
            fixture: fixture.path,
            options: ["--fast", "--scale", "0.000598", "--sysfs-attr", "in_accel_scale_available=\(Self.scalesOffered)"],
            command: ["sh", "-c", "\"$0\" \(arguments) > /dev/null", shake, output()])
        #expect(narrow.status == 0, "\(narrow.stderr)")
        let warnings = narrow.stderr.split(separator: "\n").filter { $0.hasPrefix("Warning: ") }
        let widen = " It offers ±4 g, ±8 g and ±16 g: write the scale of one to "
            + "/sys/bus/iio/devices/iio:device0/in_accel_scale (as root), e.g. 0.001196 for ±4 g, then start again."
        let expected = command == "live"
            ? "Warning: shakekit-accel measures ±2 g (19.6 m/s²) per axis, under the 25 m/s² that the medium preset "
                + "needs of a shake's strokes during a walk or run: strokes are clipped, so a shake during a walk or run "
                + "is often missed (always when its strokes lie along one axis across gravity); a shake after a pause "
                + "is still found." + widen
            : "Warning: shakekit-accel measures ±2 g (19.6 m/s²) per axis: strokes beyond it are clipped in the "
                + "recording, and a shake during a walk or run, which needs strokes of 25 m/s² with the medium preset, "
                + "is often missed in it (always when its strokes lie along one axis across gravity); a shake after a pause "
                + "is still found." + widen
        #expect(warnings == [Substring(expected)], "\(narrow.stderr)")
        let wide = try Emulator.run(fixture: fixture.path, options: ["--fast"],
                                    command: ["sh", "-c", "rm -f \"$1\"; \"$0\" \(arguments) > /dev/null", shake, output()])
        #expect(wide.status == 0, "\(wide.stderr)")
        #expect(!wide.stderr.contains("Warning"), "\(wide.stderr)")
    }

    /// A 12-bit device as lis3dh is (`le:s12/16>>4`, 0.009576 m/s² per LSB: ±2 g): its values
    /// are read through libiio's shift, every axis clipped at 2047 counts, and its range is said
    /// from its 12 bits, not the 16 it is stored in.
    @Test func aTwelveBitDeviceIsReadAndItsRangeSaidFromItsBits() throws {
        let shake = try Emulator.shake
        let scale = 0.009576
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--fast", "--bits", "12", "--scale", "\(scale)"],
            command: ["sh", "-c", "\"$0\" devices && \"$0\" record --duration 4 -o \"$1\"", shake, output()])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("    reading:        buffered, timestamp channel, format le:s12/16>>4\n"), "\(result.stdout)")
        #expect(result.stdout.contains("    range:          ±2 g (19.6 m/s²), under the 25 m/s² a shake during a walk "
            + "needs (medium)\n"), "\(result.stdout)")
        #expect(result.stderr.contains("Warning: shakekit-accel measures ±2 g (19.6 m/s²) per axis: strokes beyond it "
            + "are clipped in the recording"), "\(result.stderr)")
        let recording = try Fixture.readRecording(output())
        let limit = 2047 * scale
        let expected = fixture.rows.prefix { $0.time < 4 }
        #expect(recording.rows.count == expected.count)
        var worst = 0.0
        for (got, want) in zip(recording.rows, expected) {
            for (value, truth) in [(got.x, want.x), (got.y, want.y), (got.z, want.z)] {
                worst = max(worst, abs(value - min(limit, max(-limit - scale, truth))))
            }
        }
        #expect(worst <= scale / 2 + 1.1e-5, "largest difference \(worst) m/s²")
    }

    /// An in_accel_scale_available that is no list of numbers (`2g 4g`): `devices` says so, naming
    /// the device, attribute and text, in place of the ranges offered; the device is read all the
    /// same (the list is for information), and a ±2 g one is still warned about.
    @Test func anAvailableScaleListThatIsNoListIsSaidAndTheDeviceStillRead() throws {
        let shake = try Emulator.shake
        let script = "\"$0\" devices; \"$0\" devices --format json > \"$1.json\"; "
            + "\"$0\" live --duration 1 > /dev/null; echo \"live $?\""
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--fast", "--scale", "0.000598", "--sysfs-attr", "in_accel_scale_available=2g 4g"],
            command: ["sh", "-c", script, shake, output()])
        let problem = "iio_channel_attr_read(device \"shakekit-accel\", channel \"accel_x\", attribute \"scale_available\"): "
            + "Invalid argument (EINVAL): '2g 4g' is not a list of numbers (scales in m/s² per LSB)"
        #expect(result.stdout.contains("    range:          ±2 g (19.6 m/s²), under the 25 m/s² a shake during a walk "
            + "needs (medium) (available: unknown: \(problem))\n"), "\(result.stdout)")
        #expect(!result.stdout.contains("    problem:"), "\(result.stdout)")
        #expect(result.stdout.contains("live 0\n"), "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains(" Its in_accel_scale_available cannot be read (\(problem)); a wider range its "
            + "driver offers is set by writing its scale to /sys/bus/iio/devices/iio:device0/in_accel_scale.\n"),
                "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output() + ".json"))) as? [String: Any])
        let device = try #require((json["accelerometers"] as? [[String: Any]])?.first)
        #expect(device["available_scales_problem"] as? String == problem, "\(device)")
        #expect(device["available_scales_m_s2_per_lsb"] as? [Double] == [])
        #expect(device["attribute_problem"] == nil)
    }

    /// The same for a sampling_frequency_available that is no list (`12.5Hz 25Hz`), which was
    /// left out without a word: `devices` says so in place of the rates offered, and `live
    /// --rate` still reads the device (the rate written as asked, for the driver to round).
    @Test func anAvailableRateListThatIsNoListIsSaidAndTheDeviceStillRead() throws {
        let shake = try Emulator.shake
        let script = "\"$0\" devices; \"$0\" devices --format json > \"$1.json\"; "
            + "\"$0\" live --rate 100 --duration 1 > /dev/null; echo \"live $?\""
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--fast", "--sysfs-attr", "sampling_frequency_available=12.5Hz 25Hz"],
            command: ["sh", "-c", script, shake, output()])
        let problem = "iio_device_attr_read(device \"shakekit-accel\", attribute \"sampling_frequency_available\"): "
            + "Invalid argument (EINVAL): '12.5Hz 25Hz' is not a list of numbers (rates in Hz) or a range [low step high]"
        #expect(result.stdout.contains("    sampling:       50 Hz (available: unknown: \(problem))\n"), "\(result.stdout)")
        #expect(result.stdout.contains("live 0\n"), "\(result.stdout)\n\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output() + ".json"))) as? [String: Any])
        let device = try #require((json["accelerometers"] as? [[String: Any]])?.first)
        #expect(device["available_sampling_frequencies_problem"] as? String == problem, "\(device)")
        #expect(device["available_sampling_frequencies_hz"] as? [Double] == [])
        #expect(device["attribute_problem"] == nil)
    }

    @Test func devicesTextShowsPollingForADeviceWithoutBuffer() throws {
        let shake = try Emulator.shake
        let result = try Emulator.run(fixture: fixture.path, options: ["--no-buffer"], command: [shake, "devices"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("iio:device0: shakekit-accel"))
        #expect(result.stdout.contains("polled (no buffer)"))
        #expect(result.stdout.contains("50 Hz"))
    }

    @Test(arguments: uris)
    func recordGivesBackTheFixture(uri: String) throws {
        let shake = try Emulator.shake
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--iiod", "--fast"],
            command: [shake, "record", "--uri", uri, "--duration", "10", "-o", output()])
        #expect(result.status == 0, "\(result.stderr)")
        let recording = try Fixture.readRecording(output())
        #expect(recording.metadata["device"] == "shakekit-accel")
        #expect(recording.metadata["rate_hz"] == "50")
        expectSamples(recording.rows, match: fixture.rows.prefix { $0.time < 10 })
    }

    /// A driver with per-axis calibration (`in_accel_y_scale`, `in_accel_z_offset`: each axis its
    /// own, none shared) and one with unsigned values (`le:u16/16>>0`, rest at 32768): recorded as
    /// the fixture. (The axes had all been read with x's scale and offset, and unsigned values
    /// as signed: -313 m/s² for 0.)
    @Test(arguments: [["--axis-scale", "y=0.002394", "--axis-offset", "y=100", "--axis-offset", "z=-2000"],
                      ["--unsigned", "--offset", "-32768"]])
    func eachAxisOwnScaleAndOffsetAndUnsignedValuesAreRead(options: [String]) throws {
        let shake = try Emulator.shake
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--fast"] + options,
            command: ["sh", "-c", "\"$0\" devices --format json && \"$0\" record --duration 4 -o \"$1\"", shake, output()])
        #expect(result.status == 0, "\(result.stderr)")
        let recording = try Fixture.readRecording(output())
        expectSamples(recording.rows, match: fixture.rows.prefix { $0.time < 4 })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let device = try #require((json["accelerometers"] as? [[String: Any]])?.first)
        if options[0] == "--unsigned" {
            #expect(device["scan_format"] as? String == "le:u16/16>>0")
            #expect(device["offset_lsb"] as? Double == -32768)
            #expect(device["axis_scales_m_s2_per_lsb"] == nil && device["axis_offsets_lsb"] == nil)
        } else {
            #expect(device["axis_scales_m_s2_per_lsb"] as? [Double] == [Self.scale, 0.002394, Self.scale])
            #expect(device["axis_offsets_lsb"] as? [Double] == [0, 100, -2000])
            #expect(device["scale_m_s2_per_lsb"] as? Double == Self.scale)
        }
    }

    /// A driver whose `in_accel_scale` is no number (`0.009576 (2g)`), or no finite one (`inf`,
    /// which would make every sample infinite): `devices` lists the device with the problem (it
    /// had failed the whole listing, exit 74); reading it fails, naming it.
    @Test(arguments: ["0.009576 (2g)", "inf"])
    func devicesListsADeviceWithAnAttributeThatIsNoNumber(text: String) throws {
        let shake = try Emulator.shake
        let script = "\"$0\" devices; echo \"devices $?\"; \"$0\" devices --format json > \"$1.json\"; "
            + "\"$0\" record --duration 1 -o \"$1\"; echo \"record $?\""
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--sysfs-attr", "in_accel_scale=\(text)"],
            command: ["sh", "-c", script, shake, output()])
        let problem = "attribute \"scale\"): Invalid argument (EINVAL): '\(text)' is not a number"
        #expect(result.stdout.contains("    problem:        iio_channel_attr_read(device \"shakekit-accel\", channel \"accel_x\", \(problem) (reading it fails so)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("    scale:          unknown (see the problem above)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("devices 0\nrecord 74\n"), "\(result.stdout)")
        #expect(result.stderr.contains(problem), "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output() + ".json"))) as? [String: Any])
        let device = try #require((json["accelerometers"] as? [[String: Any]])?.first)
        #expect((device["attribute_problem"] as? String)?.contains(problem) == true)
        #expect(device["scale_m_s2_per_lsb"] is NSNull)
    }

    // Defect: a sampling_frequency that was no number was listed as "not adjustable" with no
    // problem, and read at 100 Hz (or --rate, never set) without a word.
    /// A `sampling_frequency` that is no number: `devices` lists the device with the problem,
    /// naming the device, attribute and what it held, and the rate as unknown; reading fails so.
    @Test(arguments: ["100.000 Hz", "abc", "inf"])
    func aSamplingFrequencyThatIsNoNumberIsAProblem(text: String) throws {
        let shake = try Emulator.shake
        let script = "\"$0\" devices; echo \"devices $?\"; \"$0\" devices --format json > \"$1.json\"; "
            + "\"$0\" record --rate 25 --duration 1 -o \"$1\"; echo \"record $?\""
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--sysfs-attr", "sampling_frequency=\(text)"],
            command: ["sh", "-c", script, shake, output()])
        let problem = "iio_device_attr_read(device \"shakekit-accel\", attribute \"sampling_frequency\"): "
            + "Invalid argument (EINVAL): '\(text)' is not a number"
        #expect(result.stdout.contains("    problem:        \(problem) (reading it fails so)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("    sampling:       unknown (see the problem above) (available: "), "\(result.stdout)")
        #expect(result.stdout.contains("devices 0\nrecord 74\n"), "\(result.stdout)")
        #expect(result.stderr.contains(problem), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output()))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output() + ".json"))) as? [String: Any])
        let device = try #require((json["accelerometers"] as? [[String: Any]])?.first)
        #expect((device["attribute_problem"] as? String)?.contains(problem) == true, "\(device)")
        #expect(device["sampling_frequency_hz"] is NSNull)
    }

    /// An axis's own scale that is no number: listed as unknown (null in JSON), not as 1.
    @Test func anAxisScaleThatIsNoNumberIsListedAsUnknown() throws {
        let shake = try Emulator.shake
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--axis-scale", "y=0.0096", "--sysfs-attr", "in_accel_y_scale=0.0096 (2g)"],
            command: ["sh", "-c", "\"$0\" devices && \"$0\" devices --format json", shake])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("    scale:          x \(Self.scale), y unknown, z \(Self.scale) m/s² per LSB (each axis its own)\n"),
                "\(result.stdout)")
        let json = try #require(result.stdout.range(of: "{").map { String(result.stdout[$0.lowerBound...]) })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let device = try #require((object["accelerometers"] as? [[String: Any]])?.first)
        let scales = try #require(device["axis_scales_m_s2_per_lsb"] as? [Any])
        #expect(scales.count == 3 && scales[1] is NSNull && scales[0] as? Double == Self.scale, "\(scales)")
    }

    @Test(arguments: uris)
    func droppedSamplesAreCountedAndReported(uri: String) throws {
        let shake = try Emulator.shake
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--iiod", "--fast", "--drop", "100:109"],
            command: [shake, "record", "--uri", uri, "--duration", "4", "-o", output()])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("dropped 10 in 1 gap"), "\(result.stderr)")
        let recording = try Fixture.readRecording(output())
        let expected = fixture.rows.prefix(100) + fixture.rows[110..<200]
        expectSamples(recording.rows, match: expected[...])
    }

    /// Samples never delivered among the first 32 intervals (those the rate is checked over)
    /// are counted too, whether reading goes on past them (4 s) or ends before (0.5 s: 20
    /// samples): samples 10 to 14 (0.2 to 0.28 s) are dropped, 5 in 1 gap.
    @Test(arguments: [4.0, 0.5])
    func dropsAmongTheFirstSamplesAreCounted(duration: Double) throws {
        let shake = try Emulator.shake
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--fast", "--drop", "10:14"],
            command: [shake, "record", "--duration", "\(duration)", "-o", output()])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("; dropped 5 in 1 gap -> "), "\(result.stderr)")
        let recording = try Fixture.readRecording(output())
        let expected = fixture.rows.prefix(10) + fixture.rows[15..<Int(duration * Fixture.rateHertz)]
        expectSamples(recording.rows, match: expected[...])
    }

    @Test func recordLeavesAnExistingFileAlone() throws {
        let shake = try Emulator.shake
        try "precious\n".write(toFile: output(), atomically: true, encoding: .utf8)
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--fast"],
            command: [shake, "record", "--duration", "1", "-o", output()])
        #expect(result.status == 73)
        #expect(result.stderr.contains("already exists"), "\(result.stderr)")
        #expect(try String(contentsOfFile: output(), encoding: .utf8) == "precious\n")
    }

    /// A polled raw value that is no whole number: an error naming the device, channel and
    /// attribute (1e30 trapped the tool, 12.7 was cut to 12); a whole number written as 12.0
    /// is read.
    @Test(arguments: [("1e30", 74), ("12.7", 74), ("12.0", 0)])
    func aPolledRawValueMustBeAWholeNumber(value: String, status: Int32) throws {
        let shake = try Emulator.shake
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--no-buffer", "--stall-after", "0", "--sysfs-attr", "in_accel_x_raw=\(value)"],
            command: [shake, "record", "--duration", "0.2", "-o", output()])
        #expect(result.status == status, "\(result.stderr)")
        if status != 0 {
            #expect(result.stderr.contains("device \"shakekit-accel\", channel \"accel_x\", attribute \"raw\")"), "\(result.stderr)")
            #expect(result.stderr.contains("'\(value)' is not an integer"), "\(result.stderr)")
        } else {
            let rows = try Fixture.readRecording(output()).rows
            #expect(!rows.isEmpty && rows.allSatisfy { abs($0.x - 12 * Self.scale) < 1e-5 }, "\(rows.prefix(3))")
        }
    }

    /// A driver reporting 0 Hz: an error naming the attribute and --rate, in both modes (polled
    /// reading had hung for ever, and times without a timestamp channel were NaN); with --rate
    /// the device is read.
    @Test(arguments: ["buffered", "polled"])
    func aDeviceReportingNoRateNeedsOne(mode: String) throws {
        let shake = try Emulator.shake
        let script = "\"$0\" record --mode \(mode) --duration 1 -o \"$1\"; echo $?; "
            + "\"$0\" record --mode \(mode) --rate 50 --duration 1 -o \"$1\"; echo $?"
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--sysfs-attr", "sampling_frequency=0"], command: ["sh", "-c", script, shake, output()])
        #expect(result.stdout == "74\n0\n", "\(result.stderr)")
        #expect(result.stderr.contains("attribute \"sampling_frequency\")"), "\(result.stderr)")
        #expect(result.stderr.contains("the device reports 0.0 Hz, which is no sampling rate: give one with --rate"), "\(result.stderr)")
        #expect(try Fixture.readRecording(output()).rows.count >= 40)
    }

    @Test func pollingReadsADeviceWithoutBuffer() throws {
        let shake = try Emulator.shake
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--no-buffer", "--speed", "2"],
            command: [shake, "record", "--rate", "50", "--duration", "2", "-o", output()])
        #expect(result.status == 0, "\(result.stderr)")
        let recording = try Fixture.readRecording(output())
        // 2 s at 50 Hz: every poll tick is either a sample or reported as dropped (a busy
        // machine makes polls late; they are counted, not hidden).
        let summary = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("Recorded ") })
        // "Recorded N samples (T.t s) from shakekit-accel at 50 Hz; dropped D in G gaps -> FILE"
        let words = summary.split(separator: " ")
        let dropped = try #require(words.firstIndex(of: "dropped").flatMap { Int(words[$0 + 1]) })
        #expect(Int(words[1]) == recording.rows.count)
        #expect((95...102).contains(recording.rows.count + dropped), "\(summary)")
        #expect(recording.rows.count >= 30, "\(summary)")
        // Every polled sample is one of the fixture's, in playback order (a poll may read x, y
        // and z across an update: three attributes cannot be read atomically). A busy machine
        // made 5 of about 100 polls torn; at most 10 % may match no fixture sample.
        let (unmatched, position) = Fixture.followPolls(recording.rows, through: fixture.rows)
        #expect(unmatched * 10 <= recording.rows.count, "\(unmatched) of \(recording.rows.count) polls matched no fixture sample")
        // Played at double speed for 2 s: up to 4 s (200 samples) of the fixture went by.
        #expect((40...240).contains(position), "reached fixture sample \(position)")
    }

    /// (emulator's mount matrix, matrix given to `shake record`, how the recording relates to the fixture)
    static let mountCases: [(device: String?, given: String?, expected: [[Double]])] = [
        ("0, 1, 0; -1, 0, 0; 0, 0, 1", nil, [[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
        (nil, "0, 1, 0; -1, 0, 0; 0, 0, 1", [[0, 1, 0], [-1, 0, 0], [0, 0, 1]]),
        ("0, 0, 1; 0, 1, 0; -1, 0, 0", "1, 0, 0; 0, 1, 0; 0, 0, 1", [[0, 0, -1], [0, 1, 0], [1, 0, 0]]),
    ]

    @Test(arguments: 0..<mountCases.count)
    func mountMatrixIsApplied(caseIndex: Int) throws {
        let shake = try Emulator.shake
        let (device, given, expected) = Self.mountCases[caseIndex]
        let options = ["--fast"] + (device.map { ["--mount-matrix", $0] } ?? [])
        let command = [shake, "record", "--duration", "4", "-o", output()] + (given.map { ["--mount-matrix", $0] } ?? [])
        let result = try Emulator.run(fixture: fixture.path, options: options, command: command)
        #expect(result.status == 0, "\(result.stderr)")
        let recording = try Fixture.readRecording(output())
        // The recording says which rotation was applied (the given one, else the device's, else
        // none), and the extra metadata line does not trouble the reader.
        #expect(recording.metadata["mount_matrix"] == (given ?? device ?? "1, 0, 0; 0, 1, 0; 0, 0, 1"),
                "\(recording.metadata)")
        let replay = try Emulator.run(fixture: fixture.path, options: [], command: [shake, "replay", output()])
        #expect(replay.status == 0, "\(replay.stderr)")
        let rotated = fixture.rows.prefix { $0.time < 4 }.map { row in
            let v = [row.x, row.y, row.z]
            let r = expected.map { $0[0] * v[0] + $0[1] * v[1] + $0[2] * v[2] }
            return Fixture.Row(time: row.time, x: r[0], y: r[1], z: r[2])
        }
        expectSamples(recording.rows, match: rotated[...])
    }

    @Test(arguments: uris)
    func deviceVanishingEndsTheRecordingAndKeepsEverySample(uri: String) throws {
        let shake = try Emulator.shake
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--iiod", "--fast", "--vanish-after", "300"],
            command: [shake, "record", "--uri", uri, "--timeout", "1", "-o", output()])
        #expect(result.status == 74)
        #expect(result.stderr.contains("device vanished after 300 samples"), "\(result.stderr)")
        #expect(result.stderr.contains("device \"shakekit-accel\""))
        let recording = try Fixture.readRecording(output())
        expectSamples(recording.rows, match: fixture.rows.prefix(300))
    }

    @Test func iiodDyingEndsTheRecordingAndKeepsEverySampleReceived() throws {
        let shake = try Emulator.shake
        let result = try Emulator.run(
            // Paced (10x) so that iiod is streaming when it dies, not still starting up.
            fixture: fixture.path, options: ["--iiod", "--speed", "10", "--kill-iiod-after", "300"],
            command: [shake, "record", "--uri", "ip:127.0.0.1", "-o", output()])
        #expect(result.status == 74)
        #expect(result.stderr.contains("iio_buffer_refill(uri \"ip:127.0.0.1\", device \"shakekit-accel\")"), "\(result.stderr)")
        #expect(result.stderr.contains("connection to iiod closed"))
        let recording = try Fixture.readRecording(output())
        // Samples iiod had read but not sent die with it; everything that arrived is kept.
        #expect((100...300).contains(recording.rows.count), "\(recording.rows.count) samples")
        expectSamples(recording.rows, match: fixture.rows.prefix(recording.rows.count))
    }

    /// A file that appears under the output's name while recording is left alone; the summary
    /// names the partial file that keeps the samples, as the error does (until stop 50 it said
    /// `-> rec.csv`, the file it had not written).
    @Test func aFileAppearingWhileRecordingIsLeftAloneAndTheSummaryNamesThePartialFile() throws {
        let shake = try Emulator.shake
        // Written once the recording has begun (its partial file is there), not before it starts.
        let script = "\"$0\" record --duration 2 -o \"$1\" & for i in $(seq 200); do [ -e \"$1.partial\" ] && break; "
            + "sleep 0.02; done; sleep 0.2; echo theirs > \"$1\"; wait $!"
        let result = try Emulator.run(fixture: fixture.path, options: ["--loop"], command: ["sh", "-c", script, shake, output()])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(try String(contentsOfFile: output(), encoding: .utf8) == "theirs\n")
        let partial = output() + ".partial"
        let recording = try Fixture.readRecording(partial)
        #expect(recording.rows.count >= 50, "\(recording.rows.count) samples in 2 s")
        let summary = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("Recorded ") })
        #expect(summary.hasSuffix(" -> \(partial)"), "\(summary)")
        #expect(result.stderr.contains("\(partial) keeps the \(recording.rows.count) samples written before"), "\(result.stderr)")
    }

    @Test func fullDiskEndsTheRecordingWithAValidFile() throws {
        let shake = try Emulator.shake
        let small = directory.appendingPathComponent("small-disk").path
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        // A 12 KiB tmpfs inside the emulator's mount namespace; the file is copied out after.
        let script = "mount -t tmpfs -o size=12k tmpfs \"$1\" || exit 99; \"$0\" record -o \"$1/rec.csv\"; "
            + "status=$?; cp \"$1/rec.csv\" \"$2\"; exit $status"
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--fast"], command: ["sh", "-c", script, shake, small, output()])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("No space left on device"))
        let recording = try Fixture.readRecording(output())
        #expect(recording.rows.count > 200, "\(recording.rows.count) samples fit in 12 KiB")
        #expect(result.stderr.contains("rec.csv keeps the \(recording.rows.count) samples written before"))
        // The summary says what the file holds, and no message sends the user to a .partial
        // file that was renamed.
        let last = try #require(recording.rows.last).time
        #expect(result.stderr.contains("Recorded \(recording.rows.count) samples (\(String(format: "%.1f", last)) s)"),
                "\(result.stderr)")
        #expect(!result.stderr.contains("kept in this file"), "\(result.stderr)")
        expectSamples(recording.rows, match: fixture.rows.prefix(recording.rows.count))
    }

    /// (URI, emulator fault options): the device itself vanishing and returning, or iiod restarting.
    static let outages: [(uri: String, options: [String])] = [
        ("local:", ["--speed", "4", "--vanish-after", "200", "--return-after", "1.5"]),
        ("ip:127.0.0.1", ["--speed", "10", "--iiod", "--kill-iiod-after", "200", "--restart-iiod-after", "1"]),
    ]

    @Test(arguments: 0..<outages.count)
    func reconnectResumesRecordingWhenTheDeviceComesBack(outage: Int) throws {
        let shake = try Emulator.shake
        let (uri, faults) = Self.outages[outage]
        let result = try Emulator.run(
            fixture: fixture.path, options: faults,
            command: [shake, "record", "--uri", uri, "--reconnect", "--timeout", "0.5", "--duration", "8", "-o", output()])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Device lost"))
        #expect(result.stderr.contains("Reconnected to shakekit-accel"))
        // A failed attempt is told when it fails otherwise than the one before it, not at each retry.
        let stillWaiting = result.stderr.split(separator: "\n").filter { $0.hasPrefix("Still waiting: ") }
        #expect(zip(stillWaiting, stillWaiting.dropFirst()).allSatisfy { $0 != $1 }, "\(result.stderr)")
        let rows = try Fixture.readRecording(output()).rows
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.time < $1.time })
        // The outage shows as a gap in time of at least half a second.
        let split = try #require(rows.indices.dropFirst().first { rows[$0].time - rows[$0 - 1].time >= 0.5 },
                                 "no gap in the recording's times: \(result.stderr)")
        // The summary counts the outage, as long as the gap in time it left (to its 0.1 s).
        let gap = rows[split].time - rows[split - 1].time
        let summary = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("Recorded ") })
        let outage = try #require(summary.firstRange(of: "; 1 outage (").flatMap {
            Double(summary[$0.upperBound...].prefix { $0 != " " })
        }, "no outage in the summary: \(summary)")
        #expect(abs(outage - gap) <= 0.051, "outage \(outage) s, gap \(gap) s: \(summary)")
        #expect(summary.contains(" s without the device) -> "), "\(summary)")
        // Before it: the fixture's first samples, exactly; all 200 on the local backend (over iiod,
        // samples in flight when it died are lost).
        #expect(uri == "local:" ? split == 200 : (100...200).contains(split), "\(split) samples before the outage")
        expectSamples(Array(rows[..<split]), match: fixture.rows.prefix(split))
        // After it: a contiguous stretch of the fixture from where playback stopped.
        let after = Array(rows[split...])
        try #require(after.count > 50, "\(after.count) samples after the outage")
        let start = try #require(fixture.rows.indices.first { index in
            index >= split && abs(fixture.rows[index].x - after[0].x) <= Self.tolerance
                && abs(fixture.rows[index].y - after[0].y) <= Self.tolerance
                && abs(fixture.rows[index].z - after[0].z) <= Self.tolerance
        })
        #expect(uri == "local:" ? start == 200 : start >= 200 && start < 264, "resumed at fixture sample \(start)")
        let resumed = fixture.rows[start..<min(fixture.rows.count, start + after.count)]
        var worst = 0.0
        for (got, want) in zip(after, resumed) {
            worst = max(worst, abs(got.x - want.x), abs(got.y - want.y), abs(got.z - want.z))
        }
        #expect(worst <= Self.tolerance)
    }

    /// A device that stops feeding ends a recording without --reconnect after --timeout, saying
    /// no samples came for that long, locally and over `iiod` (whose refill itself times out),
    /// with no outage in the summary (nothing was waited for); the samples before are kept.
    @Test(arguments: uris)
    func stalledDeviceTimesOutInsteadOfHanging(uri: String) throws {
        let shake = try Emulator.shake
        let started = Date()
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--iiod", "--fast", "--stall-after", "120"],
            command: [shake, "record", "--uri", uri, "--timeout", "0.5", "-o", output()])
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(result.status == 74)
        #expect(result.stderr.contains("no samples for 0.5 s"), "\(result.stderr)")
        #expect(result.stderr.contains("(--reconnect waits for the device to come back)"), "\(result.stderr)")
        // Without --reconnect nothing was waited for: no outage.
        #expect(!result.stderr.contains("outage"), "\(result.stderr)")
        let recording = try Fixture.readRecording(output())
        expectSamples(recording.rows, match: fixture.rows.prefix(120))
    }

    /// A device that gives nothing before `--timeout`: nothing is written, and a recording
    /// already under the name stays, even with --force (it used to be replaced by an empty file).
    @Test(arguments: [true, false])
    func aRunThatRecordsNothingWritesNothing(force: Bool) throws {
        let shake = try Emulator.shake
        let existing = output("keep.csv")
        if force { try "time_s,x,y,z\n0,0,0,9.8\n".write(toFile: existing, atomically: true, encoding: .utf8) }
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--start-delay", "5"],
            command: [shake, "record", "--timeout", "0.5", "-o", existing] + (force ? ["--force"] : []))
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("Recorded no samples from shakekit-accel; \(existing) was not written"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: existing + ".partial"))
        if force {
            #expect(try String(contentsOfFile: existing, encoding: .utf8) == "time_s,x,y,z\n0,0,0,9.8\n")
            #expect(result.stderr.contains("(the file already there is kept)"))
        } else {
            #expect(!FileManager.default.fileExists(atPath: existing))
        }
    }

    /// `live` counts the samples its detector saw: those before --duration, not those the
    /// reader had already delivered past it.
    @Test func liveCountsTheSamplesBeforeItsDuration() throws {
        let shake = try Emulator.shake
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--fast"], command: [shake, "live", "--duration", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        // 50 Hz from time 0: the samples at 0, 0.02, ..., 0.98 s.
        #expect(result.stderr.contains(" in 50 samples (1.0 s); dropped 0 in 0 gaps"), "\(result.stderr)")
    }

    /// A device read more than 10 % slower than 25 Hz, the slowest rate the detector is made for:
    /// `live` and `record` say so as they start, with the faster rates the device offers; at its
    /// own 50 Hz they say nothing.
    @Test(arguments: ["live", "record"])
    func aDeviceReadTooSlowlyIsWarnedAbout(command: String) throws {
        let shake = try Emulator.shake
        let output = command == "record" ? ["-o", output()] : []
        let slow = try Emulator.run(
            fixture: fixture.path, options: ["--fast"],
            command: [shake, command, "--rate", "12.5", "--duration", "0.5"] + output)
        #expect(slow.status == 0, "\(slow.stderr)")
        #expect(slow.stderr.contains("Warning: shakekit-accel samples at 12.5 Hz, under the 25 Hz the detector is made "
                                     + "for: shakes may be missed; pass --rate 25 or more (it offers 25, 50, 100, 200, "
                                     + "400 Hz)\n"), "\(slow.stderr)")
        try? FileManager.default.removeItem(atPath: self.output())
        let own = try Emulator.run(
            fixture: fixture.path, options: ["--fast"], command: [shake, command, "--duration", "0.5"] + output)
        #expect(own.status == 0, "\(own.stderr)")
        #expect(!own.stderr.contains("Warning"), "\(own.stderr)")
    }

    /// A stream that ends in the middle of a shake (here at --duration) cancels it as
    /// interrupted: a reader of the events never sees a began without an end.
    @Test func liveEndingMidShakeCancelsIt() throws {
        let shake = try Emulator.shake
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--fast"],
            command: [shake, "live", "--duration", "4", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["phase"] != nil }
        #expect(events.map { $0["phase"] as? String } == ["began", "cancelled"], "\(result.stdout)")
        #expect(events.last?["reason"] as? String == "interrupted", "\(result.stdout)")
    }

    /// Ctrl-C while `--reconnect` waits for a stalled device: the device gets back the rate it
    /// had (it kept the one the tool set: the stalled reader ended in a failure, which leaves it).
    @Test func ctrlCWhileWaitingForAStalledDevicePutsTheRateBack() throws {
        let shake = try Emulator.shake
        let rate = "/sys/bus/iio/devices/iio:device0/sampling_frequency"
        // The signal as soon as the loss is told (the wait that follows it is 0.5 s long).
        let script = "before=$(cat \(rate)); \"$0\" record --timeout 0.5 --reconnect --rate 200 -o \"$1\" 2>\"$1.err\" & pid=$!; "
            + "while ! grep -q 'Waiting for it' \"$1.err\" 2>/dev/null; do sleep 0.01; done; kill -INT $pid; wait $pid; "
            + "status=$?; cat \"$1.err\" >&2; echo \"$before $(cat \(rate))\"; exit $status"
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--stall-after", "60"], command: ["sh", "-c", script, shake, output()])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Waiting for it to come back"), "\(result.stderr)")
        #expect(result.stdout == "50 50\n", "rate before and after: \(result.stdout)")
    }

    // Defect: with --reconnect, a device that stalled and stayed present was "connected" again
    // every 2 s (the timeout) and "lost" again: `live` printed "Listening to …" and "Device lost:
    // …" each time, for as long as it stalled. Now an attempt that opens it and gets no sample is a
    // failed retry, told once ("Still waiting: …"), and the outage is one.
    @Test func aDeviceThatStaysStalledIsToldLostOnce() throws {
        let shake = try Emulator.shake
        let script = "\"$0\" live --reconnect --timeout 0.5 & pid=$!; sleep 4; kill -INT $pid; wait $pid"
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--stall-after", "60"], command: ["sh", "-c", script, shake])
        #expect(result.status == 0, "\(result.stderr)")
        func count(_ text: String) -> Int { result.stderr.components(separatedBy: text).count - 1 }
        #expect(count("Listening to shakekit-accel") == 1, "\(result.stderr)")
        #expect(count("Device lost: iio_buffer_refill") == 1, "\(result.stderr)")
        #expect(count("Still waiting: iio_buffer_refill(uri \"local:\", device \"shakekit-accel\"): Connection timed out "
                      + "(ETIMEDOUT): no samples for 0.5 s") == 1, "\(result.stderr)")
        #expect(result.stderr.contains("0 shakes in 60 samples (1.2 s); dropped 0 in 0 gaps; 1 outage ("), "\(result.stderr)")
    }

    /// The fixture with its times from `from` s on (or only the sample at `from` s) `back` s earlier.
    func steppedFixture(back: Double, from: Double, onlyOne: Bool = false) throws -> String {
        let stepped = path("stepped.csv")
        var lines: [String] = []
        for line in try String(contentsOfFile: fixture.path, encoding: .utf8).split(separator: "\n") {
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if let time = Double(fields[0]), onlyOne ? abs(time - from) < 1e-9 : time >= from {
                fields[0] = String(format: "%.6f", time - back)
            }
            lines.append(fields.joined(separator: ","))
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: stepped, atomically: true, encoding: .utf8)
        return stepped
    }

    /// A recording of `steppedFixture(back: 100, from: 5)`: the fixture's samples up to 5 s, then
    /// every one but the first at 5 s, each 20 ms (the fixture's period) after the last.
    func expectFollowsOnAfterTheStep(_ rows: [Fixture.Row], sourceLocation: SourceLocation = #_sourceLocation) {
        guard rows.count > 250 else {
            Issue.record("\(rows.count) rows: the recording ends before the step", sourceLocation: sourceLocation)
            return
        }
        expectSamples(Array(rows.prefix(250)), match: fixture.rows.prefix(250), sourceLocation: sourceLocation)
        expectSamples(Array(rows[250...].map { Fixture.Row(time: $0.time + 0.02, x: $0.x, y: $0.y, z: $0.z) }),
                      match: fixture.rows[251..<rows.count + 1], sourceLocation: sourceLocation)
    }

    /// The device's timestamps step back 100 s after 5 s (a driver reset): from the second
    /// sample on the new clock, the times follow on a period after the last, every sample kept but
    /// that first one (a lone sample so far back is a bad stamp, and discarded), and the summaries
    /// say so (they had all been discarded, without a word, until the clock came back: 100 s).
    @Test func aClockSteppingBackIsFollowedOn() throws {
        let shake = try Emulator.shake
        let stepped = try steppedFixture(back: 100, from: 5)
        let result = try Emulator.run(
            fixture: stepped, options: ["--fast"], command: [shake, "record", "--duration", "10", "-o", output()])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("dropped 0 in 0 gaps; 1 sample discarded: its time did not increase; "
                                       + "the device's clock went back once (the times after follow on) -> "), "\(result.stderr)")
        expectFollowsOnAfterTheStep(try Fixture.readRecording(output()).rows)
        let live = try Emulator.run(
            fixture: stepped, options: ["--fast"], command: [shake, "live", "--duration", "10", "--format", "json"])
        #expect(live.status == 0, "\(live.stderr)")
        let summary = try #require(live.stdout.split(separator: "\n").last.flatMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }?["summary"] as? [String: Any], "\(live.stdout)")
        #expect(summary["clock_steps_back"] as? Int == 1)
        #expect(summary["discarded_samples"] as? Int == 1)
        #expect(summary["gaps"] as? Int == 0)
    }

    /// A device delivering at another rate than it reports (400 Hz written and ignored: the
    /// 50 Hz fixture's feed) whose clock steps back: the times follow on a period of the rate it
    /// delivers at (20 ms), not of the one it reports (2.5 ms: every later time 17.5 ms early).
    @Test func aClockSteppingBackFollowsOnAtTheRateDelivered() throws {
        let shake = try Emulator.shake
        let result = try Emulator.run(
            fixture: try steppedFixture(back: 100, from: 5), options: ["--fast"],
            command: [shake, "record", "--rate", "400", "--duration", "10", "-o", output()])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("the device's clock went back once"), "\(result.stderr)")
        expectFollowsOnAfterTheStep(try Fixture.readRecording(output()).rows)
    }

    /// One sample stamped 2.5 s back among good ones is a bad stamp, not a new clock: discarded,
    /// and the rest as they are (it had shifted every later time 2.5 s on: a gap of 250 samples).
    @Test func aLoneSampleStampedFarBackIsDiscarded() throws {
        let shake = try Emulator.shake
        let glitch = try steppedFixture(back: 2.5, from: 5, onlyOne: true)
        let result = try Emulator.run(
            fixture: glitch, options: ["--fast"], command: [shake, "record", "--duration", "8", "-o", output()])
        #expect(result.status == 0, "\(result.stderr)")
        // The hole it leaves is a drop: counted as one.
        #expect(result.stderr.contains("dropped 1 in 1 gap; 1 sample discarded: its time did not increase -> "),
                "\(result.stderr)")
        let rows = try Fixture.readRecording(output()).rows
        expectSamples(rows, match: fixture.rows.prefix { $0.time < 8 }.filter { abs($0.time - 5) > 1e-9 })
    }

    @Test(arguments: ["INT", "TERM", "HUP"], uris)
    func signalStopsRecordingWithAValidFile(signal: String, uri: String) throws {
        let shake = try Emulator.shake
        let script = "\"$0\" record --uri \"$2\" -o \"$1\" & pid=$!; sleep 1.5; kill -\(signal) $pid; wait $pid"
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--iiod"], command: ["sh", "-c", script, shake, output(), uri])
        #expect(result.status == 0, "\(result.stderr)")
        let recording = try Fixture.readRecording(output())
        #expect(recording.rows.count >= 40, "\(recording.rows.count) samples in 1.5 s")
        expectSamples(recording.rows, match: fixture.rows.prefix(recording.rows.count))
    }

    @Test(arguments: uris)
    func liveReportsTheFixturesShakesWhenTheyHappen(uri: String) throws {
        let shake = try Emulator.shake
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--iiod", "--fast"],
            command: [shake, "live", "--uri", uri, "--duration", "11.5", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let began = events.filter { $0["phase"] as? String == "began" }.compactMap { $0["time_s"] as? Double }
        #expect(began.count == Fixture.shakes.count, "\(result.stdout)")
        for (time, shake) in zip(began, Fixture.shakes) {
            #expect(time >= shake.start && time <= shake.end + 1, "shake began at \(time) s, fixture \(shake)")
        }
    }

    /// `--format json` ends with a summary line, so a program reading the stream knows how
    /// many samples were lost as well as what was found.
    @Test func liveJSONEndsWithASummaryOfShakesAndDrops() throws {
        let shake = try Emulator.shake
        // Samples 100 to 109 (2 to 2.18 s, before the first shake) are never delivered.
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--fast", "--drop", "100:109"],
            command: [shake, "live", "--duration", "11.5", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let last = try #require(lines.last.flatMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }, "\(result.stdout)")
        let summary = try #require(last["summary"] as? [String: Any], "\(result.stdout)")
        #expect(Set(summary.keys) == ["shakes", "cancelled", "samples", "duration_s", "dropped_samples", "gaps",
                                      "outages", "outage_s"], "\(summary)")
        #expect(summary["shakes"] as? Int == Fixture.shakes.count)
        #expect(summary["cancelled"] as? Int == 0)
        #expect(summary["dropped_samples"] as? Int == 10)
        #expect(summary["gaps"] as? Int == 1)
        #expect(summary["outages"] as? Int == 0)
        // 11.5 s at 50 Hz, less the ten never delivered.
        let samples = try #require(summary["samples"] as? Int)
        #expect((563...566).contains(samples), "\(samples)")
        // The stderr summary says the same.
        #expect(result.stderr.contains("\(Fixture.shakes.count) shakes in \(samples) samples"), "\(result.stderr)")
        #expect(result.stderr.contains("dropped 10 in 1 gap"), "\(result.stderr)")
        // Only the last line is the summary; the others are events.
        #expect(lines.dropLast().allSatisfy { !$0.contains("summary") })
    }

    @Test func liveWithReconnectGoesOnDetectingAfterTheDeviceReturns() throws {
        let shake = try Emulator.shake
        // The device vanishes at 6 s, between the fixture's two shakes, and returns 0.5 s later.
        let result = try Emulator.run(
            fixture: fixture.path, options: ["--fast", "--vanish-after", "300", "--return-after", "0.5"],
            command: [shake, "live", "--reconnect", "--timeout", "0.5", "--duration", "11.5", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Device lost"))
        // The summary counts the outage.
        #expect(result.stderr.contains("; 1 outage ("), "\(result.stderr)")
        let began = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["phase"] as? String == "began" }.compactMap { $0["time_s"] as? Double }
        #expect(began.count == 2, "\(result.stdout)")
        if began.count == 2 {
            #expect(began[0] >= 3.0 && began[0] <= 5.6)
            // After the outage, times run on from where they were plus the outage (0.5 s to ~2 s).
            #expect(began[1] >= 8.5 && began[1] <= 9.6 + 1 + 2.5, "second shake began at \(began[1]) s")
        }
    }

    @Test func liveUndoDemoUndoesWithLiveShakes() throws {
        let shake = try Emulator.shake
        let session = Emulator.repositoryRoot.appendingPathComponent("Fixtures/demo_session_50hz.csv").path
        let result = try Emulator.run(
            fixture: session, options: ["--fast"],
            command: [shake, "live", "--undo-demo", "--choices", "undo,redo", "--duration", "18"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("shake gesture is owned by \"note editor\"") })
        #expect(lines.contains { $0.hasSuffix("user taps [Undo Address Change]") })
        #expect(lines.contains { $0.hasSuffix("prompt    [Undo Delete Name] [Redo Address Change] [Cancel]") })
        #expect(lines.contains { $0.hasSuffix("user taps [Redo Address Change]") })
        #expect(lines.last?.hasSuffix("2 prompts; final document: note: \"Call the plumber\"  name: \"\"  address: \"34 Oak Avenue\"") == true,
                "\(lines.last ?? "")")
    }

    /// `shake live --explain` prints a near miss when it closes: three half-waves of a 3 g shake
    /// at 2 s (one short of a shake), closed by the first half-wave of the whole shake at 5 s,
    /// which is reported as a shake and not as a near miss.
    @Test func liveExplainPrintsTheNearMissWhenItCloses() throws {
        let shake = try Emulator.shake
        var text = "time_s,x,y,z\n"
        for i in 0..<400 {
            let t = Double(i) / 50
            var x = 0.0
            if t >= 2 && t < 2.375 { x = 3 * 9.80665 * sin(2 * .pi * 4 * (t - 2)) }
            if t >= 5 && t < 6.5 { x = 3 * 9.80665 * sin(2 * .pi * 4 * (t - 5)) }
            text += String(format: "%.6f,%.5f,0.10000,9.80665\n", t, x)
        }
        let recording = output("near-miss.csv")
        try text.write(toFile: recording, atomically: true, encoding: .utf8)
        let result = try Emulator.run(
            fixture: recording, options: ["--fast"],
            command: [shake, "live", "--explain", "--duration", "7.9", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let misses = lines.compactMap { $0["near_miss"] as? [String: Any] }
        #expect(misses.count == 1, "\(result.stdout)")
        #expect(misses.first?["reason"] as? String == "too_few_half_waves")
        #expect(misses.first?["ended"] as? String == "outside_interval")
        #expect((misses.first?["peaks_m_s2"] as? [Double])?.count == 3)
        let start = misses.first?["start_s"] as? Double ?? 0
        #expect(start >= 2 && start < 2.2, "near miss from \(start) s")
        let began = lines.filter { $0["phase"] as? String == "began" }.compactMap { $0["time_s"] as? Double }
        #expect(began.count == 1 && began.allSatisfy { $0 > 5 && $0 < 6 }, "\(result.stdout)")
    }

    // Defect: started from a thread that blocks signals (as every Swift test's thread does:
    // Foundation's Process passes the thread's mask on), the emulator ignored SIGTERM (its
    // forwarding never ran) and passed SIGINT, SIGTERM and SIGHUP blocked to iiod, the feeder and
    // the command: the signal tests sent them to a `shake` that did not start as on a device.
    @Test func signalsReachTheEmulatorAndItsCommandThoughTheStarterBlocksThem() throws {
        var blocked = sigset_t(), old = sigset_t()
        sigemptyset(&blocked)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Emulator.script)
        // The mask of a command the script starts in the background (`sh` itself clears its own).
        process.arguments = [fixture.path, "--", "sh", "-c", "sleep 20 & grep ^SigBlk /proc/$!/status > \"$0\"; wait",
                             output("mask")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        pthread_sigmask(SIG_SETMASK, &old, nil)
        let wrote = Date().addingTimeInterval(10)
        while (try? String(contentsOfFile: output("mask"), encoding: .utf8))?.hasSuffix("\n") != true && Date() < wrote {
            usleep(20_000)
        }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let stopped = !process.isRunning
        if !stopped { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(stopped, "the emulator was still running 5 s after SIGTERM")
        #expect(process.terminationStatus == 128 + SIGTERM, "exit status \(process.terminationStatus)")
        #expect(try String(contentsOfFile: output("mask"), encoding: .utf8) == "SigBlk:\t0000000000000000\n",
                "the command's signal mask")
    }
}
