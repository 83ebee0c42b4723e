import Foundation
import Testing
@testable import ShakeIIO

/// What users see from the library without a device: error texts, mount matrices, rates.
@Suite struct ShakeIIOUnitTests {
    /// A reconnecting reader's events print as one line each for a log, not as the whole
    /// device description.
    @Test func reconnectionEventsPrintAsOneLine() {
        typealias Event = ReconnectingAccelerometerReader.Event
        let device = AccelerometerDescription(id: "iio:device0", name: "lis3dh", samplingFrequencyHertz: 100)
        let gone = IIOError(code: .noSuchDevice, function: "iio_buffer_refill", device: "lis3dh", kind: .deviceGone)
        #expect(String(describing: Event.connected(device, rateHertz: 100, mode: .buffered, mountMatrix: .identity))
            == "connected to lis3dh at 100 Hz (buffered)")
        let turned = MountMatrix(uncheckedRows: [[0, 1, 0], [1, 0, 0], [0, 0, 1]])
        #expect(String(describing: Event.connected(device, rateHertz: 12.5, mode: .polled, mountMatrix: turned))
            == "connected to lis3dh at 12.5 Hz (polled, mount matrix applied)")
        #expect(String(describing: Event.lost(gone, time: 12.34)) == "lost at 12.340 s: \(gone)")
        #expect(String(describing: Event.lost(gone, time: 3.005)) == "lost at 3.005 s: \(gone)")
        #expect(String(describing: Event.lost(gone, time: nil)) == "lost: \(gone)")
        #expect(String(describing: Event.waiting(gone)) == "waiting: \(gone)")
        #expect(String(describing: Event.retryFailed(gone)) == "retry failed: \(gone)")
        #expect(!String(describing: gone).contains("\n"))
    }

    // Defect: a reconnecting reader whose updates() ended in an error refused every later run
    // as "stopped after reading", though nothing stopped it (a run that throws may run again).
    @Test func aReconnectingReaderWhoseStreamFailedMayReadAgain() async throws {
        let reader = ReconnectingAccelerometerReader(options: AccelerometerReadOptions(rateHertz: -1))
        let problem = "rateHertz is -1.0 Hz"
        for _ in 0..<2 {
            do {
                for try await _ in reader.updates() { Issue.record("an update without a device") }
                Issue.record("the stream ended without an error")
            } catch {
                #expect("\(error)".contains(problem), "\(error)")
            }
        }
        #expect { try reader.run(onEvent: { _ in }) { _ in } } throws: { "\($0)".contains(problem) }
    }

    /// A reader stopped before it runs (a signal during a program's set-up) reads nothing: its
    /// run, and its updates, end at once without an error (a stop is refused only after a run).
    /// A retry interval of 0 s (retrying at once) is one to run with.
    @Test func aReaderStoppedBeforeItRunsEndsAtOnce() async throws {
        let reader = ReconnectingAccelerometerReader(uri: "ip:192.0.2.1", retryInterval: 0)
        reader.stop()
        try reader.run(onEvent: { _ in }) { _ in Issue.record("a sample after the stop") }
        let streamed = ReconnectingAccelerometerReader(uri: "ip:192.0.2.1", retryInterval: 0.05)
        streamed.stop()
        for try await update in streamed.updates() {
            if case .sample = update { Issue.record("a sample after the stop") }
        }
    }

    // Defect: a retry interval of NaN waited for ever after the first failed attempt, saying
    // nothing; refused now, before anything is opened, in every way of reading.
    @Test(arguments: [Double.nan, -1, .infinity])
    func aRetryIntervalThatIsNoTimeIsRefused(interval: Double) async throws {
        let reader = ReconnectingAccelerometerReader(uri: "ip:192.0.2.1", retryInterval: interval)
        let says = "ReconnectingAccelerometerReader.run(uri \"ip:192.0.2.1\"): Invalid argument (EINVAL): retryInterval is "
            + "\(interval) s; it must be 0 s or more, and finite"
        #expect { try reader.run(onEvent: { _ in }) { _ in } } throws: { "\($0)" == says && ($0 as? IIOError)?.kind == .badValue }
        do {
            for try await _ in reader.updates() { Issue.record("an update from no device") }
            Issue.record("the stream ended without an error")
        } catch {
            #expect("\(error)" == says)
        }
    }

    /// What is wrong with a device's `/dev` node, which a buffer is read through: missing, a
    /// directory in its place, another device than sysfs's `dev` names; nil when right
    /// (`/dev/null` standing in, character device 1:3) and for a named pipe (the emulator's).
    @Test func aDeviceNodeThatIsMissingOrWrongIsNamed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("node-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (dev, sysfs) = (root + "/dev", root + "/sys")
        for folder in [dev, sysfs + "/iio:device0", sysfs + "/null"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try "240:0\n".write(toFile: sysfs + "/iio:device0/dev", atomically: false, encoding: .utf8)
        let missing = LibIIO.deviceNodeProblem(deviceID: "iio:device0", devRoot: dev, sysfsRoot: sysfs)
        #expect(missing == "\(dev)/iio:device0 does not exist, and the buffer is read through it (a container given /sys but "
            + "not the device node, or a system without devtmpfs or mdev): create it (mknod \(dev)/iio:device0 c 240 0: the "
            + "numbers in \(sysfs)/iio:device0/dev), or pass it into the container; or read by polling instead (polled mode)")
        try FileManager.default.createDirectory(atPath: dev + "/iio:device0", withIntermediateDirectories: false)
        #expect(LibIIO.deviceNodeProblem(deviceID: "iio:device0", devRoot: dev, sysfsRoot: sysfs)?
            .hasPrefix("\(dev)/iio:device0 is a directory, not the device's character device: remove it and create it") == true)
        // A named pipe, as Scripts/iio-emulator makes the node: not questioned.
        try FileManager.default.removeItem(atPath: dev + "/iio:device0")
        #expect(mkfifo(dev + "/iio:device0", 0o600) == 0)
        #expect(LibIIO.deviceNodeProblem(deviceID: "iio:device0", devRoot: dev, sysfsRoot: sysfs) == nil)
        // The real /dev/null (1:3) against what sysfs would say.
        try "1:3\n".write(toFile: sysfs + "/null/dev", atomically: false, encoding: .utf8)
        #expect(LibIIO.deviceNodeProblem(deviceID: "null", sysfsRoot: sysfs) == nil)
        try "1:4\n".write(toFile: sysfs + "/null/dev", atomically: false, encoding: .utf8)
        #expect(LibIIO.deviceNodeProblem(deviceID: "null", sysfsRoot: sysfs)?
            .hasPrefix("/dev/null is character device 1:3, not the device's 1:4: remove it and create it (mknod /dev/null c 1 4") == true)
    }

    @Test func permissionErrorNamesFunctionDeviceAttributeAndHowToGetAccess() {
        let error = IIOError(code: .permissionDenied, function: "iio_device_attr_read",
                             device: "accel0", attribute: "sampling_frequency")
        #expect(error.kind == .permissionDenied)
        #expect(error.description.hasPrefix(
            "iio_device_attr_read(device \"accel0\", attribute \"sampling_frequency\"): Permission denied (EACCES)"))
        #expect(error.description.contains("udev rule"))
        #expect(error.description.contains("/dev/iio:device"))
        // EPERM (a file the kernel lets no one write, a security module) is told the same way.
        let notPermitted = IIOError(code: .operationNotPermitted, function: "iio_device_attr_write", device: "accel0")
        #expect(notPermitted.kind == .permissionDenied && notPermitted.description.contains("udev rule"))
    }

    @Test(arguments: [IIOErrno.noSuchDevice, .connectionReset, .brokenPipe, .notConnected, .noSuchFile,
                      .noSuchDeviceOrAddress, .badFileDescriptor, IIOErrno(rawValue: ESHUTDOWN), IIOErrno(rawValue: ECONNABORTED)])
    func codesMeaningTheDeviceIsGoneAreClassifiedSo(code: IIOErrno) {
        let error = IIOError(code: code, function: "iio_buffer_refill", device: "accel0")
        #expect(error.kind == .deviceGone)
        #expect(error.description.contains("unplugged"))
    }

    /// A code the table does not name is given by its number, after the C library's words.
    @Test func anErrnoWithoutANameIsGivenByItsNumber() {
        #expect(IIOErrno.permissionDenied.name == "EACCES")
        #expect(IIOErrno(rawValue: 9999).name == "errno 9999")
        #expect(IIOErrno(rawValue: 9999).description == "Unknown error 9999 (errno 9999)")
    }

    /// The reader's timeouts are `.timedOut`, whose hint says what may be stuck: the sensor or its
    /// bus when an attribute read (polling) did not return, the device's samples otherwise.
    @Test func aTimeoutSaysWhatDidNotAnswer() {
        let poll = IIOError(code: .timedOut, function: "iio_channel_attr_read", device: "accel0", channel: "accel_x",
                            attribute: "raw")
        #expect(poll.kind == .timedOut)
        #expect(poll.description.hasSuffix("; the driver did not answer: is the sensor or its bus (I2C, SPI) stuck?"))
        let refill = IIOError(code: .timedOut, function: "iio_buffer_refill", device: "accel0")
        #expect(refill.description.hasSuffix("; the device sent no samples in time: is it stalled, or its trigger not running?"))
    }

    /// What a reconnecting reader waits out: the device or iiod not there (yet), gone, slow to
    /// answer, refusing or busy, an I/O error while it is probed; not what stays until someone
    /// acts (no permission, a value that is none, a scheme libiio lacks).
    @Test(arguments: [
        (IIOError(code: .noSuchFile, function: "iio_create_context_from_uri", kind: .notFound), true),
        (IIOError(code: .noSuchDevice, function: "iio_buffer_refill"), true),
        (IIOError(code: .timedOut, function: "iio_buffer_refill"), true),
        (IIOError(code: .connectionRefused, function: "iio_create_context_from_uri"), true),
        (IIOError(code: .hostUnreachable, function: "iio_create_context_from_uri"), true),
        (IIOError(code: .ioError, function: "iio_device_attr_read"), true),
        (IIOError(code: .busy, function: "iio_device_create_buffer"), true),
        (IIOError(code: .permissionDenied, function: "iio_device_attr_write"), false),
        (IIOError(code: .invalidArgument, function: "mount matrix", kind: .badValue), false),
        (IIOError(code: .notImplemented, function: "iio_create_context_from_uri"), false),
    ])
    func onlyWhatMayClearUpIsWaitedFor(error: IIOError, waits: Bool) {
        #expect(error.mayClearUpByWaiting == waits, "\(error)")
    }

    /// A buffer that cannot be made because the device went: its hint, unless a detail names
    /// what is missing (the /dev node), which then stands alone.
    @Test func aBufferForAVanishedDeviceSaysItWasUnpluggedUnlessTheNodeIsNamed() {
        let gone = IIOError(code: .noSuchDevice, function: "iio_device_create_buffer", device: "accel0")
        #expect(gone.description.hasSuffix("; it was unplugged, its driver unbound, or the connection to iiod closed"))
        let node = IIOError(code: .noSuchFile, function: "iio_device_create_buffer", device: "accel0",
                            detail: "/dev/iio:device0 does not exist")
        #expect(node.description.hasSuffix(": /dev/iio:device0 does not exist"))
    }

    @Test func missingContextNamesTheURI() {
        do {
            _ = try IIOContext(uri: "bogus:thing")
            Issue.record("a context from an unknown URI scheme was created")
        } catch {
            #expect(error.function == "iio_create_context_from_uri")
            #expect(error.description.contains("uri \"bogus:thing\""))
        }
    }

    /// A URI is checked for its scheme before libiio is asked: every scheme libiio knows passes,
    /// anything else (and `local:` with an argument, which that backend does not take) gets the
    /// same words as libiio's "Function not implemented" would.
    @Test func schemeProblemIsFoundBeforeLibiioIsAsked() {
        for uri in ["local:", "ip:192.168.2.1", "usb:", "usb:1.2.3", "xml:/tmp/ctx.xml", "serial:/dev/ttyUSB0,115200"] {
            #expect(IIOContext.schemeProblem(in: uri) == nil, "\(uri)")
        }
        #expect(IIOContext.schemeProblem(in: "192.168.2.1")?.hasSuffix("did you mean ip:192.168.2.1?") == true)
        #expect(IIOContext.schemeProblem(in: "local")?.hasSuffix("did you mean local:?") == true)
        #expect(IIOContext.schemeProblem(in: "ip")?.hasSuffix("did you mean ip:HOST?") == true)
        #expect(IIOContext.schemeProblem(in: "xml")?.hasSuffix("did you mean xml:FILE?") == true)
        #expect(IIOContext.schemeProblem(in: "local:nope")?.hasSuffix("takes nothing after 'local:' (it reads this machine's devices): use local:") == true)
        #expect(IIOContext.schemeProblem(in: "bogus:x") == IIOError.schemeDetail(uri: "bogus:x"))
        #expect(IIOContext.schemeProblem(in: "bogus:x")?.contains("xml:FILE (a saved description)") == true)
        #expect(IIOContext.schemeProblem(in: "bogus:x", forSamples: true)?.contains("xml:") == false)
    }

    // Defect: an ip: URI whose port is no TCP port got libiio's bare "No such file or directory".
    @Test func anIPURIsPortThatIsNoPortIsNamed() {
        // libiio reads the port with strtol, so a sign or spaces before it are let be.
        for uri in ["ip:192.168.2.1:1234", "ip:[::1]:30431", "ip:::1", "ip:sensor.example", "ip:host:65535",
                    "ip:host:+80", "ip:host: 80"] {
            #expect(IIOContext.schemeProblem(in: uri) == nil, "\(uri)")
        }
        for (uri, port) in [("ip:127.0.0.1:abc", "abc"), ("ip:127.0.0.1:99999", "99999"), ("ip:[::1]:0", "0"),
                            ("ip:host:1x", "1x"), ("ip:host:-1", "-1"), ("ip:host:٣٠", "٣٠"),
                            ("ip:host:65536", "65536")] {
            #expect(IIOContext.schemeProblem(in: uri)
                == "'\(port)' is no TCP port: a port is a number from 1 to 65535 (iiod's is 30431)", "\(uri)")
        }
        #expect(IIOContext.schemeProblem(in: "ip:127.0.0.1:")?.hasPrefix("nothing follows the port's colon") == true)
        // And where libiio is asked regardless (the library's own callers), its ENOENT says so.
        do {
            _ = try IIOContext(uri: "ip:127.0.0.1:abc")
            Issue.record("a context was created for port abc")
        } catch {
            #expect(error.description == "iio_create_context_from_uri(uri \"ip:127.0.0.1:abc\"): No such file or directory "
                + "(ENOENT): 'abc' is no TCP port: a port is a number from 1 to 65535 (iiod's is 30431)")
            // Not something to wait for: a reconnecting reader ends at once rather than wait for ever.
            #expect(error.kind == .badValue && !error.mayClearUpByWaiting)
        }
        let reader = ReconnectingAccelerometerReader(uri: "ip:127.0.0.1:abc", retryInterval: 0.05)
        #expect { try reader.run(onEvent: { _ in }) { _ in } } throws: { "\($0)".contains("'abc' is no TCP port") }
    }

    /// Without an IIO driver the kernel has no /sys/bus/iio, and libiio says only ENOENT.
    @Test func localContextOnAMachineWithoutIIOSaysSo() throws {
        let sysfsPresent = FileManager.default.fileExists(atPath: "/sys/bus/iio/devices")
        do {
            _ = try IIOContext(uri: "local:")
            #expect(sysfsPresent, "a local context was created without /sys/bus/iio/devices")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.description.hasPrefix("iio_create_context_from_uri(uri \"local:\"): "))
            if !sysfsPresent {
                #expect(error.description.contains(
                    "this machine has no IIO devices: /sys/bus/iio/devices does not exist"), "\(error)")
                #expect(error.description.contains("ip:HOST"))
            }
        }
    }

    @Test(arguments: [("local:", false, "does not exist"), ("local:", true, "found no IIO devices in"),
                      ("usb:", false, "no USB IIO device found")])
    func contextNotFoundSaysWhereItLooked(uri: String, sysfsPresent: Bool, expected: String) {
        let error = IIOError(code: .noSuchFile, function: "iio_create_context_from_uri", uri: uri,
                             detail: IIOError.noContextDetail(uri: uri, sysfsPresent: sysfsPresent), kind: .notFound)
        #expect(error.description.contains(expected), "\(error)")
        #expect(IIOError.noContextDetail(uri: "ip:localhost", sysfsPresent: sysfsPresent) == nil)
    }

    @Test(arguments: [
        ("1, 0, 0; 0, 1, 0; 0, 0, 1", (1.0, 2.0, 3.0), (1.0, 2.0, 3.0)),
        ("0, 1, 0; -1, 0, 0; 0, 0, 1", (1.0, 2.0, 3.0), (2.0, -1.0, 3.0)),
        ("-1, 0, 0; 0, -1, 0; 0, 0, -1", (1.0, 2.0, 3.0), (-1.0, -2.0, -3.0)),
        ("0.5, 0, 0; 0, 1, 0; 0, 0, 1", (4.0, 2.0, 3.0), (2.0, 2.0, 3.0)),
    ])
    func mountMatrixRotatesSensorAxesToDeviceAxes(
        text: String, sensor: (Double, Double, Double), device: (Double, Double, Double)
    ) throws {
        let matrix = try MountMatrix(parsing: text)
        let result = matrix.apply(x: sensor.0, y: sensor.1, z: sensor.2)
        #expect(result.x == device.0 && result.y == device.1 && result.z == device.2)
        #expect(try MountMatrix(parsing: matrix.description) == matrix)
    }

    /// Rotations pass, mirrored axes too, and a 45° turn written to 4 decimals; matrices that
    /// scale, shear or flatten are refused, saying how.
    @Test(arguments: [
        ("1, 0, 0; 0, 1, 0; 0, 0, 1", nil), ("0, 1, 0; -1, 0, 0; 0, 0, 1", nil), ("-1, 0, 0; 0, 1, 0; 0, 0, 1", nil),
        ("0.7071, -0.7071, 0; 0.7071, 0.7071, 0; 0, 0, 1", nil),
        ("0.5, 0, 0; 0, 1, 0; 0, 0, 1", "not a rotation"), ("1, 0.5, 0; 0, 1, 0; 0, 0, 1", "not a rotation"),
        ("0, 0, 0; 0, 0, 0; 0, 0, 0", "singular"),
        // Off by 0.04 in a row's length: over the 0.01 allowed for decimals written short.
        ("1.02, 0, 0; 0, 1, 0; 0, 0, 1", "not a rotation"),
        // Flattened a thousandfold on z, but not flat (|det| 0.001, over 1e-6): it scales.
        ("1, 0, 0; 0, 1, 0; 0, 0, 0.001", "not a rotation"),
        ("1e200, 0, 0; 0, 1e200, 0; 0, 0, 1e200", "its numbers are too large"),
    ] as [(String, String?)])
    func aMountMatrixMustBeARotation(text: String, problem: String?) throws {
        let found = try MountMatrix(parsing: text).rotationProblem
        if let problem {
            #expect(found?.contains(problem) == true, "\(found ?? "nil")")
        } else {
            #expect(found == nil, "\(found ?? "")")
        }
    }

    @Test(arguments: ["", "1, 0, 0; 0, 1, 0", "1, 0, 0; 0, 1, 0; 0, 0, x", "1, 0; 0, 1; 0, 0, 1, 0", "nan, 0, 0; 0, 1, 0; 0, 0, 1",
                      "1, 0, 0; 0, 1, 0; 0, 0, 1; 0, 0, 0", "1, 0, 0, 0; 0, 1, 0; 0, 0, 1"])
    func malformedMountMatrixIsRejectedNamingTheAttribute(text: String) {
        do {
            _ = try MountMatrix(parsing: text, device: "accel0", attribute: "in_accel_mount_matrix")
            Issue.record("'\(text)' was accepted")
        } catch {
            #expect(error.kind == .badValue)
            #expect(error.description.contains("device \"accel0\", attribute \"in_accel_mount_matrix\""))
        }
    }

    /// A matrix prints as IIO writes it, whole numbers without a decimal point; one too large for
    /// that (as an option refused for it names it) prints as a Double does, not as a trap.
    @Test func aMountMatrixPrintsInTheIIOTextForm() throws {
        #expect(try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1").description == "0, 1, 0; -1, 0, 0; 0, 0, 1")
        #expect(try MountMatrix(parsing: "0.5, 0, 0; 0, 1, 0; 0, 0, 1").description == "0.5, 0, 0; 0, 1, 0; 0, 0, 1")
        let huge = try MountMatrix(parsing: "1e20, 0, 0; 0, 1, 0; 0, 0, 1")
        #expect(huge.description == "1e+20, 0, 0; 0, 1, 0; 0, 0, 1")
        #expect(AccelerometerReadOptions(mountMatrix: huge).problem?.hasPrefix("mountMatrix 1e+20, 0, 0; 0, 1, 0; 0, 0, 1: ") == true)
    }

    @Test(arguments: [
        ("12.5 25 50 100 200", 60.0, 50.0),
        ("12.5 25 50 100 200", 75.0, 100.0),
        ("12.5 25 50 100 200", 1000.0, 200.0),
        ("[10 10 100]", 44.0, 40.0),
        ("", 60.0, 60.0),
    ])
    func samplingFrequencyIsSetToTheNearestAvailable(available: String, requested: Double, chosen: Double) {
        #expect(SamplingFrequencies.nearest(to: requested, in: SamplingFrequencies.parse(available) ?? []) == chosen)
    }

    /// `sampling_frequency_available` as drivers write it: a list, whatever the spaces between
    /// (tabs, line ends), without rates that are none (0, inf); or a range `[low step high]`,
    /// which ends at its high end (a step that does not reach it stops short), may be a single
    /// rate, and is cut at 10 000 rates.
    @Test func availableRatesAreAListOrARange() throws {
        #expect(SamplingFrequencies.parse("12.5\n25\n50") == [12.5, 25, 50])
        #expect(SamplingFrequencies.parse("25 inf 50") == [25, 50])
        #expect(SamplingFrequencies.parse("[1\t0.5\t2]") == [1, 1.5, 2])
        #expect(SamplingFrequencies.parse("[10 7 30]") == [10, 17, 24])
        #expect(SamplingFrequencies.parse("[50 1 50]") == [50])
        let wide = try #require(SamplingFrequencies.parse("[1 1 20000]"))
        #expect(wide.count == 10_000 && wide.first == 1 && wide.last == 10_000)
    }

    // Defect: a list with words that are no numbers lost them without a word (`12.5Hz 25Hz` read
    // as no list at all); now it is no list, which the listing says (and reading does not mind).
    @Test func availableRatesThatAreNoNumbersAreNoList() {
        #expect(SamplingFrequencies.parse("0 1.5 12.5,25\t50\n") == [1.5, 12.5, 25, 50])
        #expect(SamplingFrequencies.parse(" [1 0.5 2] ") == [1, 1.5, 2])
        for text in ["12.5Hz 25Hz", "12.5 fast", "[1 2]", "[1 x 3]", "[1 1 2 3]", "[1 0 3]", "[3 1 1]", "[1 x 2 3]",
                     "[1 1 inf]"] {
            #expect(SamplingFrequencies.parse(text) == nil, "\(text)")
        }
    }
}
