import Foundation
import Testing

/// The edges of a live run against `Scripts/iio-emulator`: a device or iiod not there yet at the
/// start, a signal while libiio is still connecting, what is printed before reading really
/// started, libiio's own messages, a device name that is not there, a device whose mount matrix
/// is malformed in the listing, and the emulator itself (polling a buffered device). Need root.
@Suite(.serialized, .enabled(if: !Emulator.skipRequested, "SHAKEKIT_SKIP_IIO=1 is set"))
final class IIOStartAndStopTests: EmulatorSuite {
    // MARK: A device or iiod missing at the start (boot order)

    /// (URI, emulator options: the device or iiod comes 1.5 s after the command starts, what
    /// `--reconnect` says it waits for)
    static let lateStarts: [(uri: String, options: [String], waitsFor: String)] = [
        ("local:", ["--fast", "--appear-after", "1.5"], "Waiting for an accelerometer at local: to appear"),
        ("ip:127.0.0.1", ["--fast", "--iiod", "--start-iiod-after", "1.5"], "Waiting for iiod at 127.0.0.1 to answer"),
    ]

    // Defect: --reconnect waited only for a device lost mid-stream; one missing at the start
    // ended the run at once.
    @Test(arguments: 0..<lateStarts.count)
    func reconnectWaitsForADeviceMissingAtTheStart(index: Int) throws {
        let (uri, options, waitsFor) = Self.lateStarts[index]
        let result = try run(options, "readlink /proc/self/ns/net > $DIR/netns; "
                                 + "$SHAKE record --uri \(uri) --reconnect --duration 2 -o $DIR/rec.csv")
        #expect(result.status == 0, "\(result.stderr)")
        // Defect: an iiod started late, still waiting to listen when the command was done (2 s
        // of --fast samples come at once), was left running after the emulator: the emulator had
        // not been told of it yet. Nothing outlives the run in its network namespace.
        let namespace = try String(contentsOfFile: path("netns"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(namespace.hasPrefix("net:["), "the run's network namespace: '\(namespace)'")  // else nothing matches it
        let left = try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { Int($0) != nil }.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\($0)/ns/net")) == namespace
        }
        let names = left.map { "\($0) " + ((try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8)) ?? "?") }
        #expect(left.isEmpty, "processes left in the run's network namespace: \(names)")
        #expect(result.stderr.contains(waitsFor + " (--reconnect; Ctrl-C to stop): "), "\(result.stderr)")
        // The attempts that fail as the first one did are not told again.
        #expect(!result.stderr.contains("Still waiting"), "\(result.stderr)")
        let rows = try Fixture.readRecording(path("rec.csv")).rows
        #expect(rows.count >= 100, "\(rows.count) samples")
        Fixture.expectSamples(rows, match: fixture.rows.prefix(rows.count))
    }

    // Defect: a device whose sysfs directory is there at the start and whose /dev node comes a
    // moment later (udev making it at boot) was reported lost ("Device lost: ... Waiting for it to
    // come back") before it had ever been read.
    @Test func reconnectWaitsForADeviceWhoseNodeComesAfterItsDirectory() throws {
        let result = try run(["--fast", "--appear-after", "0", "--node-after", "1"],
                             "$SHAKE record --reconnect --duration 2 -o $DIR/rec.csv")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Waiting for an accelerometer at local: to appear (--reconnect; Ctrl-C to stop): "),
                "\(result.stderr)")
        #expect(!result.stderr.contains("Device lost"), "\(result.stderr)")
        // The attempts that fail as the first one did (the node still missing) are not told again.
        #expect(!result.stderr.contains("Still waiting"), "\(result.stderr)")
        let rows = try Fixture.readRecording(path("rec.csv")).rows
        #expect(rows.count >= 100, "\(rows.count) samples")
        Fixture.expectSamples(rows, match: fixture.rows.prefix(rows.count))
    }

    /// A device waited for at the start that stalls once it is read is lost, as any device read:
    /// told so ("Device lost"), waited for again, and the outage counted; not a failed retry of
    /// the wait at the start. The device appears 0.5 s after the command and stalls after 60
    /// samples; the command is stopped once it has said what the stall was.
    @Test func aDeviceWaitedForAtTheStartThatStallsLaterIsLost() throws {
        let result = try run(["--fast", "--appear-after", "0.5", "--stall-after", "60"], """
            $SHAKE record --reconnect --timeout 0.5 -o $DIR/rec.csv 2>$DIR/err & pid=$!
            for i in $(seq 200); do grep -q 'Device lost\\|Still waiting' $DIR/err && break; sleep 0.05; done
            kill -INT $pid; wait $pid; status=$?; cat $DIR/err >&2; exit $status
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Device lost: iio_buffer_refill"), "\(result.stderr)")
        #expect(!result.stderr.contains("Still waiting"), "\(result.stderr)")
        #expect(result.stderr.contains("; 1 outage ("), "\(result.stderr)")
    }

    /// Without --reconnect, the missing device or iiod stays an error, and nothing is written.
    @Test(arguments: [(0, 66), (1, 74)])
    func withoutReconnectAMissingDeviceIsAnError(index: Int, status: Int32) throws {
        let (uri, options, _) = Self.lateStarts[index]
        let result = try run(options, "$SHAKE record --uri \(uri) --duration 2 -o $DIR/rec.csv")
        #expect(result.status == status, "\(result.stderr)")
        #expect(!result.stderr.contains("Waiting for"), "\(result.stderr)")
        #expect(result.stderr.contains(index == 0 ? "no accelerometer" : "iiod is not running at 127.0.0.1"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("rec.csv")))
    }

    // MARK: A signal while libiio connects

    /// An `iiod` that accepts connections and never answers (libiio 0.24 waits 5 s for it),
    /// killed when the script exits (it slept 60 s, keeping the emulator's namespace alive that
    /// long after each test).
    static let hungIiod = """
        python3 -c "
        import socket, time
        s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(('127.0.0.1', 30431)); s.listen(8); time.sleep(20)" & hung=$!
        trap 'kill $hung 2>/dev/null' EXIT
        sleep 0.5

        """

    /// (command, signal, a recording already under the name with --force)
    static let connectingSignals: [(command: String, signal: String, existing: Bool)] = [
        ("record", "INT", false), ("record", "TERM", true), ("record", "HUP", false), ("live", "INT", false),
    ]

    // Defect: SIGINT, SIGTERM and SIGHUP were ignored while libiio connected (5 s over ip:).
    @Test(arguments: 0..<connectingSignals.count)
    func signalWhileConnectingStopsAtOnceAndWritesNothing(index: Int) throws {
        let (command, signal, existing) = Self.connectingSignals[index]
        let old = "time_s,x,y,z\n0,0,0,9.8\n"
        if existing { try old.write(toFile: path("rec.csv"), atomically: true, encoding: .utf8) }
        let arguments = command == "record" ? "-o $DIR/rec.csv" + (existing ? " --force" : "") : ""
        let result = try run([], Self.hungIiod + """
            start=$(date +%s%N)
            $SHAKE \(command) --uri ip:127.0.0.1 \(arguments) & pid=$!
            sleep 1; kill -\(signal) $pid; wait $pid; status=$?
            echo $(( ($(date +%s%N) - start) / 1000000 )) > $DIR/elapsed_ms
            exit $status
            """)
        #expect(result.status == 0, "\(result.stderr)")
        let elapsed = try #require(Int(String(contentsOfFile: path("elapsed_ms"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        // The signal comes after 1 s; libiio alone would have held on until 5 s.
        #expect(elapsed < 3000, "stopped after \(elapsed) ms")
        #expect(!FileManager.default.fileExists(atPath: path("rec.csv.partial")))
        if command == "record" {
            #expect(result.stderr.contains("Stopped before reading started; \(path("rec.csv")) was not written"),
                    "\(result.stderr)")
            if existing {
                #expect(try String(contentsOfFile: path("rec.csv"), encoding: .utf8) == old)
            } else {
                #expect(!FileManager.default.fileExists(atPath: path("rec.csv")))
            }
        }
    }

    // Defect: --timeout did not bound the connection (libiio 0.24's fixed 5 s over ip:).
    @Test func connectingGivesUpAfterTheTimeout() throws {
        let result = try run([], Self.hungIiod + """
            start=$(date +%s%N)
            $SHAKE record --uri ip:127.0.0.1 --timeout 1 -o $DIR/rec.csv; status=$?
            echo $(( ($(date +%s%N) - start) / 1000000 )) > $DIR/elapsed_ms
            exit $status
            """)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("iiod at 127.0.0.1 did not give the context within 1.0 s"), "\(result.stderr)")
        let elapsed = try #require(Int(String(contentsOfFile: path("elapsed_ms"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(elapsed < 3000, "gave up after \(elapsed) ms")
        #expect(!FileManager.default.fileExists(atPath: path("rec.csv")))
    }

    // Defect: `devices` had no --timeout, and an iiod that said nothing held it for libiio's 5 s,
    // then was "Broken pipe (EPIPE); it was unplugged, its driver unbound, or the connection to
    // iiod closed".
    @Test func devicesGivesUpAfterItsTimeout() throws {
        let result = try run([], Self.hungIiod + """
            start=$(date +%s%N)
            $SHAKE devices --uri ip:127.0.0.1 --timeout 1; status=$?
            echo $(( ($(date +%s%N) - start) / 1000000 )) > $DIR/elapsed_ms
            exit $status
            """)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr == "Error: iio_create_context_from_uri(uri \"ip:127.0.0.1\"): Connection timed out (ETIMEDOUT): "
            + "iiod at 127.0.0.1 did not give the context within 1.0 s (--timeout): is it hung, or the host overloaded?\n",
            "\(result.stderr)")
        let elapsed = try #require(Int(String(contentsOfFile: path("elapsed_ms"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(elapsed < 3000, "gave up after \(elapsed) ms")
    }

    // Defect: a server on iiod's port that closed the connection read as a device "unplugged, its
    // driver unbound", and one that answered something else than iiod was a bare "Invalid
    // argument (EINVAL)". A closed connection gives libiio ECONNRESET or EPIPE, as its write or
    // its read comes first.
    @Test(arguments: [
        ("c.close()", ["Connection reset by peer (ECONNRESET)", "Broken pipe (EPIPE)"],
         "the connection to iiod at 127.0.0.1 (TCP port 30431) ended before it gave the context: it was closed, or "
            + "nothing answered within libiio's 5 s; is iiod what listens on that port, and is it running?"),
        ("c.recv(100); c.sendall(b'HTTP/1.0 400 Bad Request\\r\\n\\r\\n'); time.sleep(0.2); c.close()",
         ["Invalid argument (EINVAL)"],
         "what answered at 127.0.0.1 (TCP port 30431) gave no context libiio can read: is iiod what listens on that port?"),
    ])
    func somethingElseThanIiodOnItsPortIsSaidSo(answer: String, codes: [String], says: String) throws {
        let result = try run([], """
            python3 -c "
            import socket, time
            s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(('127.0.0.1', 30431)); s.listen(8); s.settimeout(3)
            while True:
                c, _ = s.accept(); \(answer)" 2>/dev/null &
            sleep 0.5
            $SHAKE devices --uri ip:127.0.0.1
            """)
        #expect(result.status == 74, "\(result.stderr)")
        let said = codes.map { "Error: iio_create_context_from_uri(uri \"ip:127.0.0.1\"): \($0): \(says)\n" }
        #expect(said.contains(result.stderr), "\(result.stderr)")
    }

    // MARK: What is printed, and when

    // Defect: "Listening to ..." came before the buffer was created, so before a permission error.
    @Test(arguments: [false, true])
    func listeningIsPrintedOnlyOnceReadingStarted(asNobody: Bool) throws {
        let user = asNobody ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
        let result = try run(["--fast"], "\(user)$SHAKE live --duration 1")
        if asNobody {
            #expect(result.status == 77, "\(result.stderr)")
            #expect(result.stderr.contains("Permission denied"), "\(result.stderr)")
            #expect(!result.stderr.contains("Listening to"), "\(result.stderr)")
        } else {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("Listening to shakekit-accel at 50 Hz (buffered, local:)"), "\(result.stderr)")
        }
    }

    /// While tuning on the device, which configuration is listening is said.
    @Test func listeningSaysWhichConfigurationDetects() throws {
        let result = try run(["--fast"], "$SHAKE live --duration 0.2 2> $DIR/default.err; "
            + "$SHAKE live --duration 0.2 --preset hard 2> $DIR/hard.err; "
            + "$SHAKE config --preset light -o $DIR/tuned.json && $SHAKE live --duration 0.2 --config $DIR/tuned.json")
        #expect(result.status == 0, "\(result.stderr)")
        let said = { (file: String) in try String(contentsOfFile: self.path(file), encoding: .utf8) }
        let start = "Listening to shakekit-accel at 50 Hz (buffered, local:) with "
        #expect(try said("default.err").contains(start + "the medium preset; Ctrl-C to stop.\n"))
        #expect(try said("hard.err").contains(start + "the hard preset; Ctrl-C to stop.\n"))
        #expect(result.stderr.contains(start + "the configuration in \(path("tuned.json")); Ctrl-C to stop.\n"),
                "\(result.stderr)")
    }

    // Defect: libiio's own warnings reached stderr raw (the emulated device has no mmap buffers).
    @Test(arguments: [false, true])
    func libiioMessagesShowOnlyWithVerbose(verbose: Bool) throws {
        let result = try run(["--fast"], "$SHAKE record --duration 1 -o $DIR/rec.csv" + (verbose ? " --verbose" : ""))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("WARNING: High-speed mode not enabled") == verbose, "\(result.stderr)")
        #expect(result.stderr.contains("Recorded "), "\(result.stderr)")
    }

    // Defect: a --device that is not there exited 74 (I/O error); it is missing input (66).
    @Test(arguments: ["local:", "ip:127.0.0.1"])
    func unknownDeviceNameIsMissingInput(uri: String) throws {
        let result = try run(["--iiod"], "$SHAKE record --uri \(uri) --device lid -o $DIR/rec.csv")
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.contains("no such accelerometer; present: shakekit-accel"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("rec.csv")))
    }

    // Defect: one device with a malformed mount matrix made `shake devices` fail as a whole.
    @Test(arguments: ["local:", "ip:127.0.0.1"])
    func devicesListsADeviceWithAMalformedMountMatrix(uri: String) throws {
        let result = try run(["--iiod", "--sysfs-attr", "in_accel_mount_matrix=1, 0; 0, 1"],
                             "$SHAKE devices --uri \(uri) --format json > $DIR/devices.json && $SHAKE devices --uri \(uri)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("iio:device0: shakekit-accel\n"), "\(result.stdout)")
        #expect(result.stdout.contains("    mount matrix:   unusable (reading needs --mount-matrix): "), "\(result.stdout)")
        #expect(result.stdout.contains("attribute \"in_accel_mount_matrix\"") && result.stdout.contains("'1, 0; 0, 1' is not a mount matrix"),
                "\(result.stdout)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("devices.json")))) as? [String: Any]
        let device = try #require((json?["accelerometers"] as? [[String: Any]])?.first)
        #expect((device["mount_matrix_problem"] as? String)?.contains("is not a mount matrix") == true, "\(device)")
        #expect(device["scale_m_s2_per_lsb"] as? Double == Fixture.scale)
    }

    // Defect: a device matrix that scales, or is all zeros, was applied as it was: the zeros
    // silenced every sample (0 shakes, no word), the scaling doubled every peak.
    @Test(arguments: ["2, 0, 0; 0, 2, 0; 0, 0, 2", "0, 0, 0; 0, 0, 0; 0, 0, 0"])
    func aDeviceMatrixThatIsNoRotationStopsReadingAndSaysHowToOverride(matrix: String) throws {
        let result = try run(["--sysfs-attr", "in_accel_mount_matrix=\(matrix)"],
                             "$SHAKE devices; $SHAKE record --duration 1 -o $DIR/rec.csv")
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stdout.contains("    mount matrix:   unusable (reading needs --mount-matrix): "), "\(result.stdout)")
        #expect(result.stderr.contains("attribute \"in_accel_mount_matrix\""), "\(result.stderr)")
        #expect(result.stderr.contains(matrix.hasPrefix("2") ? "the matrix is not a rotation" : "the matrix is singular"),
                "\(result.stderr)")
        #expect(result.stderr.contains("; pass --mount-matrix with the board's true matrix"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("rec.csv")))
    }

    // MARK: A polled read that never returns (a stuck sensor or bus)

    /// Milliseconds the script's `start=$(date +%s%N)` ... `elapsed` took, as it wrote them.
    func elapsedMilliseconds() throws -> Int {
        try #require(Int(String(contentsOfFile: path("elapsed_ms"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    static let elapsed = "echo $(( ($(date +%s%N) - start) / 1000000 )) > $DIR/elapsed_ms"

    // Defect: in polled mode a read of in_accel_x_raw that blocked hung `live` for ever: no
    // timeout, and SIGINT did nothing (only SIGKILL ended it).
    @Test func aReadThatNeverReturnsEndsTheRunAfterTheTimeout() throws {
        // The reads block from sample 100 on (2 s at 50 Hz); `timeout` keeps a hang from
        // hanging the test (status 137).
        let result = try run(["--no-buffer", "--hang-reads-after", "100"], """
            start=$(date +%s%N)
            timeout -s KILL 20 $SHAKE live --timeout 1 --duration 15; status=$?
            \(Self.elapsed)
            exit $status
            """)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("iio_channel_attr_read(uri \"local:\", device \"shakekit-accel\", channel \"accel_x\", "
            + "attribute \"raw\"): Connection timed out (ETIMEDOUT): the read has not returned within 1.0 s"), "\(result.stderr)")
        #expect(result.stderr.contains("is the sensor or its bus (I2C, SPI) stuck?"), "\(result.stderr)")
        let elapsed = try elapsedMilliseconds()
        #expect(elapsed < 6000, "ended after \(elapsed) ms (2 s of samples, then 1 s of timeout)")
    }

    // Defect: the same hang ignored Ctrl-C and SIGTERM; the samples before it must be kept.
    @Test(arguments: ["INT", "TERM"])
    func aSignalStopsAtOnceWhileAReadHangs(signal: String) throws {
        let result = try run(["--no-buffer", "--hang-reads-after", "100"], """
            $SHAKE record --timeout 30 -o $DIR/rec.csv & pid=$!
            (sleep 20; kill -KILL $pid) 2>/dev/null &  # a hang must not hang the test
            sleep 3.5
            start=$(date +%s%N)
            kill -\(signal) $pid; wait $pid; status=$?
            \(Self.elapsed)
            exit $status
            """)
        #expect(result.status == 0, "\(result.stderr)")
        let elapsed = try elapsedMilliseconds()
        #expect(elapsed < 1500, "stopped \(elapsed) ms after the signal")
        let rows = try Fixture.readRecording(path("rec.csv")).rows
        #expect((90...101).contains(rows.count), "\(rows.count) samples (100 were readable)")
        // Polled samples carry the reader's clock: the values are what it kept, the first 100
        // of the recording (torn samples allowed).
        let (unmatched, position) = Fixture.followPolls(rows, through: Array(fixture.rows.prefix(101)))
        #expect(unmatched * 10 <= rows.count, "\(unmatched) of \(rows.count) polls matched none of the first 100 samples")
        #expect(position >= 80, "reached fixture sample \(position)")
    }

    // With --reconnect the run outlasts the stuck read and goes on once it returns. (Each
    // attempt meanwhile fails to find the device: libiio's local backend lists only regular
    // files, and the emulated stuck attribute is a FIFO. On a real device the attempt would
    // find it and wait for the stuck read: `BlockingReadTests` covers that wait.)
    @Test func reconnectOutlastsAStuckRead() throws {
        let result = try run(["--no-buffer", "--hang-reads-after", "100", "--hang-for", "3"],
                             "timeout -s KILL 30 $SHAKE record --reconnect --timeout 0.3 --duration 8 -o $DIR/rec.csv")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("the read has not returned within 0.3 s"), "\(result.stderr)")
        #expect(result.stderr.contains("1 outage ("), "\(result.stderr)")
        let rows = try Fixture.readRecording(path("rec.csv")).rows
        // 2 s before the stuck read, 3 s stuck, then reading goes on to 8 s.
        #expect(rows.count >= 200, "\(rows.count) samples: reading went on after the stuck read")
        #expect((rows.last?.time ?? 0) >= 7.5, "the recording ends at \(rows.last?.time ?? 0) s")
    }

    // MARK: The emulator

    // Defect: polling a buffered emulated device read one constant sample (the feeder only
    // filled the buffer's FIFO).
    @Test func pollingABufferedEmulatedDeviceFollowsTheRecording() throws {
        let result = try run(["--speed", "2"], "$SHAKE record --mode polled --duration 2 -o $DIR/rec.csv")
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try Fixture.readRecording(path("rec.csv")).rows
        #expect(rows.count >= 30, "\(rows.count) samples")
        #expect(Set(rows.map(\.x)).count > rows.count / 2, "\(Set(rows.map(\.x)).count) distinct x values in \(rows.count)")
        // Each polled sample comes from the fixture, in playback order (torn samples allowed).
        let (unmatched, position) = Fixture.followPolls(rows, through: fixture.rows)
        #expect(unmatched * 10 <= rows.count, "\(unmatched) of \(rows.count) polls matched no fixture sample")
        #expect(position >= 40, "reached fixture sample \(position)")
    }

    // Defect: every emulator run with --iiod wrote the one log file /run/shakekit-iio-emulator-iiod.log,
    // so runs side by side overwrote each other's.
    @Test func iiodLogStaysInsideTheRun() throws {
        let shared = "/run/shakekit-iio-emulator-iiod.log"
        try? FileManager.default.removeItem(atPath: shared)
        let result = try run(["--iiod"], "$SHAKE devices --uri ip:127.0.0.1")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: shared))
    }
}
