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
}

extension ShakeDetecting {
    public var lastProcessedTime: Double? { nil }
}

extension ShakeDetector: ShakeDetecting {}
