/// A device axis.
public enum ShakeAxis: String, Sendable, Hashable, Codable, CaseIterable {
    case x, y, z
}

/// What the detector reports about a shake gesture.
///
/// A shake produces `began` once, then exactly one of `ended` or `cancelled`. Every time is in
/// seconds on the samples' own clock (`Sample.time`: the detector has no clock of its own), and
/// every acceleration is linear acceleration as the thresholds see it: gravity removed, smoothed
/// over `smoothingWindowSeconds`, in m/s² (divide by `standardGravity` for g).
///
/// The fields describe the shake as far as the detector has seen it when the event is emitted:
/// on `began`, the chain of half-waves that made it begin (`reversals` is then at least
/// `minimumHalfWaves − 1`, and `endTime` is the `began` sample's time, or the release crossing
/// just before it when the half-wave that completed the chain ended on that sample); on `ended` and
/// `cancelled`, the whole shake up to then. For instance a 1.5 s, 2 g shake at 4 Hz along x from
/// 2 s, after the device lay still, sampled at 100 Hz: `began` at 2.41 s (start 2.04 s, peak 20.0 m/s², 3 reversals, `.x`), `ended` at
/// 3.91 s (end 3.50 s, 11 reversals).
public struct ShakeEvent: Sendable, Hashable, Codable {
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
    /// `ended` comes with the first sample `quietSeconds` or more after `endTime`, later by the
    /// part beyond `quietSeconds / 2` (and at least 0.1 s) of each interval between samples after
    /// it (a dropout: the hand may have moved meanwhile); a gap or an
    /// interruption before that sample cancels the shake instead; a `cancelled` with `.timeWentBackwards` is
    /// timed at the last sample before the jump (on the old clock), one with `.interrupted` after
    /// a configuration change at the last sample before the change, and one from
    /// `interrupt(at:)` at the time given.
    public var time: Double
    /// Start of the shake's first half-wave (when `|l|` first passed the onset), s.
    public var startTime: Double
    /// End of the shake's last half-wave seen so far, s: where `|l|` fell through the release
    /// threshold (placed between samples), or the latest sample while a half-wave is still
    /// going on (on `began`, the `began` sample's time, or the crossing just before it when the
    /// chain's last half-wave ended on that sample).
    public var endTime: Double
    /// Largest `|l|` (linear acceleration: gravity removed, smoothed; peaks placed between
    /// samples) of the shake's half-waves so far, m/s². A 2 g back-and-forth shake reads about
    /// 20 m/s².
    public var peakAcceleration: Double
    /// Direction reversals counted so far (linked half-waves minus one).
    public var reversals: Int
    /// The device axis along which the shake moved most: the largest sum, over the shake's
    /// half-waves, of the squared peak component along it.
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

    /// Duration from the start of the first half-wave to the end of the last, so far, s
    /// (`endTime − startTime`).
    public var duration: Double { endTime - startTime }
}
