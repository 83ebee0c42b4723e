/// Anything that turns a stream of samples into shake events: `ShakeDetector`, and the
/// baselines the evaluation compares it with.
public protocol ShakeDetecting {
    /// Feeds one sample; returns the event it caused, if any.
    mutating func process(_ sample: Sample) -> ShakeEvent?
    /// Reports that the stream was interrupted at `time` (seconds); cancels a shake in progress.
    mutating func interrupt(at time: Double) -> ShakeEvent?
}

extension ShakeDetector: ShakeDetecting {}
