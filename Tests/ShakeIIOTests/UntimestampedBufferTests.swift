import Foundation
import ShakeDetection
import Testing
@testable import ShakeIIO

/// A buffered device without a timestamp channel (`Scripts/iio-emulator --no-timestamp`), whose
/// samples the reader times itself, read by a reader that finds a backlog now and then
/// (`--backlog EVERY:PAUSE`: the samples of each pause delivered at once, as a reader finds them
/// after it was descheduled or its consumer was slow; at most the kernel buffer's `buffer/length`
/// of them, 16 at the default 0.04 s refills of 4 samples). `Fixtures/shakes_100hz.csv` is
/// played at its pace and read through libiio by a reader inside the emulator
/// (``UntimestampedBufferInEmulator``). Need root.
@Suite(.serialized, .enabled(if: !Emulator.skipRequested && !InsideEmulator.isInside, "SHAKEKIT_SKIP_IIO=1 is set"))
final class UntimestampedBufferTests: EmulatorSuite {
    /// Runs `UntimestampedBufferInEmulator/<test>()` inside the emulator with `options`, the
    /// reader at `uri`.
    func readInside(_ test: String, options: [String], uri: String = "local:",
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let result = try Emulator.run(
            fixture: BatchedTimestampTests.original, options: ["--no-timestamp"] + options,
            command: ["env", "\(InsideEmulator.variable)=1", "HOME=\(directory.path)", "TMPDIR=\(directory.path)",
                      "\(UntimestampedBufferInEmulator.variable)=\(uri)",
                      binary, "--testing-library", "swift-testing",
                      "--filter", "UntimestampedBufferInEmulator/\(test)\\("])
        let output = result.stdout + result.stderr
        #expect(result.status == 0, "\(output)", sourceLocation: sourceLocation)
        #expect(output.contains("Test run with 1 test "), "the test was not found or not run: \(output)",
                sourceLocation: sourceLocation)
    }

    /// Pauses of 0.12 s every 0.5 s: 12 samples waiting, which the kernel buffer holds. They used
    /// to be timed by their arrival, bunched together: of each backlog's refills after the first,
    /// all but one sample came no later than the refill before and were discarded (51 of 602 in
    /// 6 s, 75 over ip:), the rest microseconds apart, and the pauses counted as 78 dropped
    /// samples in 9 gaps, though none was lost.
    @Test(arguments: ["local:", "ip:127.0.0.1"])
    func aBacklogTheBufferHoldsKeepsEverySampleEvenlyTimed(uri: String) throws {
        try readInside("readsBacklogsTheBufferHolds", options: ["--backlog", "0.5:0.12"] + (uri == "local:" ? [] : ["--iiod"]),
                       uri: uri)
    }

    /// Pauses of 0.5 s every second: 50 samples waiting, of which the kernel buffer keeps 16 at
    /// most (the emulator's kernel drops the rest). The samples kept stay evenly timed, and the
    /// time jumps over those lost, which are counted as dropped. Before the fix: 36 samples
    /// discarded and 16 intervals of microseconds.
    @Test func aBacklogBeyondTheBufferIsAGapCountedAsDropped() throws {
        try readInside("readsBacklogsBeyondTheBuffer", options: ["--backlog", "1:0.5"])
    }
}

/// Run only inside the emulator, by ``UntimestampedBufferTests``, which says in ``variable``
/// the URI to read.
@Suite(.serialized, .enabled(if: InsideEmulator.isInside, "runs inside Scripts/iio-emulator, started by UntimestampedBufferTests"))
struct UntimestampedBufferInEmulator {
    static let variable = "SHAKEKIT_IIO_UNTIMESTAMPED_URI"

    /// What the reader delivered, with the monotonic time (s) at which each sample was handed over.
    struct Read {
        var samples: [Sample] = []
        var arrivals: [Double] = []
        var statistics = AccelerometerReadStatistics()
        var rate = 0.0
    }

    /// Reads `seconds` of samples with the default options (refills of 0.04 s: 4 samples).
    static func read(seconds: Double) throws -> Read {
        let uri = try #require(ProcessInfo.processInfo.environment[variable])
        let reader = try AccelerometerReader(uri: uri, options: AccelerometerReadOptions(mode: .buffered, readTimeout: 1))
        #expect(!reader.device.hasTimestampChannel)
        var read = Read(rate: reader.rateHertz)
        try reader.run { sample in
            let now = AccelerometerReader.monotonicSeconds()
            read.samples.append(sample)
            read.arrivals.append(now)
            if now - read.arrivals[0] >= seconds { reader.stop() }
        }
        read.statistics = reader.statistics
        return read
    }

    /// Every sample's time, from the first, against the wall clock (when it was handed over,
    /// from the first): never after it (by more than the refill the first sample came with),
    /// and never further behind than the longest a sample waits in a backlog: a refill's last
    /// sample the kernel buffer's 16 samples and the refill being read (0.2 s), its first 3
    /// periods more. With 20 ms for scheduling.
    static func expectFollowsTheWallClock(_ read: Read, sourceLocation: SourceLocation = #_sourceLocation) {
        let refill = 4 / read.rate
        let offsets = zip(read.samples, read.arrivals).map { $0.time - ($1 - read.arrivals[0]) }
        let (earliest, latest) = (offsets.min() ?? 0, offsets.max() ?? 0)
        #expect(latest <= refill + 0.02 && earliest >= -(23 / read.rate + 0.02),
                "sample times \(earliest) to \(latest) s off the wall clock", sourceLocation: sourceLocation)
    }

    @Test func readsBacklogsTheBufferHolds() throws {
        let original = try BatchedTimestampsInEmulator.originalSamples()
        let read = try Self.read(seconds: 6)
        let period = 1 / read.rate
        #expect(read.rate == 100)
        // Every sample played delivered, in order, none discarded or dropped.
        #expect(read.samples.count >= 590, "\(read.samples.count) samples in 6 s at 100 Hz")
        #expect(read.statistics.outOfOrderSamples == 0 && read.statistics.droppedSamples == 0
                    && read.statistics.gaps == 0, "\(read.statistics)")
        let intervals = zip(read.samples.dropFirst(), read.samples).map { $0.time - $1.time }
        let uneven = intervals.enumerated().filter { !($0.element >= 0.5 * period && $0.element <= 1.5 * period) }
        #expect(uneven.isEmpty, "\(uneven.count) intervals out of 0.5 to 1.5 periods: \(uneven.prefix(8).map { ($0.offset, $0.element) })")
        // Each sample timed within two refills of when it was measured, from the first.
        let off = zip(read.samples, original).map { abs($0.time - $1.time) }.max() ?? .infinity
        #expect(off <= 8 * period, "a sample \(off) s off the time it was measured")
        Self.expectFollowsTheWallClock(read)
    }

    @Test func readsBacklogsBeyondTheBuffer() throws {
        let read = try Self.read(seconds: 6.2)
        let period = 1 / read.rate
        // Four pauses of 0.5 s, each losing 34 to 37 samples (more when some were still unread).
        // Each is one gap; the reader counts the loss less what the time jumped short of it (it
        // cannot tell how long the buffer was full: it moves the time only as far as a full
        // backlog allows, and catches up with the rest by stretching the intervals after).
        let statistics = read.statistics
        #expect(statistics.outOfOrderSamples == 0, "\(statistics)")
        #expect(statistics.gaps == 4 && statistics.droppedSamples >= 4 * 20 && statistics.droppedSamples <= 4 * 40,
                "\(statistics)")
        let intervals = zip(read.samples.dropFirst(), read.samples).map { $0.time - $1.time }
        let gaps = intervals.filter { $0 > 1.5 * period }
        let bunched = intervals.enumerated().filter { $0.element < 0.5 * period }
        #expect(bunched.isEmpty, "\(bunched.count) intervals under half a period: \(bunched.prefix(8).map { ($0.offset, $0.element) })")
        #expect(gaps.count == 4 && gaps.allSatisfy { $0 > 25 * period && $0 < 45 * period }, "gaps \(gaps)")
        Self.expectFollowsTheWallClock(read)
    }
}
