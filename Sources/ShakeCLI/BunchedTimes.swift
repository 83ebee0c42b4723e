import ShakeDetection
import ShakeRecording

/// A recording whose samples come in bursts close together, then a pause: a FIFO batch stamped
/// sample by sample as it is read out (microseconds apart). The detector sees each burst as one
/// moment, so shakes are missed or begin late. `replay` says so on the file's line, `evaluate` and
/// `tune` warn on stderr; the check is `SampleStreamCheck`'s, over the first 16 intervals.
enum BunchedTimes {
    /// `samples in bursts of 4 or more close together (a FIFO batch stamped as it is read out?):
    /// shakes may be missed or begin late`.
    static func phrase(_ samplesPerBurst: Double) -> String {
        "samples in bursts of \(Int(samplesPerBurst)) or more close together (a FIFO batch stamped as it is "
            + "read out?): shakes may be missed or begin late"
    }

    /// `evaluate`'s and `tune`'s warning, with its line end: the library check's own words.
    static func fileWarning(_ path: String, samplesPerBurst: Double) -> String {
        "Warning: \(RecordingError.displayName(ofPath: path)): "
            + "\(SampleStreamCheck.Problem.timesBunched(samplesPerBurst: samplesPerBurst))\n"
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
