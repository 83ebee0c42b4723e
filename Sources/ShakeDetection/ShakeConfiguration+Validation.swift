/// A configuration value that `ShakeDetector` cannot work with.
public struct ShakeConfigurationError: Error, Hashable, CustomStringConvertible {
    /// The offending field, spelled as the stored property and JSON key (`onsetAcceleration`).
    public var field: String
    /// Why it is wrong, with the value seen.
    public var reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "invalid configuration: \(field): \(reason)" }
}

extension ShakeConfiguration {
    /// Why a time constant over `longestTimeConstantSeconds` is refused.
    private static func tooLongTimeConstant(_ value: Double) -> String {
        "must be at most \(longestTimeConstantSeconds) s (an hour: far longer, the filter's factor rounds to 0 "
            + "and the detector sees no motion), got \(value)"
    }

    /// `reason` with the unit of `field` (s for `…Seconds`, m/s² for `…Acceleration`) after the
    /// value it ends by naming ("got 20.0" → "got 20.0 m/s²", also before a following "; …"),
    /// unless that value is not a number.
    static func withUnit(_ reason: String, of field: String) -> String {
        let unit = field.hasSuffix("Seconds") ? " s" : field.hasSuffix("Acceleration") ? " m/s²" : ""
        guard !unit.isEmpty, let got = reason.ranges(of: "got ").last else { return reason }
        let valueEnd = reason[got.upperBound...].firstIndex(of: ";") ?? reason.endIndex
        let value = reason[got.upperBound..<valueEnd]
        guard !value.isEmpty, value != "nan", value.allSatisfy({ "0123456789.-+einf".contains($0) }) else { return reason }
        return String(reason[..<valueEnd]) + unit + String(reason[valueEnd...])
    }

    /// Checks every field; throws for the first bad one, naming it and saying why.
    ///
    /// Rules, in the order they are checked:
    /// - every `Double` field is finite, except `saturationAcceleration` and
    ///   `ongoingMotionPeakAcceleration`, which may be `+infinity` (never NaN);
    /// - `saturationAcceleration > standardGravity` (9.80665 m/s²: a sensor at rest reads that
    ///   much on its vertical axis, so no sensor clips below it; with a lower value every sample
    ///   of a device at rest counts as saturated and the onset falls to `releaseAcceleration`;
    ///   `+infinity` disables it);
    /// - `gravityTimeConstantSeconds > 0` and at most `longestTimeConstantSeconds` (an hour);
    ///   `smoothingWindowSeconds ≥ 0`,
    ///   `smoothingWindowSeconds < gravityTimeConstantSeconds` and
    ///   `smoothingWindowSeconds ≤ maximumSmoothingWindowSeconds` (0.16 s);
    /// - `onsetAcceleration > 0`; `releaseAcceleration > 0` and
    ///   `releaseAcceleration < onsetAcceleration`;
    /// - `reversalCosine` in [−1, 0);
    /// - `minimumReversalIntervalSeconds ≥ 0` and
    ///   `maximumReversalIntervalSeconds > minimumReversalIntervalSeconds`;
    /// - `minimumHalfWaves` from 2 to 64 (32 strokes: more than any gesture makes);
    /// - `maximumLinearity` in (0, 1]; `maximumIntervalRatio ≥ 1`;
    /// - `maximumPeakIntervalSeconds > minimumReversalIntervalSeconds` (linked peaks are at least
    ///   the one apart, and a shake begins only with them at most the other apart: no shake
    ///   could begin otherwise), and `> 0`; `linearityTimeConstantSeconds > 0` and at most
    ///   `longestTimeConstantSeconds`;
    /// - `shortChainPeakIntervalSeconds > 0`; `shortChainLinearity` in [0, 1];
    /// - `ongoingMotionSeconds` in [0, `longestOngoingMotionSeconds`] (30 s) and a whole number
    ///   of `motionBlockSeconds` (half-seconds);
    /// - `pauseDeviationAcceleration > 0`;
    /// - `ongoingMotionPeakAcceleration ≥ onsetAcceleration` (may be `+infinity`);
    /// - `ongoingMotionStrongHalfWaves` from 1 to `minimumHalfWaves`, and at most 64;
    /// - `quietSeconds > 0`; `refractorySeconds ≥ 0`; `maximumGapSeconds` above 0.04 s (one
    ///   sample interval at `ShakeDetector.slowestSupportedSampleRate`, 25 Hz: with a shorter
    ///   limit every sample of such a stream is a gap, and no shake is ever seen);
    ///   `maximumShakeSeconds` above `quietSeconds + (minimumHalfWaves − 1) ×
    ///   minimumReversalIntervalSeconds`: the limit runs from the shake's first half-wave until
    ///   `ended`, which comes `quietSeconds` after the last one, and a shake takes at least
    ///   `(minimumHalfWaves − 1) × minimumReversalIntervalSeconds` to begin, so with a shorter
    ///   limit every shake would be cancelled as `.tooLong` and none would ever end. The error
    ///   names `quietSeconds` when it is the value out of line (too long for the default 10 s
    ///   limit, where the default 0.4 s would fit the limit given), else `maximumShakeSeconds`.
    public func validate() throws(ShakeConfigurationError) {
        func bad(_ field: String, _ reason: String) -> ShakeConfigurationError {
            ShakeConfigurationError(field: field, reason: Self.withUnit(reason, of: field))
        }
        let finiteFields: [(String, Double)] = [
            ("gravityTimeConstantSeconds", gravityTimeConstantSeconds),
            ("smoothingWindowSeconds", smoothingWindowSeconds),
            ("onsetAcceleration", onsetAcceleration),
            ("releaseAcceleration", releaseAcceleration),
            ("reversalCosine", reversalCosine),
            ("minimumReversalIntervalSeconds", minimumReversalIntervalSeconds),
            ("maximumReversalIntervalSeconds", maximumReversalIntervalSeconds),
            ("maximumLinearity", maximumLinearity),
            ("maximumIntervalRatio", maximumIntervalRatio),
            ("maximumPeakIntervalSeconds", maximumPeakIntervalSeconds),
            ("linearityTimeConstantSeconds", linearityTimeConstantSeconds),
            ("shortChainPeakIntervalSeconds", shortChainPeakIntervalSeconds),
            ("shortChainLinearity", shortChainLinearity),
            ("ongoingMotionSeconds", ongoingMotionSeconds),
            ("pauseDeviationAcceleration", pauseDeviationAcceleration),
            ("quietSeconds", quietSeconds),
            ("refractorySeconds", refractorySeconds),
            ("maximumGapSeconds", maximumGapSeconds),
            ("maximumShakeSeconds", maximumShakeSeconds),
        ]
        for (name, value) in finiteFields where !value.isFinite {
            throw bad(name, "must be a finite number, got \(value)")
        }
        if saturationAcceleration.isNaN || saturationAcceleration <= standardGravity {
            throw bad("saturationAcceleration",
                      "must be above \(standardGravity) m/s² (1 g, which a sensor at rest reads on its vertical axis: "
                        + "with a lower value every sample counts as saturated), or infinity to disable, got \(saturationAcceleration)")
        }
        if gravityTimeConstantSeconds <= 0 {
            throw bad("gravityTimeConstantSeconds", "must be > 0 s, got \(gravityTimeConstantSeconds)")
        }
        if gravityTimeConstantSeconds > Self.longestTimeConstantSeconds {
            throw bad("gravityTimeConstantSeconds", Self.tooLongTimeConstant(gravityTimeConstantSeconds))
        }
        if smoothingWindowSeconds < 0 {
            throw bad("smoothingWindowSeconds", "must be ≥ 0 s, got \(smoothingWindowSeconds)")
        }
        if smoothingWindowSeconds >= gravityTimeConstantSeconds {
            throw bad("smoothingWindowSeconds",
                      "must be shorter than gravityTimeConstantSeconds (\(gravityTimeConstantSeconds) s), got \(smoothingWindowSeconds)")
        }
        if smoothingWindowSeconds > Self.maximumSmoothingWindowSeconds {
            throw bad("smoothingWindowSeconds",
                      "must be at most \(Self.maximumSmoothingWindowSeconds) s (the 256 sample intervals the detector "
                        + "averages over, at 1.6 kHz: a longer window would be cut short at high rates, and the same "
                        + "configuration would behave differently by rate), got \(smoothingWindowSeconds)")
        }
        if onsetAcceleration <= 0 {
            throw bad("onsetAcceleration", "must be > 0 m/s², got \(onsetAcceleration)")
        }
        if releaseAcceleration <= 0 {
            throw bad("releaseAcceleration", "must be > 0 m/s², got \(releaseAcceleration)")
        }
        if releaseAcceleration >= onsetAcceleration {
            throw bad("releaseAcceleration",
                      "must be below onsetAcceleration (\(onsetAcceleration) m/s²), got \(releaseAcceleration)")
        }
        if !(reversalCosine >= -1 && reversalCosine < 0) {
            throw bad("reversalCosine", "must be in [-1, 0), got \(reversalCosine)")
        }
        if minimumReversalIntervalSeconds < 0 {
            throw bad("minimumReversalIntervalSeconds", "must be ≥ 0 s, got \(minimumReversalIntervalSeconds)")
        }
        if maximumReversalIntervalSeconds <= minimumReversalIntervalSeconds {
            throw bad("maximumReversalIntervalSeconds",
                      "must be above minimumReversalIntervalSeconds (\(minimumReversalIntervalSeconds) s), got \(maximumReversalIntervalSeconds)")
        }
        if !(minimumHalfWaves >= 2 && minimumHalfWaves <= 64) {
            throw bad("minimumHalfWaves", "must be from 2 (one reversal) to 64, got \(minimumHalfWaves)")
        }
        if !(maximumLinearity > 0 && maximumLinearity <= 1) {
            throw bad("maximumLinearity", "must be in (0, 1], got \(maximumLinearity)")
        }
        if maximumIntervalRatio < 1 {
            throw bad("maximumIntervalRatio", "must be ≥ 1, got \(maximumIntervalRatio)")
        }
        if maximumPeakIntervalSeconds <= 0 {
            throw bad("maximumPeakIntervalSeconds", "must be > 0 s, got \(maximumPeakIntervalSeconds)")
        }
        if maximumPeakIntervalSeconds <= minimumReversalIntervalSeconds {
            throw bad("maximumPeakIntervalSeconds",
                      "must be above minimumReversalIntervalSeconds (\(minimumReversalIntervalSeconds) s: linked peaks are at least "
                        + "that far apart, and a shake begins only with them at most this far apart, so none could), "
                        + "got \(maximumPeakIntervalSeconds)")
        }
        if linearityTimeConstantSeconds <= 0 {
            throw bad("linearityTimeConstantSeconds", "must be > 0 s, got \(linearityTimeConstantSeconds)")
        }
        if linearityTimeConstantSeconds > Self.longestTimeConstantSeconds {
            throw bad("linearityTimeConstantSeconds", Self.tooLongTimeConstant(linearityTimeConstantSeconds))
        }
        if shortChainPeakIntervalSeconds <= 0 {
            throw bad("shortChainPeakIntervalSeconds", "must be > 0 s (1e6 turns the rule off), got \(shortChainPeakIntervalSeconds)")
        }
        if !(shortChainLinearity >= 0 && shortChainLinearity <= 1) {
            throw bad("shortChainLinearity", "must be in [0, 1] (1 turns the rule off), got \(shortChainLinearity)")
        }
        if !(ongoingMotionSeconds >= 0 && ongoingMotionSeconds <= Self.longestOngoingMotionSeconds) {
            throw bad("ongoingMotionSeconds",
                      "must be in [0, \(Self.longestOngoingMotionSeconds)] s (0 disables the rule), got \(ongoingMotionSeconds)")
        }
        let blocks = ongoingMotionSeconds / Self.motionBlockSeconds
        if abs(blocks - blocks.rounded()) > Self.motionBlockTolerance {
            let below = blocks.rounded(.down) * Self.motionBlockSeconds
            throw bad("ongoingMotionSeconds",
                      "must be a whole number of half-seconds (motion is judged in \(Self.motionBlockSeconds) s blocks), "
                        + "got \(ongoingMotionSeconds); the nearest allowed values are \(below) and \(below + Self.motionBlockSeconds)")
        }
        if pauseDeviationAcceleration <= 0 {
            throw bad("pauseDeviationAcceleration", "must be > 0 m/s², got \(pauseDeviationAcceleration)")
        }
        if !(ongoingMotionPeakAcceleration >= onsetAcceleration) {
            throw bad("ongoingMotionPeakAcceleration",
                      "must be at least onsetAcceleration (\(onsetAcceleration) m/s²) or infinity, got \(ongoingMotionPeakAcceleration)")
        }
        if !(ongoingMotionStrongHalfWaves >= 1 && ongoingMotionStrongHalfWaves <= min(minimumHalfWaves, 64)) {
            throw bad("ongoingMotionStrongHalfWaves",
                      "must be from 1 to minimumHalfWaves (\(min(minimumHalfWaves, 64))), got \(ongoingMotionStrongHalfWaves)")
        }
        if quietSeconds <= 0 {
            throw bad("quietSeconds", "must be > 0 s, got \(quietSeconds)")
        }
        if refractorySeconds < 0 {
            throw bad("refractorySeconds", "must be ≥ 0 s, got \(refractorySeconds)")
        }
        // One sample interval at the slowest supported rate: a shorter limit takes every
        // sample of a 25 Hz stream as a gap (and of a 100 Hz one below 0.01 s), and the
        // detector, restarting on each, never sees a shake.
        let slowestInterval = 1 / ShakeDetector.slowestSupportedSampleRate
        if !(maximumGapSeconds > slowestInterval) {
            throw bad("maximumGapSeconds",
                      "must be above \(Self.plain(slowestInterval)) s, one sample interval at \(Self.plain(ShakeDetector.slowestSupportedSampleRate)) Hz "
                        + "(the slowest rate the detector is made for): with a shorter limit every sample of such a stream is a gap "
                        + "and the detector restarts on each, got \(maximumGapSeconds)")
        }
        // A shake is cancelled as too long unless `ended` (`quietSeconds` after its last
        // half-wave) comes within `maximumShakeSeconds` of its first half-wave; the quickest
        // shake takes (minimumHalfWaves − 1) reversal intervals to begin.
        let quickestBeginning = Double(minimumHalfWaves - 1) * minimumReversalIntervalSeconds
        let quickestEnd = quietSeconds + quickestBeginning
        // The relation is broken by one side or the other: the error names quietSeconds when
        // it alone is out of line (the default limit would not hold it, while the default
        // quiet time would fit this limit: quietSeconds 1e300 with the limit at its 10 s),
        // else maximumShakeSeconds. Both are named, with their values, in either message.
        let standard = Self.default
        if maximumShakeSeconds > 0 && !(quickestEnd < standard.maximumShakeSeconds)
            && standard.quietSeconds + quickestBeginning < maximumShakeSeconds {
            throw bad("quietSeconds",
                      "must be below maximumShakeSeconds (\(maximumShakeSeconds) s) minus (minimumHalfWaves − 1) × "
                        + "minimumReversalIntervalSeconds (\(minimumHalfWaves - 1) × \(minimumReversalIntervalSeconds) s, the "
                        + "shortest time a shake can take to begin): \(Self.plain(maximumShakeSeconds - quickestBeginning)) s; "
                        + "a shake ends quietSeconds after its last half-wave, and one that has not ended within "
                        + "maximumShakeSeconds of its first is cancelled as too long, so a longer quiet time cancels "
                        + "every shake, got \(quietSeconds)")
        }
        if !(maximumShakeSeconds > 0 && maximumShakeSeconds > quickestEnd) {
            throw bad("maximumShakeSeconds",
                      "must be > 0 s and above (minimumHalfWaves − 1) × minimumReversalIntervalSeconds "
                        + "(\(minimumHalfWaves - 1) × \(minimumReversalIntervalSeconds) s, the shortest time a shake can take to begin) "
                        + "plus quietSeconds (\(quietSeconds) s, from its last half-wave to ended): \(Self.plain(quickestEnd)) s, "
                        + "the soonest a shake can end; a shorter limit cancels every shake as too long, got \(maximumShakeSeconds)")
        }
    }

    /// `value` as Swift prints it, with the rounding error of a sum (0.4 + 3 × 0.04 =
    /// 0.52000000000000002) taken off: 12 significant figures at most.
    static func plain(_ value: Double) -> String {
        guard value.isFinite, value != 0 else { return "\(value)" }
        var scale = 1.0
        while (value * scale).magnitude < 1e11 { scale *= 10 }
        return "\((value * scale).rounded() / scale)"
    }
}
