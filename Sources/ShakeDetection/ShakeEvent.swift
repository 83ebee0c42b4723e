/// A device axis.
public enum ShakeAxis: String, Sendable, Hashable, Codable, CaseIterable {
    case x, y, z
}

/// What the detector reports about a shake gesture.
///
/// A shake produces `began` once, then exactly one of `ended` or `cancelled`.
public struct ShakeEvent: Sendable, Hashable {
    /// Where in its life the shake is.
    public enum Phase: String, Sendable, Hashable, Codable {
        /// The motion has been recognised as a deliberate shake. Fired once per shake.
        case began
        /// The shaking stopped normally. Shake to undo acts on this.
        case ended
        /// The shake was abandoned; do not act on it. See `CancellationReason`.
        case cancelled
    }

    /// Why a shake in progress was cancelled.
    public enum CancellationReason: String, Sendable, Hashable, Codable {
        /// The caller reported the stream interrupted (`ShakeDetector.interrupt(at:)`).
        case interrupted
        /// The time between two samples exceeded `ShakeConfiguration.maximumGapSeconds`.
        case gap
        /// A sample came more than `ShakeConfiguration.maximumGapSeconds` earlier than the one
        /// before it (a clock reset): the event is timed at the last sample before the jump.
        case timeWentBackwards
        /// Shaking went on longer than `ShakeConfiguration.maximumShakeSeconds`.
        case tooLong
    }

    public var phase: Phase
    /// When the event was emitted: the timestamp of the sample (or interruption) that caused it, s.
    public var time: Double
    /// Start of the shake's first half-wave, s.
    public var startTime: Double
    /// End of the shake's last half-wave seen so far, s.
    public var endTime: Double
    /// Largest linear acceleration (gravity removed) seen during the shake, m/s².
    public var peakAcceleration: Double
    /// Direction reversals counted so far (half-waves minus one).
    public var reversals: Int
    /// The axis along which the shake moved most.
    public var dominantAxis: ShakeAxis
    /// Set only when `phase == .cancelled`.
    public var cancellationReason: CancellationReason?

    public init(
        phase: Phase, time: Double, startTime: Double, endTime: Double,
        peakAcceleration: Double, reversals: Int, dominantAxis: ShakeAxis,
        cancellationReason: CancellationReason? = nil
    ) {
        self.phase = phase
        self.time = time
        self.startTime = startTime
        self.endTime = endTime
        self.peakAcceleration = peakAcceleration
        self.reversals = reversals
        self.dominantAxis = dominantAxis
        self.cancellationReason = cancellationReason
    }

    /// Duration from the first to the last half-wave, s.
    public var duration: Double { endTime - startTime }
}
