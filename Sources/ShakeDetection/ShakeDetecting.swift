/// Anything that turns a stream of samples into shake events: `ShakeDetector`, and the
/// baselines the evaluation compares it with.
public protocol ShakeDetecting {
    /// Feeds one sample; returns the event it caused, if any.
    mutating func process(_ sample: Sample) -> ShakeEvent?
    /// Reports that the stream was interrupted at `time` (seconds); cancels a shake in progress.
    mutating func interrupt(at time: Double) -> ShakeEvent?
    /// The time, s, at which the last sample given to `process` was taken, when the detector
    /// re-times samples (`BatchSpreadingDetector`: the spread time, which its events carry);
    /// nil (the default) when it takes each sample at its own time. A scorer times the sample's
    /// label by it, on the clock of the events.
    var lastProcessedTime: Double? { get }
    /// The longest interval between two samples, s, that the detector bridges; a longer one is a
    /// gap, after which it restarts (`ShakeDetector`: its configuration's `maximumGapSeconds`).
    /// nil (the default) for a detector without such a limit. Scorers count gaps by it.
    var gapLimitSeconds: Double? { get }
}

extension ShakeDetecting {
    public var lastProcessedTime: Double? { nil }
    public var gapLimitSeconds: Double? { nil }
}

extension ShakeDetector: ShakeDetecting {
    public var gapLimitSeconds: Double? { configuration.maximumGapSeconds }
}
