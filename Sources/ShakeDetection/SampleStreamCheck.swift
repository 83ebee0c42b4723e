/// Checks, from the first samples of a stream, that they are what `ShakeDetector` expects:
/// acceleration in m/s² with gravity, times in seconds, at `ShakeDetector.slowestSupportedSampleRate`
/// or faster.
///
/// A detector fed acceleration in g or mg, or times in milliseconds, fires nothing and says
/// nothing. Feed the same samples here (the check costs a few operations per sample and nothing
/// once settled) and log `problem` when `add(_:)` returns one:
///
/// ```swift
/// var check = SampleStreamCheck()
/// for sample in samples {
///     if let problem = check.add(sample) { log("accelerometer input: \(problem)") }
///     if let event = detector.process(sample) { handle(event) }
/// }
/// ```
///
/// The same rules as ShakeRecording's CSV reader uses for a file without units:
/// - acceleration: over the first `samplesChecked` samples, |a| stays between 0.8 and 1.25 (g:
///   at rest |a| is 9.8 m/s², 1 g) or between 800 and 1250 (mg). A device that moves during
///   those samples is not flagged, whatever its unit.
/// - and one rule the reader does not have, for a device's wrong scale or offset: over those
///   samples |a| holds still (its range within 10 % of its mean, or 0.1 m/s²) at a level
///   outside 0.8 to 1.25 g (7.85 to 12.26 m/s²), where at rest gravity alone gives 9.8 m/s².
///   Real devices at rest read 9.1 to 10.5 m/s² in the project's recordings.
/// - and one for acceleration with gravity taken out (a "linear acceleration" sensor or export):
///   over those samples the mean |a| is under `gravityFreeMeanMagnitude` (half of 9.8 m/s²),
///   whether the device moves or not. With gravity in it the mean |a| of any motion that does
///   not fall freely is about 9.8 m/s² or more (9.1 at least over the first 64 samples of every
///   recording in `dev` and `Fixtures`). ShakeRecording's `EarlyMagnitude` applies the same rule
///   to a recording.
/// - time: every one of the first `intervalsChecked` intervals is 0.25 or more (under 4 Hz if
///   seconds: milliseconds, probably); otherwise their mean rate is over 10 % under
///   `ShakeDetector.slowestSupportedSampleRate` (gaps over 0.5 s left out), and shakes may be
///   missed.
/// - and one more: over those intervals, at least as many samples repeat the time of the one
///   before as start a new one. `ShakeDetector` ignores a sample with the same time as the one
///   before, so a driver that stamps a whole FIFO batch with one time has all but one sample of
///   each batch dropped (and its batches alone would otherwise read as a slow rate or as times in
///   milliseconds).
/// - and one for a FIFO read out in bursts: at least half of those intervals (gaps left out)
///   are under a tenth of their mean. A driver that stamps each sample of a batch as it reads it
///   out of the FIFO gives times a few microseconds apart, then a pause of a whole batch; the
///   detector then sees each burst as one moment, misses shakes and begins others late
///   (measured on the dev recordings in batches of 4 at 50 to 100 Hz: 2 shakes of 36 lost,
///   others begun up to 0.33 s late). Real streams, jitter included, read 0.29 or more.
/// - and for times that do not move at all: the first `samplesChecked` samples all at one time
///   (`timesRepeat` with that many per time).
/// Samples with a NaN or infinite value, and intervals that are negative, are not counted.
///
/// It checks the start of a stream only: a driver that changes its rate or unit later (a
/// power-saving mode) is not seen. Start a new check when the driver is reconfigured.
public struct SampleStreamCheck: Sendable {
    /// What looks wrong with a stream.
    public enum Problem: Sendable, Hashable, CustomStringConvertible {
        /// |a| stayed between 0.8 and 1.25 over the first samples: acceleration in g. Multiply
        /// by `standardGravity`.
        case accelerationLooksLikeG(magnitude: Double)
        /// |a| stayed between 800 and 1250 over the first samples: acceleration in mg.
        /// Multiply by `standardGravity / 1000`.
        case accelerationLooksLikeMilliG(magnitude: Double)
        /// |a| held still over the first samples at `magnitude`, outside 0.8 to 1.25 g, and
        /// neither g nor mg: the readings are off scale (a wrong scale factor or offset, or a
        /// sensor that reads nothing). At rest gravity alone gives 9.8 m/s².
        case accelerationOffScale(magnitude: Double)
        /// The mean |a| over the first samples, `meanMagnitude` m/s², is under
        /// `gravityFreeMeanMagnitude`, and |a| did not hold still: the acceleration has gravity
        /// taken out (a linear-acceleration sensor), or is in g while the device moves (in g at
        /// rest is `accelerationLooksLikeG`), or a scale or offset takes most of it away. The
        /// detector removes gravity itself and finds most shakes without it, but not all (in g,
        /// next to none): feed it m/s² with gravity.
        case accelerationHoldsNoGravity(meanMagnitude: Double)
        /// Every one of the first intervals was 0.25 or more, the first `firstInterval`: times
        /// in milliseconds (or a smaller unit), not seconds, or a rate under 4 Hz. The
        /// description names the unit that makes `firstInterval` nearest 100 Hz (milliseconds,
        /// microseconds or nanoseconds) and what to divide the times by.
        case timeLooksLikeMilliseconds(firstInterval: Double)
        /// The first intervals' mean rate, Hz, is over 10 % under
        /// `ShakeDetector.slowestSupportedSampleRate`: quick strokes fall between samples.
        case sampleRateTooLow(hertz: Double)
        /// Over the first intervals, `samplesPerTime` samples (on average, 2 or more) shared each
        /// time: the detector ignores a sample with the same time as the one before, and sees
        /// one of them. Give each sample of a batch its own time, spread over the batch's period
        /// (`time − (n − 1 − i) / rate` for sample `i` of `n` stamped at `time`; or put a
        /// `BatchTimeSpreader` in front of the detector).
        case timesRepeat(samplesPerTime: Double)
        /// The first intervals come in bursts of `samplesPerBurst` samples close together, then
        /// a pause (at least half of them under a tenth of their mean): a FIFO batch stamped as it is
        /// read out, not as it was measured. `samplesPerBurst` is the longest burst seen among
        /// the first intervals: a batch's size up to 8, a lower bound beyond. Give each sample of a batch its own time, spread
        /// over the batch's period (`time − (n − 1 − i) / rate` for sample `i` of `n` read at
        /// `time`; or put a `BatchTimeSpreader` in front of the detector).
        case timesBunched(samplesPerBurst: Double)

        /// The level |a| held at rest, m/s² as given, for the three acceleration problems found
        /// on a still stream; nil for `accelerationHoldsNoGravity` (its |a| moved) and the time
        /// problems.
        public var restingMagnitude: Double? {
            switch self {
            case .accelerationLooksLikeG(let magnitude), .accelerationLooksLikeMilliG(let magnitude),
                 .accelerationOffScale(let magnitude):
                magnitude
            case .accelerationHoldsNoGravity, .timeLooksLikeMilliseconds, .sampleRateTooLow, .timesRepeat,
                 .timesBunched:
                nil
            }
        }

        public var description: String {
            switch self {
            case .accelerationLooksLikeG(let magnitude):
                "|a| stays near \(Self.rounded(magnitude)) where it would be 9.8 m/s² at rest: the acceleration looks "
                    + "like it is in g; multiply it by standardGravity (9.80665)"
            case .accelerationLooksLikeMilliG(let magnitude):
                "|a| stays near \(Self.rounded(magnitude)) where it would be 9.8 m/s² at rest: the acceleration looks "
                    + "like it is in mg; multiply it by standardGravity / 1000"
            case .accelerationOffScale(let magnitude) where magnitude < SampleStreamCheck.noGravityMagnitude:
                "|a| stays near \(Self.rounded(magnitude)) where it would be 9.8 m/s² at rest: the input holds no "
                    + "gravity (a sensor that reads nothing, or an offset that cancels it)"
            case .accelerationOffScale(let magnitude):
                "|a| stays near \(Self.rounded(magnitude)) where it would be 9.8 m/s² at rest: the acceleration reads "
                    + (magnitude < standardGravity
                        ? "about \(Self.rounded(standardGravity / magnitude, figures: 2)) times too small"
                        : "about \(Self.rounded(magnitude / standardGravity, figures: 2)) times too large")
                    + " (a wrong scale factor or offset); shakes will be misjudged"
            case .accelerationHoldsNoGravity(let mean):
                "|a| averages \(Self.rounded(mean)) m/s² over the first \(SampleStreamCheck.samplesChecked) samples, "
                    + "where with gravity in it it would average about 9.8 or more: the acceleration looks like it has "
                    + "gravity taken out (linear acceleration), or is in g (multiply it by standardGravity, 9.80665); feed "
                    + "m/s² including gravity, or shakes are missed"
            case .timeLooksLikeMilliseconds(let interval):
                "the first \(SampleStreamCheck.intervalsChecked) intervals are all 0.25 or more (the first is "
                    + "\(Self.rounded(interval))): in seconds that is a rate under 4 Hz, so the times are probably in "
                    + Self.likelyTimeUnit(firstInterval: interval)
            case .timesRepeat(let samplesPerTime):
                "\(Self.rounded(samplesPerTime)) samples share each time (a FIFO batch stamped once?): the detector "
                    + "ignores a sample with the same time as the one before, so it sees 1 in \(Self.rounded(samplesPerTime)); "
                    + "give each sample its own time"
            case .timesBunched(let samplesPerBurst):
                "the samples come in bursts of \(Self.rounded(samplesPerBurst)) or more close together, then a pause "
                    + "(a FIFO batch stamped as it is read out?): the detector sees each burst as one moment, so shakes "
                    + "are missed or begin late; spread each batch's times over its period"
            case .sampleRateTooLow(let hertz):
                "\(Self.rounded(hertz)) Hz, under the \(Self.rounded(ShakeDetector.slowestSupportedSampleRate)) Hz "
                    + "the detector is made for: shakes may be missed"
            }
        }

        /// The unit that puts `firstInterval` nearest to 100 Hz (10 ms, 10⁴ µs, 10⁷ ns), on a log
        /// scale, and what to divide by: "milliseconds; divide them by 1000" up to 316,
        /// microseconds up to 316 228, nanoseconds (as Linux IIO and `CLOCK_MONOTONIC` give them)
        /// beyond.
        static func likelyTimeUnit(firstInterval interval: Double) -> String {
            switch SampleStreamCheck.likelyTimeDivisor(firstInterval: interval) {
            case 1000: "milliseconds; divide them by 1000"
            case 1e6: "microseconds; divide them by 1000000 (1e6)"
            default: "nanoseconds; divide them by 1000000000 (1e9)"
            }
        }

        /// `figures` significant figures (all the digits of a whole number that has more),
        /// without a trailing `.0`: 19.6, 0.0981, 1000; with 2, 99.9 is 100.
        static func rounded(_ value: Double, figures: Int = 3) -> String {
            if value == 0 { return "0" }
            guard value.isFinite else { return "\(value)" }
            var least = 1.0
            for _ in 1..<figures { least *= 10 }
            var scale = 1.0
            while (value * scale).magnitude < least && scale < 1e6 { scale *= 10 }
            let text = "\((value * scale).rounded() / scale)"
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        }
    }

    /// For times whose intervals are too long to be seconds: what to divide them by, 1000, 10⁶
    /// or 10⁹, whichever puts `firstInterval` nearest 100 Hz on a log scale (milliseconds up to
    /// 316, microseconds up to 316 228, nanoseconds beyond). The CSV reader names a file's
    /// likely time unit by the same rule.
    public static func likelyTimeDivisor(firstInterval interval: Double) -> Double {
        interval < 316 ? 1000 : interval < 316_228 ? 1e6 : 1e9
    }

    /// Under this |a| at rest, m/s², an off-scale stream holds no gravity at all (a sensor that
    /// reads nothing, or an offset that cancels it) rather than a wrong scale: 0.05.
    public static let noGravityMagnitude = 0.05

    /// Under this mean |a| over the first `samplesChecked` samples, m/s², the acceleration has
    /// no gravity in it: half of standard gravity, 4.9 m/s².
    public static let gravityFreeMeanMagnitude = standardGravity / 2

    /// Samples over which |a| is checked: 64 (0.64 s at 100 Hz).
    public static let samplesChecked = 64
    /// Intervals over which the time unit and the rate are checked: 16.
    public static let intervalsChecked = 16
    /// The shortest interval that, when every checked interval reaches it, flags the time unit.
    static let slowInterval = 0.25

    /// The problem found so far, if any (at most one is reported: the first; when a sample
    /// settles both checks with a problem each, the acceleration's: a stream in g whose times
    /// never move is said to be in g at its 64th sample, and its times once that is mended).
    public private(set) var problem: Problem?

    private var samples = 0
    private var accelerationSettled = false
    private var inG = true, inMilliG = true
    private var magnitudeSum = 0.0
    private var smallestMagnitude = Double.infinity, largestMagnitude = 0.0
    private var lastTime = -Double.infinity
    private var intervals = 0
    private var timeSettled = false
    private var allSlow = true
    private var firstInterval = 0.0
    // Samples with the same time as the one before.
    private var repeats = 0
    // The intervals of `ShakeConfiguration.medium`'s `maximumGapSeconds` or less, s: for the
    // rate and the bursts (at most `intervalsChecked`; not kept once the time is settled).
    private var shortIntervals: [Double] = []

    /// `checkingTime: false` checks the acceleration alone: for a device whose times come
    /// from its driver in seconds, and whose rate is known.
    public init(checkingTime: Bool = true) {
        timeSettled = !checkingTime
    }

    /// True once both checks have decided: nothing later changes `problem`.
    public var isSettled: Bool { problem != nil || (accelerationSettled && timeSettled) }

    /// Checks one sample. Returns a problem the moment it is found (once); nil otherwise.
    public mutating func add(_ sample: Sample) -> Problem? {
        guard !isSettled else { return nil }
        guard sample.time.isFinite, sample.x.isFinite, sample.y.isFinite, sample.z.isFinite else { return nil }
        if !accelerationSettled { checkAcceleration(sample.magnitude) }
        if !timeSettled && problem == nil { checkTime(sample.time) }
        return problem
    }

    private mutating func checkAcceleration(_ magnitude: Double) {
        inG = inG && magnitude >= 0.8 && magnitude <= 1.25
        inMilliG = inMilliG && magnitude >= 800 && magnitude <= 1250
        magnitudeSum += magnitude
        smallestMagnitude = min(smallestMagnitude, magnitude)
        largestMagnitude = max(largestMagnitude, magnitude)
        samples += 1
        let mean = magnitudeSum / Double(samples)
        let still = largestMagnitude - smallestMagnitude <= max(0.1 * mean, 0.1)
        // Neither g nor mg, and moving with gravity's share of |a| already in: nothing more can
        // be said. (A mean still under it may be one without gravity: counted to the end.)
        if !inG && !inMilliG && !still && magnitudeSum >= Self.gravityFreeMeanMagnitude * Double(Self.samplesChecked) {
            accelerationSettled = true
            return
        }
        guard samples >= Self.samplesChecked else { return }
        accelerationSettled = true
        if inG {
            problem = .accelerationLooksLikeG(magnitude: mean)
        } else if inMilliG {
            problem = .accelerationLooksLikeMilliG(magnitude: mean)
        } else if still && !(0.8 * standardGravity...1.25 * standardGravity).contains(mean) {
            problem = .accelerationOffScale(magnitude: mean)
        } else if mean < Self.gravityFreeMeanMagnitude {
            problem = .accelerationHoldsNoGravity(meanMagnitude: mean)
        }
    }

    private mutating func checkTime(_ time: Double) {
        defer { if time > lastTime { lastTime = time } }
        guard lastTime.isFinite else { return }
        let interval = time - lastTime
        if interval == 0 { repeats += 1 }
        // Times that never move on (a driver without a timestamp giving 0 to every sample): the
        // detector sees one sample in all of them. Said once as many repeat as acceleration is
        // checked over, with no interval yet to wait for.
        if intervals == 0 && repeats >= Self.samplesChecked - 1 {
            timeSettled = true
            problem = .timesRepeat(samplesPerTime: Double(repeats + 1))
            return
        }
        guard interval > 0 else { return }
        if intervals == 0 { firstInterval = interval }
        intervals += 1
        allSlow = allSlow && interval >= Self.slowInterval
        if interval <= ShakeConfiguration.medium.maximumGapSeconds {
            if shortIntervals.isEmpty { shortIntervals.reserveCapacity(Self.intervalsChecked) }
            shortIntervals.append(interval)
        }
        guard intervals >= Self.intervalsChecked else { return }
        timeSettled = true
        defer { shortIntervals = [] }
        if repeats >= intervals {
            problem = .timesRepeat(samplesPerTime: Double(intervals + repeats) / Double(intervals))
            return
        }
        if let burst = Self.samplesPerBurst(shortIntervals) {
            problem = .timesBunched(samplesPerBurst: burst)
            return
        }
        if allSlow {
            problem = .timeLooksLikeMilliseconds(firstInterval: firstInterval)
            return
        }
        // The mean rate between samples, gaps left out (some interval is under 0.25 s, so there
        // is at least one).
        let rate = Double(shortIntervals.count) / shortIntervals.reduce(0, +)
        if rate < ShakeDetector.slowestSupportedSampleRate * 0.9 { problem = .sampleRateTooLow(hertz: rate) }
    }

    /// Samples per burst when `intervals` come in bursts (at least half of them under a tenth of
    /// their mean): one more than the longest run of intervals under half the mean, which is the
    /// batch's size when the intervals hold a whole batch between two pauses (batches of up to
    /// 8 in the 16 intervals checked), and less than it beyond. Nil otherwise, or with fewer
    /// than 4 intervals.
    ///
    /// `intervals`: the first intervals between samples (seconds; `intervalsChecked` of them, as
    /// `add(_:)` takes them), without repeated times (0) or gaps (over `maximumGapSeconds`), for a
    /// recording checked after the fact (`RecordingReplay.Result.samplesPerBurst`).
    public static func samplesPerBurst(_ intervals: [Double]) -> Double? {
        guard intervals.count >= 4 else { return nil }
        let mean = intervals.reduce(0, +) / Double(intervals.count)
        // The lower median: batches of 2 make half the intervals short.
        let median = intervals.sorted()[(intervals.count - 1) / 2]
        guard median < 0.1 * mean else { return nil }
        var longest = 0, run = 0
        for interval in intervals {
            run = interval < 0.5 * mean ? run + 1 : 0
            longest = max(longest, run)
        }
        return Double(longest + 1)
    }
}
