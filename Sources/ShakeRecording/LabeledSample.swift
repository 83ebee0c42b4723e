import ShakeDetection

/// One row of a recording: a sample and, when the recording is labelled, whether a deliberate
/// shake was in progress.
public struct LabeledSample: Sendable, Hashable {
    /// Time in seconds, acceleration in m/s² with gravity included.
    public var sample: Sample
    /// The `shake` label: `true` while a deliberate shake is in progress, `false` otherwise,
    /// `nil` when the recording has no label column.
    public var isShake: Bool?

    @inlinable
    public init(sample: Sample, isShake: Bool? = nil) {
        self.sample = sample
        self.isShake = isShake
    }
}
