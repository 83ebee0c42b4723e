import Foundation
import ShakeDetection
import ShakeIIO
import ShakeRecording
import Testing
@testable import ShakeCLI

/// Recordings sampled more than 10 % slower than 25 Hz, the slowest rate the detector is made
/// for, are flagged by `replay`, `evaluate` and `tune`; faster ones are not.
@Suite struct SlowSampleRateTests {
    static let note = "under the 25 Hz the detector is made for: shakes may be missed"

    /// Five synthesized shakes at `rate` Hz.
    static func shakes(at rate: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.file("shakes_\(rate)hz.csv")
        let run = runShake("synth", "shakes", "--rate", rate, "-o", path)
        try #require(run.status == 0, "\(run.err)")
        return path
    }

    @Test func replayFlagsASlowRecordingOnItsLine() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let slow = try Self.shakes(at: "10", in: folder)
        let atLimit = try Self.shakes(at: "25", in: folder)
        let run = runShake("replay", slow, atLimit)
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").filter { $0.hasPrefix(folder.path) }
        try #require(lines.count == 2, "\(run.out)")
        #expect(lines[0].hasSuffix("; 10.0 Hz, " + Self.note), "\(lines[0])")
        #expect(!lines[1].contains("Hz"), "\(lines[1])")

        let json = runShake("replay", "--format", "json", slow, atLimit)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let rates = try #require((object["files"] as? [[String: Any]])?.map { $0["sample_rate_hz"] as? Double })
        // 5 % jitter: the mean interval is the nominal one within a fraction of a percent.
        #expect(abs((rates[0] ?? 0) - 10) < 0.1, "\(rates)")
        #expect(abs((rates[1] ?? 0) - 25) < 0.25, "\(rates)")
    }

    @Test func evaluateWarnsOnStandardErrorAboutEachSlowRecording() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let slow = try Self.shakes(at: "12", in: folder)
        let fast = try Self.shakes(at: "100", in: folder)
        let run = runShake("evaluate", "--format", "json", slow, fast)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err == "Warning: \(slow): samples at 12.0 Hz, \(Self.note)\n")
        _ = try JSONSerialization.jsonObject(with: Data(run.out.utf8))  // stdout stays one JSON object
    }

    @Test func tuneWarnsAboutEachSlowRecordingBeforeItsSearch() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let slow = try Self.shakes(at: "12", in: folder)
        let fast = try Self.shakes(at: "100", in: folder)
        let run = runShake("tune", "--format", "json", slow, fast)
        #expect(run.status == 0, "\(run.err)")
        let warnings = run.err.split(separator: "\n").filter { $0.hasPrefix("Warning:") }
        #expect(warnings == ["Warning: \(slow): samples at 12.0 Hz, \(Self.note)"], "\(run.err)")
    }

    /// The mean rate leaves out gaps (the detector restarts across them) and repeated timestamps.
    @Test func theMeanRateLeavesOutGapsAndRepeatedTimestamps() throws {
        var text = "time_s,x,y,z\n"
        for i in 0..<200 { text += "\(Double(i) / 100),0,0,9.8\n" }           // 2 s at 100 Hz
        text += "1.99,0,0,9.8\n1.99,0,0,9.8\n"                                 // two repeats
        for i in 0..<200 { text += "\(5 + Double(i) / 100),0,0,9.8\n" }       // a 3 s gap, 2 s more
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("gap.csv", text)
        var detector = ShakeDetector()
        let result = try RecordingReplay.run(path: path, detector: &detector)
        #expect(result.gaps == 1)
        #expect(result.repeatedTimestamps == 2)
        #expect(abs(result.gapSeconds - 3.01) < 1e-9)
        #expect(abs((result.meanSampleRate ?? 0) - 100) < 1e-6, "\(String(describing: result.meanSampleRate))")
        let run = runShake("replay", path)
        #expect(!run.out.contains("Hz"), "\(run.out)")
    }

    /// `replay` judges a rate over at least a second of samples, gaps left out: 10 Hz samples
    /// spanning 3.4 s but only 0.8 s without their 2.6 s gap are not flagged (a few samples say
    /// little about a sensor's rate), while the same with 1.2 s of samples are.
    @Test func replayFlagsARateOnlyOverASecondOfSamplesBesideGaps() throws {
        func recording(seconds: Double) -> String {
            let count = Int((seconds / 2 * 10).rounded()) + 1
            var text = "time_s,x,y,z\n"
            for i in 0..<count { text += "\(Double(i) / 10),0,0,9.8\n" }      // 10 Hz
            for i in 0..<count { text += "\(3 + Double(i) / 10),0,0,9.8\n" }  // after a gap
            return text
        }
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let short = try folder.write("short.csv", recording(seconds: 0.8))
        let long = try folder.write("long.csv", recording(seconds: 1.2))
        let run = runShake("replay", short, long)
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").filter { $0.hasPrefix(folder.path) }
        try #require(lines.count == 2, "\(run.out)")
        #expect(lines[0].hasSuffix("1 gap over 0.5 s (2.6 s)"), "\(lines[0])")
        #expect(lines[1].hasSuffix(", 10.0 Hz, " + Self.note), "\(lines[1])")
    }

    /// `tune` judges a rate as `replay` does: not from under a second of samples, and not across a
    /// gap (100 Hz samples around a 20 s gap are not 9 Hz ones).
    @Test func tuneWarnsOfNoRateFromUnderASecondOrAcrossAGap() throws {
        var gapped = "time_s,x,y,z,shake\n"
        for i in 0..<100 { gapped += "\(Double(i) / 100),0,0,9.8,0\n" }       // 1 s at 100 Hz
        for i in 0..<100 { gapped += "\(21 + Double(i) / 100),0,0,9.8,0\n" }  // a 20 s gap, 1 s more
        var short = "time_s,x,y,z,shake\n"
        for i in 0..<9 { short += "\(Double(i) / 10),0,0,9.8,0\n" }           // 0.8 s at 10 Hz
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let run = runShake("tune", "--format", "json", try folder.write("gapped.csv", gapped),
                           try folder.write("short.csv", short))
        #expect(run.status == 0, "\(run.err)")
        #expect(!run.err.contains("Warning:"), "\(run.err)")
    }

    /// The device warning says what the device offers: faster rates to pass, none faster, or no
    /// list at all (a driver without `sampling_frequency_available`); nothing at 25 Hz or more.
    @Test func theDeviceWarningSaysWhatTheDeviceOffers() {
        func warning(_ rates: [Double], at hertz: Double) -> String? {
            SlowSampleRate.deviceWarning(
                AccelerometerDescription(id: "iio:device0", name: "accel", availableSamplingFrequenciesHertz: rates),
                hertz: hertz)
        }
        let prefix = "Warning: accel samples at 12.5 Hz, \(Self.note)"
        #expect(warning([12.5, 50, 25], at: 12.5) == prefix + "; pass --rate 25 or more (it offers 25, 50 Hz)\n")
        #expect(warning([6.25, 12.5], at: 12.5) == prefix + " (it offers nothing faster)\n")
        #expect(warning([], at: 12.5) == prefix + " (it lists no other rates to choose from)\n")
        #expect(warning([12.5, 25], at: 25) == nil)
        #expect(warning([], at: 23) == nil)  // within 10 % of 25 Hz
    }
}
