import ShakeDetection
import ShakeIIO
import ShakeRecording

/// Input slower than the detector is made for (`ShakeDetector.slowestSupportedSampleRate`), in
/// the words `replay`, `evaluate`, `tune`, `live` and `record` use for it.
enum SlowSampleRate {
    /// More than 10 % under the slowest supported rate (so a nominal 25 Hz sensor whose clock
    /// runs a little slow is not warned about).
    static func isTooSlow(_ hertz: Double) -> Bool {
        hertz < 0.9 * ShakeDetector.slowestSupportedSampleRate
    }

    /// The mean sample rate of a replayed recording when it is too slow, measured over at least
    /// a second (a few samples of a short or gappy file say little about a sensor's rate); nil
    /// otherwise.
    static func flagged(_ result: RecordingReplay.Result) -> Double? {
        guard let rate = result.meanSampleRate, isTooSlow(rate),
              let start = result.startTime, let end = result.endTime,
              end - start - result.gapSeconds >= 1 else { return nil }
        return rate
    }

    /// The same for samples in memory (`shake tune`'s): the mean rate over the intervals that are
    /// neither repeated timestamps nor over `gapLimit`, when it is too slow and measured over at
    /// least a second.
    static func flagged(samples: [Sample], gapLimit: Double) -> Double? {
        var intervals = 0
        var seconds = 0.0
        for (earlier, later) in zip(samples, samples.dropFirst()) {
            let interval = later.time - earlier.time
            if interval > 0 && interval <= gapLimit {
                intervals += 1
                seconds += interval
            }
        }
        guard intervals > 0, seconds >= 1 else { return nil }
        let rate = Double(intervals) / seconds
        return isTooSlow(rate) ? rate : nil
    }

    /// `10.0 Hz, under the 25 Hz the detector is made for: shakes may be missed`.
    static func phrase(_ hertz: Double) -> String {
        "\(fixed(hertz, 1)) Hz, under the \(hertzText(ShakeDetector.slowestSupportedSampleRate)) Hz "
            + "the detector is made for: shakes may be missed"
    }

    /// `evaluate`'s and `tune`'s warning about a slow recording, with its line end.
    static func fileWarning(_ path: String, hertz: Double) -> String {
        "Warning: \(RecordingError.displayName(ofPath: path)): samples at \(phrase(hertz))\n"
    }

    /// The rates a device offers that are fast enough, slowest first.
    static func fastEnoughRates(_ device: AccelerometerDescription) -> [Double] {
        device.availableSamplingFrequenciesHertz.filter { !isTooSlow($0) }.sorted()
    }

    /// The warning for a device about to be read at `hertz`, with the faster rates it offers, or
    /// nil when the rate is fast enough.
    static func deviceWarning(_ device: AccelerometerDescription, hertz: Double) -> String? {
        guard isTooSlow(hertz) else { return nil }
        var text = "Warning: \(device.displayName) samples at \(phrase(hertz))"
        let faster = fastEnoughRates(device)
        if let slowest = faster.first {
            text += "; pass --rate \(hertzText(slowest)) or more (it offers "
                + faster.map(hertzText).joined(separator: ", ") + " Hz)"
        } else if device.availableSamplingFrequenciesHertz.isEmpty {
            text += " (it lists no other rates to choose from)"
        } else {
            text += " (it offers nothing faster)"
        }
        return text + "\n"
    }
}
