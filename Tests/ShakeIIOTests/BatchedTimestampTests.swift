import Foundation
import ShakeDetection
import Testing
@testable import ShakeIIO

/// A driver with a hardware FIFO that stamps each batch with one time (`same`), or its samples
/// 10 µs apart as it reads them out (`burst`): `Fixtures/shakes_100hz.csv` (5 shakes) stamped so
/// by `Scripts/resample --fifo 4`, played by the emulator and read through libiio's local backend
/// by a reader inside it (``BatchedTimestampsInEmulator``). Need root.
@Suite(.serialized, .enabled(if: !Emulator.skipRequested && !InsideEmulator.isInside, "SHAKEKIT_SKIP_IIO=1 is set"))
final class BatchedTimestampTests: EmulatorSuite {
    static let original = Emulator.repositoryRoot.appendingPathComponent("Fixtures/shakes_100hz.csv").path

    /// `Fixtures/shakes_100hz.csv` as delivered in FIFO batches of `fifo` stamped `stamps` (by a
    /// sensor at `rateHertz`, when given).
    func batchedRecording(fifo: Int, stamps: String, of fixture: String = "shakes_100hz.csv",
                          rateHertz: Int? = nil) throws -> String {
        let output = path("fifo\(fifo)\(stamps)")
        let process = Process()
        process.executableURL = Emulator.repositoryRoot.appendingPathComponent("Scripts/resample")
        process.arguments = [Emulator.repositoryRoot.appendingPathComponent("Fixtures").path, output,
                             "--pattern", fixture, "--fifo", "\(fifo)", "--fifo-stamps", stamps]
            + (rateHertz.map { ["--rate", "\($0)"] } ?? [])
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "Scripts/resample failed")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: output).first { $0.hasSuffix(".csv") })
        return "\(output)/\(name)"
    }

    /// Runs `BatchedTimestampsInEmulator/<test>()` inside the emulator playing the recording in
    /// batches of `fifo` stamped `stamps` (as fast as it is read, unless `options` say otherwise).
    func readInside(_ test: String = "readsTheBatchedRecording", fifo: Int, stamps: String, spreads: Bool = true,
                    of fixture: String = "shakes_100hz.csv", options: [String] = ["--fast"],
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        let recording = try batchedRecording(fifo: fifo, stamps: stamps, of: fixture)
        try runTestInside("BatchedTimestampsInEmulator", test, recording: recording, options: options,
                          environment: ["\(BatchedTimestampsInEmulator.variable)=\(fifo) \(stamps) \(spreads)"],
                          sourceLocation: sourceLocation)
    }

    /// Batches of 32 stamped apart fill the rate check's 32 intervals with one batch: it used to
    /// measure 100 kHz from them and count 2.3 million drops.
    @Test(arguments: [(4, "same"), (4, "burst"), (32, "burst")])
    func batchedTimesAreSpreadAndEverySampleDelivered(fifo: Int, stamps: String) throws {
        try readInside(fifo: fifo, stamps: stamps, spreads: true)
    }

    /// As before the option: three samples in four discarded, or bunched.
    @Test(arguments: ["same", "burst"])
    func withoutSpreadingTheKernelsTimesAreKept(stamps: String) throws {
        try readInside(fifo: 4, stamps: stamps, spreads: false)
    }

    /// A device at 400 Hz that reports 100 Hz, in batches of 4 stamped the same: its rate is
    /// measured per batch (the raw intervals' median is 0), and nothing is discarded or dropped.
    @Test func aBatchedDeviceFasterThanItReportsIsMeasured() throws {
        try readInside("readsABatchedDeviceFasterThanItReports", fifo: 4, stamps: "same", of: "same_motion_400hz.csv",
                       options: ["--fast", "--rate-hz", "100"])
    }

    /// Batches of 32 at 50 Hz (0.64 s, longer than the detector's gap limit) stamped 10 us apart:
    /// not a 100 kHz device with 2.9 million drops, as the raw intervals' median said; and spread
    /// (the spreader's own gap limit is 1.5 s; at 0.5 s they were left bunched).
    @Test func batchesLongerThanTheDetectorsGapLimitCountNoDropsAndAreSpread() throws {
        try readInside("readsBatchesLongerThanTheDetectorsGapLimit", fifo: 32, stamps: "burst", of: "walking_hand_50hz.csv")
    }

    /// Batches of 32 at 20 Hz (1.6 s: longer than the spreader's own gap limit, 1.5 s, whose
    /// mean interval then leaves them out) stamped 10 µs apart: judged by the period the rate
    /// check found over the first batches, so no drop is counted (each sample taken as a batch
    /// of its own, every batch would count 31).
    @Test func batchesLongerThanTheSpreadersGapLimitCountNoDrops() throws {
        let recording = try batchedRecording(fifo: 32, stamps: "burst", of: "walking_hand_50hz.csv", rateHertz: 20)
        let result = try Emulator.run(
            fixture: recording, options: ["--fast"],
            command: [try Emulator.shake, "record", "--duration", "20", "-o", path("rec.csv")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains(" at 20 Hz; dropped 0 in 0 gaps -> "), "\(result.stderr)")
    }

    /// `shake record` and `shake live` over a driver that stamps each batch of 4 once: each
    /// summary says how many times were spread and that nothing was dropped, the recording has
    /// every sample of its 5 s with times going forward, and live's JSON summary gives the count.
    @Test func recordAndLiveSayHowManyTimesWereSpread() throws {
        let recording = try batchedRecording(fifo: 4, stamps: "same")
        // Each in an emulator of its own: a second reader in the same one starts mid-batch, where
        // the samples of the batch read before it count as dropped.
        for command in ["$SHAKE record --duration 5 -o $DIR/rec.csv", "$SHAKE live --format json --duration 5 > $DIR/live.json"] {
            let result = try Emulator.run(
                fixture: recording, options: ["--fast"],
                command: ["env", "SHAKE=\(try Emulator.shake)", "DIR=\(directory.path)", "sh", "-c", command])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("; dropped 0 in 0 gaps; ") && result.stderr.contains(
                " sample times spread over their FIFO batches (the driver stamps a batch once, or as it reads it out)"),
                    "\(command): \(result.stderr)")
        }
        let rows = try Fixture.readRecording(path("rec.csv")).rows
        #expect(rows.count >= 495 && rows.count <= 505, "\(rows.count) rows for 5 s at 100 Hz")
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.time < $1.time }, "a time did not go forward")
        let last = try #require(try String(contentsOfFile: path("live.json"), encoding: .utf8).split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Any], "\(last)")
        let spread = try #require(summary["spread_samples"] as? Int, "\(last)")
        // Three in four, less the first batch or so before the reader had judged the stream.
        #expect(spread > 300 && spread <= 375, "\(spread) spread of about 500")
    }

    /// With --keep-batch-times the driver's times are kept: of each batch of 4 stamped once only
    /// its first sample has a new time, the other three are discarded, and both summaries say so
    /// (live's JSON too), pointing back at the default; nothing is said to be spread.
    @Test func keepBatchTimesKeepsTheDriversTimesAndCountsTheDiscarded() throws {
        let recording = try batchedRecording(fifo: 4, stamps: "same")
        for command in ["$SHAKE record --keep-batch-times --duration 5 -o $DIR/kept.csv",
                        "$SHAKE live --keep-batch-times --format json --duration 5 > $DIR/kept.json"] {
            let result = try Emulator.run(
                fixture: recording, options: ["--fast"],
                command: ["env", "SHAKE=\(try Emulator.shake)", "DIR=\(directory.path)", "sh", "-c", command])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains(" samples discarded: their time did not increase (a FIFO batch stamped "
                                           + "once? leave out --keep-batch-times to spread them)"),
                    "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("spread over"), "\(command): \(result.stderr)")
        }
        let rows = try Fixture.readRecording(path("kept.csv")).rows
        #expect(rows.count >= 120 && rows.count <= 130, "\(rows.count) rows: one in 4 of 5 s at 100 Hz")
        let last = try #require(try String(contentsOfFile: path("kept.json"), encoding: .utf8).split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Any], "\(last)")
        let discarded = try #require(summary["discarded_samples"] as? Int, "\(last)")
        let samples = try #require(summary["samples"] as? Int, "\(last)")
        #expect(discarded >= 3 * samples - 6 && discarded <= 3 * samples + 3, "\(discarded) discarded, \(samples) kept")
        #expect(summary["spread_samples"] == nil, "\(last)")
    }

    /// A reconnection reads with a new reader, whose spreading starts afresh: after the outage
    /// no sample is discarded either.
    @Test func spreadingStartsAfreshAfterAReconnection() throws {
        try readInside("reconnectingReadsSpreadAfterTheDeviceComesBack", fifo: 4, stamps: "same",
                       options: ["--vanish-after", "100", "--return-after", "1"])
    }
}

/// Run only inside the emulator, by ``BatchedTimestampTests``, which says in ``variable`` what is
/// played: "FIFO STAMPS SPREADS", e.g. "4 same true".
@Suite(.serialized, .enabled(if: InsideEmulator.isInside, "runs inside Scripts/iio-emulator, started by BatchedTimestampTests"))
struct BatchedTimestampsInEmulator {
    static let variable = "SHAKEKIT_IIO_BATCHED_STAMPS"

    /// The recording's own samples, times from its first: (time, x, y, z).
    static func originalSamples() throws -> [Sample] {
        let text = try String(contentsOfFile: BatchedTimestampTests.original, encoding: .utf8)
        var samples: [Sample] = []
        for line in text.split(separator: "\n") where line.first?.isNumber == true {
            let fields = line.split(separator: ",").prefix(4).compactMap { Double($0) }
            try #require(fields.count == 4, "\(line)")
            samples.append(Sample(time: fields[0], x: fields[1], y: fields[2], z: fields[3]))
        }
        let first = try #require(samples.first).time
        return samples.map { Sample(time: $0.time - first, x: $0.x, y: $0.y, z: $0.z) }
    }

    /// The `.began` events a default detector finds in `samples`.
    static func began(_ samples: [Sample]) -> [ShakeEvent] {
        var detector = ShakeDetector()
        return samples.compactMap { detector.process($0) }.filter { $0.phase == .began }
    }

    @Test func readsTheBatchedRecording() throws {
        let played = try #require(ProcessInfo.processInfo.environment[Self.variable]).split(separator: " ")
        let fifo = try #require(Int(played[0]))
        let stamps = String(played[1])
        let spreads = played[2] == "true"
        let original = try Self.originalSamples()
        let reader = try AccelerometerReader(options: AccelerometerReadOptions(
            mode: .buffered, readTimeout: 1, spreadsBatchedTimes: spreads))
        let rate = reader.rateHertz
        #expect(rate == 100)
        var samples: [Sample] = []
        do {
            try reader.run { samples.append($0) }
            Issue.record("reading ended without the stall at the end of the recording")
        } catch let error as IIOError where error.kind == .timedOut {
            // The recording was played to its end: the device sends nothing more.
        }
        let statistics = reader.statistics
        let intervals = zip(samples.dropFirst(), samples).map { $0.time - $1.time }
        let batchPeriod = Double(fifo) / rate

        guard spreads else {
            // The kernel's times as given: stamped the same, all but each batch's first sample
            // are discarded; stamped apart, they come 10 µs apart.
            if stamps == "same" {
                #expect(samples.count == original.count / fifo)
                #expect(statistics.outOfOrderSamples == original.count - original.count / fifo)
            } else {
                #expect(samples.count == original.count)
                #expect(intervals.count { $0 < 1e-4 } == original.count - original.count / fifo)
            }
            #expect(statistics.spreadSamples == 0)
            return
        }

        // Every sample delivered, none discarded or counted as dropped, times going forward.
        #expect(samples.count == original.count)
        #expect(statistics.samplesDelivered == original.count)
        #expect(statistics.outOfOrderSamples == 0)
        #expect(statistics.droppedSamples == 0 && statistics.gaps == 0, "\(statistics)")
        #expect(statistics.measuredRateHertz == nil, "\(statistics)")
        #expect(intervals.allSatisfy { $0 > 0 })
        // Each sample within one batch period of when it was measured (times from the first).
        let worst = zip(samples, original).map { abs($0.time - $1.time) }.max() ?? .infinity
        #expect(worst <= batchPeriod, "a sample \(worst) s off its recorded time")
        // Even times: stamped the same, every interval from the first (the reader spaces samples
        // stamped alike by the rate until the spreader has seen 32 intervals); stamped apart,
        // once the spreader has (within the first 64 samples, or 3 batches). The spreader puts a
        // batch's samples 0.98 of a period apart, so the interval to the next batch is 0.02 of a
        // period longer per sample; the recording's last batch, cut short, is left out.
        let unspread = max(64, 3 * fifo)
        let even = (stamps == "same" ? intervals[...] : intervals.dropFirst(unspread)).dropLast(fifo)
        let (shortest, longest) = (even.min() ?? 0, even.max() ?? 0)
        let (low, high) = (0.5 / rate, (1.5 + 0.02 * Double(fifo - 1)) / rate)
        let uneven = even.enumerated().filter { $0.element < low || $0.element > high }
        #expect(shortest >= low && longest <= high,
                "intervals \(shortest) to \(longest) s; outside \(low) to \(high) s: \(uneven.prefix(10).map { ($0.offset, $0.element) })")
        if stamps == "same" {
            #expect(statistics.spreadSamples == original.count - original.count / fifo)
        } else {
            #expect(statistics.spreadSamples > (original.count - original.count / fifo) - unspread)
        }

        // The detector finds the shakes it finds in the evenly stamped recording, beginning
        // within a sample period of them (measured: 0.4 ms).
        let expected = Self.began(original)
        let found = Self.began(samples)
        #expect(expected.count == 5)
        #expect(found.count == expected.count)
        for (got, want) in zip(found, expected) {
            #expect(abs(got.time - want.time) <= 1 / rate, "began at \(got.time) s, evenly stamped at \(want.time) s")
            #expect(abs(got.startTime - want.startTime) <= 1 / rate,
                    "started at \(got.startTime) s, evenly stamped at \(want.startTime) s")
        }
    }

    /// Through a ``ReconnectingAccelerometerReader``: the device vanishes after 100 samples and
    /// comes back a second later; the samples after it are spread as those before.
    @Test func reconnectingReadsSpreadAfterTheDeviceComesBack() async throws {
        let reader = ReconnectingAccelerometerReader(options: AccelerometerReadOptions(readTimeout: 0.5),
                                                     retryInterval: 0.1)
        var connections = 0
        var before: [Sample] = [], after: [Sample] = []
        for try await update in reader.updates() {
            switch update {
            case .event(.connected): connections += 1
            case .event: break
            case .sample(let sample):
                if connections == 1 { before.append(sample) } else { after.append(sample) }
            }
            if after.count == 200 { break }
        }
        let statistics = reader.statistics
        #expect(connections == 2)
        #expect(before.count == 100, "\(before.count) samples before the outage")
        #expect(statistics.outOfOrderSamples == 0, "\(statistics)")
        #expect(statistics.droppedSamples == 0, "\(statistics)")
        // Every sample but the first of each batch of 4 spread, in both connections.
        #expect(statistics.spreadSamples >= 3 * (before.count + after.count) / 4 - 2, "\(statistics)")
        let afterIntervals = zip(after.dropFirst(), after).map { $0.time - $1.time }
        #expect(after.first.map { $0.time > before.last!.time } == true)
        #expect(afterIntervals.allSatisfy { $0 >= 0.005 && $0 <= 0.015 },
                "\(afterIntervals.enumerated().filter { !($0.element >= 0.005 && $0.element <= 0.015) }.prefix(10))")
    }

    @Test func readsABatchedDeviceFasterThanItReports() throws {
        let reader = try AccelerometerReader(options: AccelerometerReadOptions(mode: .buffered, readTimeout: 1))
        #expect(reader.rateHertz == 100)
        var times: [Double] = []
        do {
            try reader.run { times.append($0.time) }
        } catch let error as IIOError where error.kind == .timedOut {}
        let statistics = reader.statistics
        #expect(times.count == 5200)
        #expect(statistics.outOfOrderSamples == 0 && statistics.droppedSamples == 0, "\(statistics)")
        #expect(abs((statistics.measuredRateHertz ?? 0) - 400) < 20, "\(statistics)")
        #expect(zip(times.dropFirst(), times).allSatisfy { $0 > $1 })
        // Samples stamped alike are spaced by the batches' mean period (2.5 ms) even before the
        // rate is measured, so that the first batches run little ahead of their stamps: from the
        // 64th sample on, every interval is within half and 1.5 periods of 400 Hz (plus 0.02 of
        // a period per sample of a batch, as in readsTheBatchedRecording); the last batch, cut
        // short, is left out.
        let period = 1 / 400.0
        let intervals = zip(times.dropFirst(), times).map { $0 - $1 }
        let uneven = intervals.enumerated().dropFirst(64).dropLast(4)
            .filter { $0.element < 0.5 * period || $0.element > 1.56 * period }
        #expect(uneven.isEmpty, "\(uneven.prefix(10).map { ($0.offset, $0.element) })")
    }

    @Test func readsBatchesLongerThanTheDetectorsGapLimit() throws {
        let reader = try AccelerometerReader(options: AccelerometerReadOptions(mode: .buffered, readTimeout: 1))
        var times: [Double] = []
        do {
            try reader.run { times.append($0.time) }
        } catch let error as IIOError where error.kind == .timedOut {}
        let statistics = reader.statistics
        #expect(times.count == 1500)
        #expect(statistics.outOfOrderSamples == 0 && statistics.droppedSamples == 0 && statistics.gaps == 0, "\(statistics)")
        #expect(statistics.measuredRateHertz == nil, "\(statistics)")
        // Spread once the spreader has judged the stream (after its first two or three batches):
        // no interval of the rest is a batch long, none under half a period (50 Hz). The last
        // batch, cut short, is stamped early and squeezed against the one before: left out.
        #expect(statistics.spreadSamples > 1500 * 31 / 32 - 3 * 32, "\(statistics)")
        let intervals = zip(times.dropFirst(), times).map { $0 - $1 }.dropFirst(3 * 32).dropLast(32)
        let odd = intervals.enumerated().filter { !($0.element > 0.01 && $0.element < 0.04) }
        #expect(odd.isEmpty, "\(odd.prefix(8).map { ($0.offset, $0.element) })")
    }
}
