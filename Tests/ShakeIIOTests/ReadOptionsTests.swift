import Foundation
import Testing
@testable import ShakeIIO

/// Option values a program may set: the ones that cannot work are errors naming the option
/// (they used to stop the program: a conversion trap), and the limits mean what they say.
@Suite struct ReadOptionsTests {
    static func options(_ change: (inout AccelerometerReadOptions) throws -> Void) rethrows -> AccelerometerReadOptions {
        var options = AccelerometerReadOptions()
        try change(&options)
        return options
    }

    // Defect: readTimeout .infinity or over about 49 days, and bufferDuration or
    // streamBufferDuration infinite or NaN, crashed the program (Double to integer trap);
    // readTimeout 0 or NaN opened the device and timed out at once or never.
    @Test(arguments: [
        (options { $0.readTimeout = 0 }, "readTimeout is 0.0 s; it must be more than 0 s"),
        (options { $0.readTimeout = -1 }, "readTimeout is -1.0 s"),
        (options { $0.readTimeout = .nan }, "readTimeout is nan s"),
        (options { $0.bufferDuration = .infinity }, "bufferDuration is inf s; it must be a finite number of seconds"),
        (options { $0.bufferDuration = .nan }, "bufferDuration is nan s"),
        (options { $0.bufferDuration = -0.1 }, "bufferDuration is -0.1 s"),
        (options { $0.streamBufferDuration = .nan }, "streamBufferDuration is nan s; it must be 0 s or more"),
        (options { $0.streamBufferDuration = -1 }, "streamBufferDuration is -1.0 s"),
        (options { $0.rateHertz = 0 }, "rateHertz is 0.0 Hz; it must be a finite number of hertz over 0"),
        (options { $0.rateHertz = .infinity }, "rateHertz is inf Hz"),
        // A zero or scaling matrix, refused on the device, silenced or scaled every sample when
        // given as the option.
        (options { $0.mountMatrix = try? MountMatrix(parsing: "0, 0, 0; 0, 0, 0; 0, 0, 0") },
         "mountMatrix 0, 0, 0; 0, 0, 0; 0, 0, 0: the matrix is singular"),
        (options { $0.mountMatrix = try? MountMatrix(parsing: "2, 0, 0; 0, 2, 0; 0, 0, 2") },
         "mountMatrix 2, 0, 0; 0, 2, 0; 0, 0, 2: the matrix is not a rotation"),
    ])
    func optionsThatCannotWorkAreAnErrorNamingTheOption(options: AccelerometerReadOptions, message: String) {
        #expect(options.problem?.hasPrefix(message) == true, "\(options.problem ?? "nil")")
        // Said before any device is looked for: the same error on a machine without IIO.
        do {
            _ = try AccelerometerReader(uri: "local:", device: "lis3dh", options: options)
            Issue.record("a reader was created with \(message)")
        } catch {
            #expect(error.kind == .badValue)
            #expect(error.description.hasPrefix(
                "AccelerometerReadOptions(uri \"local:\", device \"lis3dh\"): Invalid argument (EINVAL): \(message)"),
                "\(error)")
        }
    }

    @Test(arguments: [
        options { $0.readTimeout = .infinity }, options { $0.readTimeout = 1e10 }, options { $0.readTimeout = 0.001 },
        options { $0.bufferDuration = 0 }, options { $0.streamBufferDuration = .infinity },
        options { $0.streamBufferDuration = 0 }, AccelerometerReadOptions(),
        // A matrix that does not parse is an error, not the absent matrix (accepted unseen).
        try options { $0.mountMatrix = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1") },
        try options { $0.mountMatrix = try MountMatrix(parsing: "-1, 0, 0; 0, 1, 0; 0, 0, 1") },
    ])
    func limitsThatCanWorkAreAccepted(options: AccelerometerReadOptions) {
        #expect(options.problem == nil)
    }

    /// libiio takes its timeout as an unsigned count of milliseconds, 0 for ever.
    @Test(arguments: [
        (0.0, UInt32(0)), (.infinity, 0), (0.0001, 1), (2, 2000), (1e10, .max), (Double(UInt32.max) / 1000 + 1, .max),
    ])
    func timeoutsBecomeLibiioMilliseconds(seconds: Double, milliseconds: UInt32) throws {
        #expect(try IIOContext.milliseconds(timeout: seconds, uri: "local:") == milliseconds)
    }

    @Test(arguments: [-1.0, -.infinity, .nan])
    func aNegativeOrNaNTimeoutIsAnError(seconds: Double) {
        #expect(throws: IIOError.self) { try IIOContext.milliseconds(timeout: seconds, uri: "ip:127.0.0.1") }
        do {
            _ = try IIOContext.milliseconds(timeout: seconds, uri: "ip:127.0.0.1")
        } catch {
            #expect(error.kind == .badValue)
            #expect(error.description.hasPrefix("iio_context_set_timeout(uri \"ip:127.0.0.1\"): Invalid argument (EINVAL): timeout "),
                    "\(error)")
        }
    }

    /// The defaults the documentation gives: automatic mode, the device's own rate and matrix
    /// and trigger, refills of 0.04 s, a 2 s timeout, 10 s of samples queued, batches spread.
    @Test func theDefaultsAreTheDocumentedOnes() {
        #expect(AccelerometerReadOptions() == AccelerometerReadOptions(
            mode: .automatic, rateHertz: nil, bufferDuration: 0.04, readTimeout: 2, mountMatrix: nil, trigger: nil,
            streamBufferDuration: 10, spreadsBatchedTimes: true))
    }

    /// A stream's queue holds `streamBufferDuration` of samples at the rate, at least 16, the
    /// newest kept; `.infinity` keeps all.
    @Test(arguments: [(0.0, 16), (1, 100), (.infinity, 150)])
    func aStreamQueuesItsDurationOfSamplesAndAtLeastSixteen(duration: Double, kept: Int) async throws {
        let options = Self.options { $0.streamBufferDuration = duration }
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: Int.self, bufferingPolicy: options.streamBufferingPolicy(hertz: 100))
        for sample in 0..<150 { continuation.yield(sample) }
        continuation.finish()
        var received: [Int] = []
        for try await sample in stream { received.append(sample) }
        #expect(received == Array(150 - kept..<150))
    }

    /// Batched kernel times are spread unless a program says otherwise; in a batched stream drops
    /// are counted between batch starts, a batch's samples not missing.
    @Test func batchedTimesAreSpreadByDefault() {
        #expect(AccelerometerReadOptions().spreadsBatchedTimes)
        #expect(!AccelerometerReadOptions(spreadsBatchedTimes: false).spreadsBatchedTimes)
        #expect(AccelerometerReader.missingSamples(interval: 0.015, rateHertz: 100) == 0)
        #expect(AccelerometerReader.missingSamples(interval: 0.04, rateHertz: 100) == 3)
        #expect(AccelerometerReader.missingSamples(interval: 0.04, samples: 4, rateHertz: 100) == 0)
        #expect(AccelerometerReader.missingSamples(interval: 0.044, samples: 4, rateHertz: 100) == 0)
        #expect(AccelerometerReader.missingSamples(interval: 0.08, samples: 4, rateHertz: 100) == 4)
        #expect(AccelerometerReader.missingSamples(interval: 0.05, samples: 4, rateHertz: 100) == 1)
    }
}

/// `AccelerometerReadStatistics` is `Codable`: what a program saved reads back the same, and what
/// an earlier ShakeKit saved, before a counter was added, still reads.
@Suite struct ReadStatisticsCodingTests {
    @Test func encodedStatisticsReadBackTheSame() throws {
        var statistics = AccelerometerReadStatistics()
        statistics.samplesDelivered = 2384
        statistics.reads = 596
        statistics.droppedSamples = 3
        statistics.gaps = 1
        statistics.measuredRateHertz = 100
        statistics.outOfOrderSamples = 2
        statistics.clockStepsBack = 1
        statistics.spreadSamples = 1761
        statistics.consumerOverruns = 4
        statistics.lastSampleTime = 23.84
        statistics.outages = 1
        statistics.outageSeconds = 1.5
        let data = try JSONEncoder().encode(statistics)
        #expect(try JSONDecoder().decode(AccelerometerReadStatistics.self, from: data) == statistics)
        #expect(try JSONDecoder().decode(AccelerometerReadStatistics.self, from: JSONEncoder().encode(AccelerometerReadStatistics()))
                    == AccelerometerReadStatistics())
    }

    /// As an earlier version wrote them: without spreadSamples, outages and outageSeconds.
    @Test func statisticsSavedBeforeACounterWasAddedStillRead() throws {
        let old = #"{"samplesDelivered": 500, "reads": 125, "droppedSamples": 0, "gaps": 0, "outOfOrderSamples": 0, "consumerOverruns": 0, "lastSampleTime": 4.99}"#
        let statistics = try JSONDecoder().decode(AccelerometerReadStatistics.self, from: Data(old.utf8))
        #expect(statistics.samplesDelivered == 500 && statistics.reads == 125 && statistics.lastSampleTime == 4.99)
        #expect(statistics.spreadSamples == 0 && statistics.outages == 0 && statistics.outageSeconds == 0)
        #expect(statistics.measuredRateHertz == nil)
        // A wrong type is still an error, not a silent 0.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AccelerometerReadStatistics.self, from: Data(#"{"samplesDelivered": "many"}"#.utf8))
        }
    }
}
