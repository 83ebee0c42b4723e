import ShakeDetection
import ShakeRecording

/// A recording whose samples come in bursts close together, then a pause: a FIFO batch stamped
/// sample by sample as it is read out (microseconds apart); or whose samples share their times,
/// a FIFO batch stamped once. The detector sees each burst as one moment, and one sample of each
/// time, so shakes are missed or begin late. `replay` says so on the file's line, `evaluate` and
/// `tune` warn on stderr, each pointing at `--spread-batches` (`BatchTimeSpreader`); the check
/// for bursts is `SampleStreamCheck`'s, over the first 16 intervals, the one for shared times
/// `SampleStreamCheck`'s rule (as many repeats as new times) over the whole recording.
enum BunchedTimes {
    /// What the commands' `--spread-batches` does, after the problem.
    static let hint = "(--spread-batches spreads them)"

    /// `samples in bursts of 4 or more close together (a FIFO batch stamped as it is read out?):
    /// shakes may be missed or begin late (--spread-batches spreads them)`; without the last
    /// words when `--spread-batches` was given (and spread nothing: batches over the spreader's
    /// 1.5 s gap limit, or of more than 32 samples).
    static func phrase(_ samplesPerBurst: Double, hinting: Bool = true) -> String {
        "samples in bursts of \(Int(samplesPerBurst)) or more close together (a FIFO batch stamped as it is "
            + "read out?): shakes may be missed or begin late" + (hinting ? " \(hint)" : "")
    }

    /// `evaluate`'s, `tune`'s and `plot`'s warning, with its line end: the library check's own words.
    /// `hinting`: false when `--spread-batches` was given (and spread nothing).
    static func fileWarning(_ path: String, samplesPerBurst: Double, hinting: Bool = true) -> String {
        "Warning: \(RecordingError.displayName(ofPath: path)): "
            + "\(SampleStreamCheck.Problem.timesBunched(samplesPerBurst: samplesPerBurst))\(hinting ? " \(hint)" : "")\n"
    }

    /// The same for samples that share their times.
    static func fileWarning(_ path: String, samplesPerTime: Double) -> String {
        "Warning: \(RecordingError.displayName(ofPath: path)): "
            + "\(SampleStreamCheck.Problem.timesRepeat(samplesPerTime: samplesPerTime)) \(hint)\n"
    }

    /// Samples per time when at least as many samples repeat the time before as start a new one
    /// (and there are 16 intervals or more): a FIFO batch stamped once. Nil otherwise.
    static func repeatsPerTime(samples: Int, repeated: Int) -> Double? {
        let intervals = samples - 1
        guard intervals >= SampleStreamCheck.intervalsChecked, 2 * repeated >= intervals, repeated < intervals else {
            return nil
        }
        // Samples over distinct times: 2384 samples at 596 times are 4 per time (intervals over
        // new times, 2383 / 595, had said 4.01).
        return Double(samples) / Double(samples - repeated)
    }

    /// `repeatsPerTime` of a replayed file.
    static func repeatsPerTime(_ result: RecordingReplay.Result) -> Double? {
        repeatsPerTime(samples: result.sampleCount, repeated: result.repeatedTimestamps)
    }

    /// `repeatsPerTime` of samples in memory (`tune`'s).
    static func repeatsPerTime(samples: [Sample]) -> Double? {
        let repeated = zip(samples, samples.dropFirst()).count { $0.time == $1.time }
        return repeatsPerTime(samples: samples.count, repeated: repeated)
    }

    /// `samples` with their times spread over their batches (`BatchTimeSpreader`), and how many
    /// were moved.
    static func spread(_ samples: [Sample]) -> (samples: [Sample], moved: Int) {
        var spreader = BatchTimeSpreader()
        let spread = samples.map { spreader.spread($0) }
        return (spread, spreader.spreadSamples)
    }

    /// The warning for samples in memory (`tune`'s, `plot`'s), with its line end: for bursts,
    /// else for shared times; nil when they come in neither. `hinting` as for bursts above.
    static func fileWarning(_ path: String, samples: [Sample], gapLimit: Double, hinting: Bool = true) -> String? {
        if let burst = flagged(samples: samples, gapLimit: gapLimit) {
            return fileWarning(path, samplesPerBurst: burst, hinting: hinting)
        }
        return repeatsPerTime(samples: samples).map { fileWarning(path, samplesPerTime: $0) }
    }

    /// The burst size of samples in memory (`tune`'s), as `RecordingReplay.Result.samplesPerBurst`
    /// finds it for a replayed file: over the first 16 intervals up to `gapLimit` among the first 64
    /// samples, repeats left out.
    static func flagged(samples: [Sample], gapLimit: Double) -> Double? {
        let first = samples.prefix(SampleStreamCheck.samplesChecked)
        var intervals: [Double] = []
        for (earlier, later) in zip(first, first.dropFirst()) where intervals.count < SampleStreamCheck.intervalsChecked {
            let interval = later.time - earlier.time
            if interval > 0 && interval <= gapLimit { intervals.append(interval) }
        }
        return SampleStreamCheck.samplesPerBurst(intervals)
    }
}
