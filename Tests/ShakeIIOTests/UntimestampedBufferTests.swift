import Foundation
import ShakeDetection
import Testing
@testable import ShakeIIO

/// A buffered device without a timestamp channel (`Scripts/iio-emulator --no-timestamp`), whose
/// samples the reader times itself (``ArrivalRateClock``): `Fixtures/shakes_100hz.csv` played at
/// its pace, or at another than the device states, and read through libiio by a reader inside
/// the emulator (``UntimestampedBufferInEmulator``), which finds a backlog now and then
/// (`--backlog EVERY:PAUSE`: the samples of each pause delivered at once, as a reader finds them
/// after it was descheduled or its consumer was slow; at most the kernel buffer's `buffer/length`
/// of them, 16 at the default 0.04 s refills of 4 samples, the newer ones lost). Each sample read
/// is matched to the recording's by its values, which tells when it was measured and which were
/// lost. Need root.
@Suite(.serialized, .enabled(if: !Emulator.skipRequested && !InsideEmulator.isInside, "SHAKEKIT_SKIP_IIO=1 is set"))
final class UntimestampedBufferTests: EmulatorSuite {
    /// The emulator, its feeder and the reader run at this raised priority (`nice -n`), as device
    /// software timing samples by arrival would run its reader: these tests check the clock's
    /// times to 5 ms and its losses to the sample. Run beside the rest of the tests (two
    /// processes on two cores), at the default priority that load now and then woke the reader
    /// late enough to count a sample lost that was not, or to time one over 5 ms off (a
    /// whole-suite run in three); raised, still in 2 CI runs of 7 (stop 55): `Scripts/test` now
    /// runs this suite alone, after the others. The clock's own tests play such jitter
    /// (`ArrivalRateClockTests`).
    static let niceness = -10

    /// Runs `UntimestampedBufferInEmulator/<test>()` inside the emulator with `options`, the
    /// reader at `uri`, the recording played `speed` times as fast.
    func readInside(_ test: String, options: [String], uri: String = "local:", speed: Double = 1,
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        try runTestInside("UntimestampedBufferInEmulator", test, recording: BatchedTimestampTests.original,
                          options: ["--no-timestamp", "--speed", "\(speed)"] + options + (uri == "local:" ? [] : ["--iiod"]),
                          environment: ["\(UntimestampedBufferInEmulator.variable)=\(uri) \(speed)"],
                          niceness: Self.niceness, sourceLocation: sourceLocation)
    }

    /// Pauses of 0.12 s every 0.5 s: 12 samples waiting, which the kernel buffer holds. They used
    /// to be timed by their arrival, bunched together: of each backlog's refills after the first,
    /// all but one sample came no later than the refill before and were discarded (51 of 602 in
    /// 6 s), the rest microseconds apart, and the pauses counted as 78 dropped samples in 9 gaps,
    /// though none was lost.
    @Test(arguments: ["local:", "ip:127.0.0.1"])
    func aBacklogTheBufferHoldsKeepsEverySampleEvenlyTimed(uri: String) throws {
        try readInside("readsWithoutLoss", options: ["--backlog", "0.5:0.12"], uri: uri)
    }

    /// A reader whose first refill comes 0.1 s after it made the buffer (its `onStart` slow: 10
    /// samples waiting, which the kernel buffer holds, read at once): every sample kept, evenly
    /// timed after the backlog, no drop, the shakes where they were. (The period was measured from
    /// that backlog, microseconds, and stayed so: 415,777 drops counted in 303 gaps in 6 s.)
    @Test func aFirstRefillThatIsABacklogCountsNoDrops() throws {
        try readInside("readsWithoutLossAfterASlowStart", options: [])
    }

    /// A device that states 25 Hz and delivers 100 (refills of 1 sample, a kernel buffer of 4),
    /// with backlogs of 3 samples: timed at its own rate, with real time; its shakes begin when
    /// they did. (A clock by count at the stated rate ran at 4 times real speed.)
    @Test func aDeviceFasterThanItStatesStaysWithRealTime() throws {
        try readInside("readsWithoutLoss", options: ["--rate-hz", "25", "--backlog", "0.5:0.03"])
    }

    /// A device that states 100 Hz and delivers 50 (the recording played at half speed), with
    /// backlogs: no drop counted (a clock by count at the stated rate counted one per refill).
    @Test func aDeviceSlowerThanItStatesCountsNoDrops() throws {
        try readInside("readsWithoutLoss", options: ["--backlog", "0.5:0.1"], speed: 0.5)
    }

    /// Pauses of 0.5 s every second: 50 samples waiting, of which the kernel buffer keeps the first
    /// 16; the rest are lost. The samples kept come on time after those before, and the gap
    /// follows them, counted as the samples lost.
    @Test func aBacklogBeyondTheBufferIsAGapWhereTheSamplesWereLost() throws {
        try readInside("readsBacklogsBeyondTheBuffer", options: ["--backlog", "1:0.5"])
    }
}

/// Run only inside the emulator, by ``UntimestampedBufferTests``, which says in ``variable``
/// the URI to read and the speed the recording is played at: "URI SPEED".
@Suite(.serialized, .enabled(if: InsideEmulator.isInside, "runs inside Scripts/iio-emulator, started by UntimestampedBufferTests"))
struct UntimestampedBufferInEmulator {
    static let variable = "SHAKEKIT_IIO_UNTIMESTAMPED"

    /// What the reader delivered, with the monotonic time (s) at which each sample was handed
    /// over, and the index in the recording of each (matched by its values).
    struct Read {
        var samples: [Sample] = []
        var handedOver: [Double] = []
        var statistics = AccelerometerReadStatistics()
        var statedRate = 0.0
        var indices: [Int] = []
        /// When each sample was measured, s from the first, by the recording and the speed.
        var measured: [Double] = []
        var intervals: [Double] { zip(samples.dropFirst(), samples).map { $0.time - $1.time } }
    }

    /// Reads `seconds` of samples with the default options (refills of 0.04 s at the stated rate),
    /// the first refill `startDelay` s after the buffer was made (a slow `onStart`).
    static func read(seconds: Double, startDelay: Double = 0) throws -> Read {
        let setting = try #require(ProcessInfo.processInfo.environment[variable]).split(separator: " ")
        let uri = String(setting[0])
        let speed = try #require(Double(setting[1]))
        let reader = try AccelerometerReader(uri: uri, options: AccelerometerReadOptions(mode: .buffered, readTimeout: 1))
        #expect(!reader.device.hasTimestampChannel)
        var read = Read(statedRate: reader.rateHertz)
        try reader.run(onStart: { if startDelay > 0 { usleep(UInt32(startDelay * 1e6)) } }) { sample in
            let now = AccelerometerReader.monotonicSeconds()
            read.samples.append(sample)
            read.handedOver.append(now)
            if now - read.handedOver[0] >= seconds { reader.stop() }
        }
        read.statistics = reader.statistics
        // Each sample is the recording's next one with its values (to the emulator's 0.004788
        // m/s² a step), the samples in between lost.
        let original = try BatchedTimestampsInEmulator.originalSamples()
        var next = 0
        for sample in read.samples {
            guard let index = original[next...].firstIndex(where: {
                abs($0.x - sample.x) < 0.003 && abs($0.y - sample.y) < 0.003 && abs($0.z - sample.z) < 0.003
            }) else {
                Issue.record("sample \(read.indices.count) (\(sample)) is none of the recording's after \(next)")
                break
            }
            read.indices.append(index)
            next = index + 1
        }
        let first = original[read.indices.first ?? 0].time
        read.measured = read.indices.map { (original[$0].time - first) / speed }
        return read
    }

    /// Times strictly increasing; none after the sample was handed over (from the first: by no
    /// more than the first refill's span at the stated rate, from which the first is timed); and
    /// after the first second each within 5 ms of when it was measured, against the median (under
    /// 1 ms measured).
    static func expectWithRealTime(_ read: Read, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(read.statistics.outOfOrderSamples == 0 && read.intervals.allSatisfy { $0 > 0 },
                "\(read.statistics.outOfOrderSamples) out of order", sourceLocation: sourceLocation)
        let refill = max(1, (read.statedRate * 0.04).rounded())
        let afterHandover = zip(read.samples, read.handedOver).map { $0.time - ($1 - read.handedOver[0]) }.max() ?? 0
        #expect(afterHandover <= (refill - 1) / read.statedRate + 0.002,
                "a sample timed \(afterHandover) s after it was handed over", sourceLocation: sourceLocation)
        let offsets = zip(read.samples, read.measured).filter { $0.1 >= 1 }.map { $0.0.time - $0.1 }.sorted()
        let median = offsets.isEmpty ? 0 : offsets[offsets.count / 2]
        let off = offsets.map { abs($0 - median) }.max() ?? 0
        #expect(offsets.count > 100 && off <= 0.005, "a sample \(off) s off the time it was measured",
                sourceLocation: sourceLocation)
    }

    @Test func readsWithoutLoss() throws {
        try Self.expectWithoutLoss(Self.read(seconds: 6))
    }

    /// The backlog the first refills bring is timed back from their arrival, bunched (its samples
    /// were measured before any arrival could say when): left out of the checks of spacing, and
    /// the stream's times, counted from its first sample, are behind the recording's by up to the
    /// backlog's 0.1 s (so compared against their median).
    @Test func readsWithoutLossAfterASlowStart() throws {
        let read = try Self.read(seconds: 6, startDelay: 0.1)
        #expect(read.indices.last.map { $0 + 1 == read.indices.count } == true, "samples lost: \(read.indices.last ?? 0)")
        #expect(read.statistics.droppedSamples == 0 && read.statistics.gaps == 0, "\(read.statistics)")
        let period = 1 / read.statedRate
        let uneven = zip(read.intervals, read.measured.dropFirst()).filter { $0.1 >= 0.5 && !($0.0 >= 0.5 * period && $0.0 <= 1.5 * period) }
        #expect(uneven.count == 0, "intervals out of 0.5 to 1.5 periods after 0.5 s: \(uneven.prefix(8))")
        let offsets = zip(read.samples, read.measured).filter { $0.1 >= 1 }.map { $0.0.time - $0.1 }.sorted()
        let median = offsets.isEmpty ? 0 : offsets[offsets.count / 2]
        let off = offsets.map { abs($0 - median) }.max() ?? 0
        #expect(offsets.count > 100 && off <= 0.005, "a sample \(off) s off the time it was measured")
        let original = try BatchedTimestampsInEmulator.originalSamples().prefix(read.indices.count)
        let expected = BatchedTimestampsInEmulator.began(Array(original)).map(\.time)
        let began = BatchedTimestampsInEmulator.began(read.samples).map { $0.time - median }
        #expect(!expected.isEmpty && began.count == expected.count
                    && zip(began, expected).allSatisfy { abs($0 - $1) < 0.03 }, "shakes began at \(began), not \(expected)")
    }

    static func expectWithoutLoss(_ read: Read) throws {
        let measuredRate = Double(read.samples.count - 1) / (read.measured.last ?? 1)
        // Every sample played delivered (but those held by a pause as reading stopped: 0.2 s at
        // most), in order, none discarded or counted as dropped.
        #expect(read.samples.count >= Int(5.75 * measuredRate), "\(read.samples.count) samples in 6 s at \(measuredRate) Hz")
        #expect(read.indices.last.map { $0 + 1 == read.indices.count } == true, "samples lost: \(read.indices.last ?? 0)")
        #expect(read.statistics.droppedSamples == 0 && read.statistics.gaps == 0, "\(read.statistics)")
        let period = 1 / measuredRate
        // Evenly timed at the device's own rate after the first second. Before, the first
        // refill is timed at the stated rate, and the period is measured from the few refills
        // come so far, whose arrivals carry the reader's wake-up jitter: a loaded machine's
        // reader woken 6 ms late now and then spaced the first samples unevenly (CI once: 4.4 ms
        // at 100 Hz, the 12th sample; ArrivalRateClockTests.aJitteryStartSettlesWithinHalfASecond).
        let uneven = zip(read.intervals, read.measured.dropFirst()).enumerated().filter {
            $0.element.1 >= 1 && !($0.element.0 >= 0.5 * period && $0.element.0 <= 1.5 * period)
        }
        #expect(uneven.isEmpty, "\(uneven.count) intervals out of 0.5 to 1.5 periods after the first second: \(uneven.prefix(8).map { ($0.offset, $0.element.0) })")
        Self.expectWithRealTime(read)
        // The shakes begin when they did (within 30 ms).
        let original = try BatchedTimestampsInEmulator.originalSamples().prefix(read.indices.count)
        let expected = BatchedTimestampsInEmulator.began(Array(original)).map(\.time)
        let speed = (read.measured.last ?? 1) / (original.last?.time ?? 1)
        let began = BatchedTimestampsInEmulator.began(read.samples).map { $0.time / speed }
        #expect(!expected.isEmpty && began.count == expected.count
                    && zip(began, expected).allSatisfy { abs($0 - $1) < 0.03 }, "shakes began at \(began), not \(expected)")
    }

    @Test func readsBacklogsBeyondTheBuffer() throws {
        let read = try Self.read(seconds: 6.2)
        let period = 1 / read.statedRate
        // Where samples were lost: between two samples read whose indices are not consecutive.
        let lost = zip(read.indices.dropFirst(), read.indices).map { $0 - $1 - 1 }
        let lostAt = lost.indices.filter { lost[$0] > 0 }
        let gapsAt = read.intervals.indices.filter { read.intervals[$0] > 1.5 * period }
        #expect(lostAt.count >= 4 && gapsAt == lostAt, "gaps after samples \(gapsAt), lost after \(lostAt)")
        // Each gap counted as about the samples lost (within one: the reader measures it from arrivals).
        let statistics = read.statistics
        #expect(statistics.gaps == lostAt.count, "\(statistics)")
        let trulyLost = lost.reduce(0, +)
        #expect(abs(statistics.droppedSamples - trulyLost) <= lostAt.count, "\(statistics.droppedSamples) dropped, \(trulyLost) lost")
        Self.expectWithRealTime(read)
    }
}
