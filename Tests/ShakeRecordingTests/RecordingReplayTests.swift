import Foundation
import Testing
import ShakeDetection
@testable import ShakeRecording

/// `RecordingReplay.run` with `readAhead` (the file parsed on a second thread, as `shake replay`
/// does) must give exactly what the plain loop gives: the same events, scores and sample count,
/// and the same error, after the same samples, for a bad file.
@Suite struct RecordingReplayTests {
    static func fixture(_ name: String) -> String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path + "/Fixtures/" + name
    }

    static func replay(_ path: String, readAhead: Bool) throws -> RecordingReplay.Result {
        var detector = ShakeDetector()
        return try RecordingReplay.run(path: path, detector: &detector, readAhead: readAhead)
    }

    /// 20,800 samples (five batches and a part) and 4,200 (one batch and a part).
    @Test(arguments: ["same_motion_1600hz.csv", "mixed_100hz.csv"])
    func readAheadGivesTheSameResult(name: String) throws {
        let plain = try Self.replay(Self.fixture(name), readAhead: false)
        let ahead = try Self.replay(Self.fixture(name), readAhead: true)
        #expect(plain.sampleCount > RecordingReadAhead.batchSize)
        #expect(plain.events.contains { $0.phase == .began })
        #expect(plain.counts != nil)
        // The whole result, every field: events, scores, counts, times, gaps (`Result` is Hashable).
        #expect(ahead == plain)
    }

    /// Samples in memory with a NaN or infinite time or value (which a file cannot hold): given to
    /// the detector, which ignores them, and left out of the scores and times, so the result is
    /// the file's (one NaN time had made the negative time NaN, and false shakes per hour nil);
    /// and an array whose first sample has no label but the others have is labelled.
    @Test func nonFiniteSamplesInMemoryDoNotSpoilTheScores() throws {
        let samples = try RecordingReader.readAll(path: Self.fixture("mixed_100hz.csv")).samples
        var detector = ShakeDetector()
        let clean = RecordingReplay.run(samples: samples, detector: &detector)
        var spoilt = samples
        spoilt.insert(LabeledSample(sample: Sample(time: .nan, x: 0, y: 0, z: 9.8), isShake: false), at: 10)
        spoilt.insert(LabeledSample(sample: Sample(time: .infinity, x: 0, y: 0, z: 9.8), isShake: true), at: 500)
        spoilt.insert(LabeledSample(sample: Sample(time: samples[30].sample.time + 0.001, x: .nan, y: 0, z: 9.8),
                                    isShake: false), at: 31)
        detector = ShakeDetector()
        let result = RecordingReplay.run(samples: spoilt, detector: &detector)
        #expect(result.events == clean.events)
        #expect(result.counts == clean.counts)
        #expect(result.counts?.negativeSeconds.isFinite == true)
        #expect(result.startTime == clean.startTime && result.endTime == clean.endTime)
        #expect(result.earlyMagnitude.mean == clean.earlyMagnitude.mean)

        var unlabelledFirst = samples
        unlabelledFirst[0].isShake = nil
        detector = ShakeDetector()
        let labelled = RecordingReplay.run(samples: unlabelledFirst, detector: &detector)
        #expect(labelled.counts?.shakes == clean.counts?.shakes)
    }

    /// The replay keeps the mean |a| of the first 64 samples, as the reader does, with or
    /// without read-ahead and from samples in memory: about 9.8 m/s² for a recording with gravity,
    /// and flagged once gravity is taken out of the same samples.
    @Test func replayTellsAccelerationWithGravityTakenOut() throws {
        let path = Self.fixture("mixed_100hz.csv")
        var reader = try RecordingReader(path: path)
        var samples: [LabeledSample] = []
        while let row = try reader.next() { samples.append(row) }
        let readers = try #require(reader.earlyMagnitude.mean)
        #expect(abs(readers - 9.8) < 1)
        // The first 64 samples (as the README says), not `EarlyMagnitude.samples`, which a change
        // would move with it.
        let firstSixtyFour = samples.prefix(64).map(\.sample.magnitude)
        #expect(abs(readers - firstSixtyFour.reduce(0, +) / 64) < 1e-9, "\(readers)")
        #expect(!reader.earlyMagnitude.looksGravityFree)
        for readAhead in [false, true] {
            let result = try Self.replay(path, readAhead: readAhead)
            #expect(result.earlyMagnitude == reader.earlyMagnitude)
            #expect(result.earlyMagnitude.count == 64)
        }
        // The same motion with the first sample's acceleration (gravity, the device at rest)
        // taken from every sample.
        let rest = samples[0].sample
        let withoutGravity = samples.map {
            LabeledSample(sample: Sample(time: $0.sample.time, x: $0.sample.x - rest.x, y: $0.sample.y - rest.y,
                                         z: $0.sample.z - rest.z), isShake: $0.isShake)
        }
        var detector = ShakeDetector()
        let result = RecordingReplay.run(samples: withoutGravity, detector: &detector)
        #expect(result.earlyMagnitude.looksGravityFree)
        #expect(try #require(result.earlyMagnitude.mean) < 1)
    }

    /// One rule for gravity taken out, in a stream (`SampleStreamCheck`) and in a recording
    /// (`EarlyMagnitude`): on every recording of dev and `Fixtures` the two agree, with the
    /// samples as they are (neither flags them) and with the first sample's acceleration taken
    /// from every sample; that is gravity taken out for a recording that starts at rest (every
    /// Fixture: both flag it), not for one that starts mid-stride (dev's Oxford walks: the
    /// first sample holds a step, and neither flags them). Before they shared the rule, the
    /// stream check took gravity-free samples at rest for moving (a sensor's noise of 0.03 m/s²
    /// is not still by its rule) and said nothing on 11 of the 16 Fixtures.
    @Test func streamCheckAndRecordingAgreeOnGravityTakenOut() throws {
        let folder = URL(fileURLWithPath: Self.fixture(""))
        let fixtures = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".csv") }.sorted().map { folder.path + "/" + $0 }
        let paths = fixtures + CSVCorpusTests.devFiles
        #expect(fixtures.count >= 10 && CSVCorpusTests.devFiles.count == 17)
        for path in paths {
            var reader = try RecordingReader(path: path)
            var first: [Sample] = []
            while first.count < SampleStreamCheck.samplesChecked, let row = try reader.next() { first.append(row.sample) }
            #expect(first.count == SampleStreamCheck.samplesChecked, "\(path)")
            let rest = first[0]
            let withoutGravity = first.map {
                Sample(time: $0.time, x: $0.x - rest.x, y: $0.y - rest.y, z: $0.z - rest.z)
            }
            let startsAtRest = fixtures.contains(path)
            for (samples, takenOut) in [(first, false), (withoutGravity, true)] {
                var check = SampleStreamCheck(checkingTime: false)
                for sample in samples { _ = check.add(sample) }
                let flagged: Bool
                switch check.problem {
                case .accelerationHoldsNoGravity?: flagged = true
                case .accelerationOffScale(let magnitude)?: flagged = magnitude < EarlyMagnitude.gravityFreeMean
                default: flagged = false
                }
                let early = EarlyMagnitude(samples).looksGravityFree
                #expect(flagged == early, "\(path): \(check.problem.map { "\($0)" } ?? "no problem")")
                if !takenOut || startsAtRest {
                    #expect(early == takenOut, "\(path)")
                }
            }
        }
    }

    /// A file large enough to be parsed in parts on two threads, every time written twice (so
    /// that some repeats fall across a cut between parts) and a 0.75 s gap every 30,000 times:
    /// the repeated timestamps and gaps are counted as by the plain reader.
    @Test func readAheadCountsRepeatedTimestampsAndGapsAcrossParts() throws {
        var bytes = Array("time_s,x,y,z\n".utf8)
        var time = 0, times = 0
        var plantedGaps = 0
        while bytes.count < 18 << 20 {
            times += 1
            if times % 30_000 == 0 {
                time += 750_000  // microseconds
                plantedGaps += 1
            } else {
                time += 2_500
            }
            let row = "\(time / 1_000_000).\(String(time % 1_000_000 + 1_000_000).dropFirst()),0.12345,-0.23456,9.80665\n"
            bytes += Array(row.utf8)
            bytes += Array(row.utf8)
        }
        let path = NSTemporaryDirectory() + "/shakekit-repeats-\(UUID().uuidString).csv"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let reader = RecordingReadAhead(path: path, options: .canonical)
        while try reader.next() != nil {}
        #expect(reader.wasSplit, "the file is parsed in parts")
        let plain = try Self.replay(path, readAhead: false)
        let ahead = try Self.replay(path, readAhead: true)
        #expect(plain.repeatedTimestamps == times)
        #expect(plain.gaps == plantedGaps && plantedGaps > 5)
        #expect(abs(plain.largestTimeGap - 0.75) < 1e-6)
        #expect(ahead.repeatedTimestamps == plain.repeatedTimestamps)
        #expect(ahead.gaps == plain.gaps)
        #expect(ahead.largestTimeGap == plain.largestTimeGap)
        #expect(ahead.gapLimit == 0.5 && plain.gapLimit == 0.5)
    }

    /// A bad number on line 9,000, after two whole batches: the same error, naming line and column.
    @Test func readAheadThrowsTheReadersErrorFromLateInTheFile() throws {
        var lines = try String(contentsOfFile: Self.fixture("same_motion_1600hz.csv"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var fields = lines[8_999].split(separator: ",").map(String.init)
        fields[2] = "1.2.3"
        lines[8_999] = fields.joined(separator: ",")
        let path = NSTemporaryDirectory() + "/shakekit-replay-\(UUID().uuidString).csv"
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let plainError = #expect(throws: RecordingError.self) { try Self.replay(path, readAhead: false) }
        let aheadError = #expect(throws: RecordingError.self) { try Self.replay(path, readAhead: true) }
        #expect(aheadError?.description == plainError?.description)
        #expect(aheadError?.description.contains(":9000:") == true, "\(String(describing: aheadError))")
    }

    // Defect: a labelled file with a header and no rows (a fixture trimmed to nothing) had no
    // counts, as if it had no `shake` column: a test checking `counts?.shakes == 0` read nil.
    /// A labelled file of no rows is scored as no shakes, by `run` and by `runExplaining` alike;
    /// an unlabelled one is not scored.
    @Test(arguments: [false, true])
    func aLabelledFileOfNoRowsIsScoredAsNoShakes(readAhead: Bool) throws {
        let folder = NSTemporaryDirectory() + "/shakekit-empty-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "# device: kiosk\ntime_s,x,y,z,shake\n".write(toFile: folder + "/labelled.csv", atomically: true, encoding: .utf8)
        try "time_s,x,y,z\n".write(toFile: folder + "/plain.csv", atomically: true, encoding: .utf8)
        let labelled = try Self.replay(folder + "/labelled.csv", readAhead: readAhead)
        #expect(labelled.sampleCount == 0)
        let counts = try #require(labelled.counts)
        #expect(counts.shakes == 0 && counts.detected == 0 && counts.falseShakes == 0 && counts.negativeSeconds == 0)
        #expect(try Self.replay(folder + "/plain.csv", readAhead: readAhead).counts == nil)
        func explained(_ name: String) throws -> RecordingReplay.Result {
            try RecordingReplay.runExplaining(path: folder + "/" + name, configuration: .medium, readAhead: readAhead).result
        }
        #expect(try explained("labelled.csv").counts == counts)
        #expect(try explained("plain.csv").counts == nil)
    }

    /// Samples already in memory (a test's fixture read once, or made by a synthesizer) replay
    /// as the file does: the same events, counts and time statistics.
    @Test(arguments: ["mixed_100hz.csv", "same_motion_25hz.csv"])
    func samplesInMemoryReplayAsTheFileDoes(name: String) throws {
        let path = Self.fixture(name)
        let file = try Self.replay(path, readAhead: false)
        var detector = ShakeDetector()
        let memory = RecordingReplay.run(samples: try RecordingReader.readAll(path: path).samples, name: name, detector: &detector)
        #expect(memory.path == name)
        #expect(memory.events == file.events)
        #expect(memory.counts == file.counts)
        #expect(memory.details?.missed == file.details?.missed)
        #expect(memory.sampleCount == file.sampleCount && memory.gaps == file.gaps)
        #expect(memory.repeatedTimestamps == file.repeatedTimestamps && memory.largestTimeGap == file.largestTimeGap)
        #expect(file.counts != nil || name.hasPrefix("same_motion"))
        // Unlabelled samples give no counts.
        var another = ShakeDetector()
        let unlabelled = RecordingReplay.run(
            samples: try RecordingReader.readAll(path: path).samples.map { LabeledSample(sample: $0.sample) }, detector: &another)
        #expect(unlabelled.counts == nil && unlabelled.events == file.events)
    }

    @Test func readAheadThrowsTheSameErrorForAMissingFile() throws {
        let path = NSTemporaryDirectory() + "/shakekit-no-such-\(UUID().uuidString).csv"
        let plainError = #expect(throws: RecordingError.self) { try Self.replay(path, readAhead: false) }
        let aheadError = #expect(throws: RecordingError.self) { try Self.replay(path, readAhead: true) }
        #expect(aheadError != nil)
        #expect(aheadError?.description == plainError?.description)
    }

    /// A caller that stops reading early lets the parsing thread go: it closes the file instead of
    /// waiting for room in the queue for ever.
    @Test func abandoningTheReadAheadClosesTheFile() async throws {
        // A copy of its own: other tests may have the fixture open at the same time.
        let name = "shakekit-abandon-\(UUID().uuidString).csv"
        let path = NSTemporaryDirectory() + "/" + name
        try FileManager.default.copyItem(atPath: Self.fixture("same_motion_1600hz.csv"), toPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(openDescriptorCount(on: name) == 0)
        do {
            let reader = RecordingReadAhead(path: path, options: .canonical)
            let first = try reader.next()
            #expect(first?.count == RecordingReadAhead.batchSize)
            // The thread has parsed ahead and now waits for room with the file open.
            try await Task.sleep(for: .milliseconds(100))
            #expect(openDescriptorCount(on: name) == 1)
        }
        try await expectClosedSoon(name)
    }

    /// Gaps are counted by the detector's own limit unless told otherwise: a 0.8 s pause in the
    /// samples is a gap for the presets (0.5 s), which restart after it, and none for a detector
    /// that bridges 2 s; the Seismic rule, which has no limit, is scored by the presets'; a
    /// `gapLimit` given wins. (The limit used to be 0.5 s whatever the detector.)
    @Test func gapsAreCountedByTheDetectorsOwnLimit() throws {
        let samples = (0..<300).map { index in
            let time = Double(index) * 0.01 + (index >= 150 ? 0.79 : 0)
            return LabeledSample(sample: Sample(time: time, x: 0, y: 0, z: 9.8), isShake: false)
        }
        var medium = ShakeDetector()
        var bridging = ShakeDetector(configuration: {
            var configuration = ShakeConfiguration.medium
            configuration.maximumGapSeconds = 2
            return configuration
        }())
        var seismic = SeismicDetector()
        let byMedium = RecordingReplay.run(samples: samples, detector: &medium)
        let byBridging = RecordingReplay.run(samples: samples, detector: &bridging)
        #expect(byMedium.gaps == 1 && byMedium.gapLimit == 0.5)
        #expect(byBridging.gaps == 0 && byBridging.gapLimit == 2)
        #expect(RecordingReplay.run(samples: samples, detector: &seismic).gapLimit == 0.5)
        var spreading = BatchSpreadingDetector(ShakeDetector(configuration: bridging.configuration))
        #expect(RecordingReplay.run(samples: samples, detector: &spreading).gaps == 0)
        #expect(RecordingReplay.run(samples: samples, detector: &bridging, gapLimit: 0.5).gaps == 1)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gap-\(UInt64.random(in: 0...UInt64.max)).csv").path
        try ("time_s,x,y,z\n" + samples.map { "\($0.sample.time),0,0,9.8\n" }.joined()).write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try RecordingReplay.run(path: path, detector: &bridging).gaps == 0)
        #expect(try RecordingReplay.run(path: path, detector: &medium).gaps == 1)
    }

    /// A gap is an interval longer than the limit: one of exactly the limit is none.
    @Test func anIntervalOfExactlyTheGapLimitIsNoGap() {
        func gaps(pause: Double) -> RecordingReplay.Result {
            let times = [0, 0.25, 0.5, 0.5 + pause, 0.75 + pause]
            let samples = times.map { LabeledSample(sample: Sample(time: $0, x: 0, y: 0, z: 9.8), isShake: false) }
            var detector = ShakeDetector()
            return RecordingReplay.run(samples: samples, detector: &detector, gapLimit: 0.5)
        }
        #expect(gaps(pause: 0.5).gaps == 0)
        #expect(gaps(pause: 0.501).gaps == 1)
    }
}
