/// Recognises shake gestures in a stream of timestamped accelerometer samples.
///
/// A synchronous, causal state machine: feed every sample in time order to `process(_:)`; it
/// returns at most one `ShakeEvent` per sample. No allocation, no clock of its own (time comes only
/// from the samples), O(1) work per sample. A value of about 17 KB: the moving average keeps its
/// last 256 sample intervals inline (so `smoothingWindowSeconds` is at most 0.16 s: 256
/// intervals at 1.6 kHz).
///
/// ## The rule
/// 0. **Ongoing motion**: the spread of `|a|` per half-second block (see step 4).
/// 1. **Gravity**: `g += α_g · (a − g)` per sample, `α = 1 − exp(−Δt/τ)` from the actual sample
///    interval Δt (`gravityTimeConstantSeconds`). Each sample stands for its interval (a sensor
///    averages over its sample period), so the linear acceleration over the interval is
///    `a − mean(g)` = `β · (a − g_before)`, `β = α τ / Δt`: the exact mean of the continuous
///    filter's output, not `a − g_after`, which at 25 Hz would subtract 10 % of a sharp peak from
///    itself. It is then smoothed by a time-weighted moving average over `smoothingWindowSeconds`
///    (40 ms, one 25 Hz sample: every rate sees the motion as a 25 Hz sensor does; see
///    `MovingAverage`). Together they give the same peaks at 25 Hz and at 1.6 kHz.
/// 2. **Half-waves**: a half-wave starts when `|l| > onsetAcceleration` (or, on a saturated sample
///    where a raw axis reaches ±`saturationAcceleration`, when `|l| > releaseAcceleration`; and
///    while a shake is under way, between `began` and its end, from halfway between the release
///    and onset thresholds, so that a gentle shake whose strokes dip under the onset for a moment
///    goes on and is not ended and begun again: one shake, one `ended`), keeps
///    the vector and time of its largest `|l|` (its peak), and ends when `|l| < releaseAcceleration`
///    or when `l` turns more than 90° from the peak direction (then the next half-wave may start on
///    the same sample). Peaks are placed between samples: once the sample after a peak arrives, a
///    parabola through the peak and its two neighbours (projected on the peak direction) gives the
///    peak's time and size. A local maximum between the release and onset thresholds whose
///    interpolated peak exceeds the onset opens a half-wave one sample late. At 25 Hz sampling
///    otherwise misses up to 1 − cos(π f / 25) of a peak (45 % for an 8 Hz shake) and misplaces it
///    by up to 20 ms; from 100 Hz on the correction is small.
/// 3. **Reversals**: a half-wave *links* to the previous one when the cosine between their peak
///    vectors is ≤ `reversalCosine` and their peaks are `minimumReversalIntervalSeconds` to
///    `maximumReversalIntervalSeconds` apart. It is tested on every sample while its peak grows
///    (so a link is recognised as soon as the half-wave is clearly opposite) and once more with
///    the interpolated peak. A half-wave that ends without linking starts a new chain.
/// 4. **Began**: on a half-wave of a chain that is still open (the half-wave has linked to the
///    chain, or may still link: its peak lies within `maximumReversalIntervalSeconds` of the
///    last one), when the chain holds `minimumHalfWaves` linked half-waves and the exponentially
///    weighted covariance matrix of `l` (`linearityTimeConstantSeconds`; samples with
///    `|l| ≤ releaseAcceleration` outside half-waves and shakes only decay it) has
///    `√(λ₂/λ₁) ≤ maximumLinearity` (the motion is back-and-forth, not a circle or a gait; the
///    covariance, not the raw second moments, so that the gravity estimate's fading error after
///    a quick turn does not make a straight shake look bent), the longest peak-to-peak interval
///    of the chain's last 8 is at most `maximumIntervalRatio` times the shortest (a steady
///    rhythm, not a heel strike's ringing and pause) and the last `minimumHalfWaves` half-waves peaked at most
///    `maximumPeakIntervalSeconds` apart one after another (no stroke slower than a 1 Hz
///    shake's; both measured between the peaks as finally placed, and for the open half-wave to
///    its peak so far, not when each half-wave linked, which is often well before its peak),
///    and the detector is not within `refractorySeconds` of the last `ended`. During *ongoing motion*
///    `ongoingMotionStrongHalfWaves` of the chain's last `minimumHalfWaves` linked half-waves
///    (the open one included once it has linked) must also have peaked at
///    `ongoingMotionPeakAcceleration` or more: the samples are judged in half-second blocks,
///    and a block is a pause when the standard deviation of the raw `|a|` within it
///    (time-weighted) is at most `pauseDeviationAcceleration`; ongoing motion is when none of
///    the blocks completed in the last `ongoingMotionSeconds` was a pause (a walk, a run), once
///    at least one block has completed since the filters started: blocks not yet seen (the
///    first seconds of a stream, or after a gap) are not pauses, since a stream may start in the
///    middle of a walk; but a stream whose first `ShakeConfiguration.startPauseSeconds` (0.2 s)
///    are a pause by the same measure starts with one, as soon as they have passed (a shake
///    begun within the first half-second block would otherwise leave no pause to see). A chain of exactly
///    `minimumHalfWaves` half-waves must also be quick (its peaks at most
///    `shortChainPeakIntervalSeconds` apart) or straight (`√(λ₂/λ₁) ≤ shortChainLinearity`);
///    otherwise it needs one half-wave more: circles, a move and its rebound, a push and pull make
///    three or four strong half-waves and stop, where a hand that shakes goes on.
/// 5. **Ended** when no half-wave has been active for `quietSeconds`, on the first sample at
///    least `quietSeconds` after the last half-wave ended (the detector has no timer: a stream
///    that stops, or pauses for more than `maximumGapSeconds`, before that sample comes has the
///    shake cancelled instead, `.gap` or `.interrupted`, since the samples cannot say the hand
///    stopped). The quiet must be seen: of a dropout under the gap limit (two samples more
///    than `quietSeconds / 2`, and at least 0.1 s, apart) only that much counts, and of dropouts in
///    a row (intervals over 0.1 s and over 2.5 usual intervals, one to three samples kept between
///    them) only that much in all, and none once a later sample exceeds `releaseAcceleration`
///    before the shake has ended (motion seen after a dropout: a stroke may have been lost in
///    it), so a shake whose samples are lost for a moment between two strokes is not ended and
///    begun again; **cancelled** with `.tooLong`
///    when `maximumShakeSeconds` after the first half-wave began the shake has not ended (so
///    shaking over `maximumShakeSeconds − quietSeconds` is cancelled; then the motion must pause
///    for `quietSeconds` before another shake can begin), with `.gap` when two samples are more than `maximumGapSeconds` apart, and
///    with `.interrupted` from `interrupt(at:)`.
///
/// ## Odd input
/// - A sample with a NaN or infinite time or acceleration is ignored (returns nil, changes
///   nothing); if the stream resumes after more than `maximumGapSeconds`, that is a gap.
/// - So is a sample with an axis beyond ±`implausibleAcceleration` (10⁴ m/s², about 1000 g, more
///   than any accelerometer measures): a corrupt reading or a wrong scale, which would otherwise
///   be absorbed by the gravity estimate and deafen the detector for minutes.
/// - A sample with the same time as the previous one is ignored: a driver that stamps a whole
///   FIFO batch with one time must spread the batch over its period first
///   (`SampleStreamCheck.Problem.timesRepeat` says so; `.timesBunched` of one that stamps each
///   sample as it reads the FIFO out, microseconds apart).
/// - So is a sample earlier than the latest by up to `maximumGapSeconds` (one that arrived late,
///   or a clock's jitter): the stream goes on from the next sample after the latest, as after a
///   gap no longer than that.
/// - Time going further back (a clock reset) restarts the filters from that sample; a shake in
///   progress is cancelled (`.timeWentBackwards`, timed at the last sample before the jump), and
///   what was left of the refractory period carries over to the new clock.
/// - A gap or a clock reset restarts everything but the refractory period: the gravity estimate
///   starts from the sample after it, and the ongoing-motion history is empty: its first
///   half-second block of motion is ongoing motion again (a walk with a dropout of more than
///   `maximumGapSeconds` stays a walk), and a pause seen since ends it (its first 0.2 s
///   are one if still).
///
/// The configuration is assumed valid (see `ShakeConfiguration.validate()`); with one that is
/// not, the events mean nothing, but nothing traps.
///
/// ## Threads
/// A `Sendable` value with no shared state: keep one per stream, owned by whatever runs the
/// driver (an actor, a serial queue, a thread), and send the events elsewhere; a copy is an
/// independent detector. Changing `configuration` while running restarts it (see there).
public struct ShakeDetector: Sendable {
    /// The parameters in use.
    ///
    /// Setting a different value restarts the detector as `reset()` does (filters, half-waves,
    /// refractory period), except that a shake in progress is not dropped silently: the next
    /// `process(_:)` (or `interrupt(at:)`) returns its `cancelled` event, reason `.interrupted`,
    /// timed at the last sample before the change, so every `began` is still followed by exactly
    /// one `ended` or `cancelled`. Setting the value already in use changes nothing.
    public var configuration: ShakeConfiguration {
        didSet {
            guard configuration != oldValue else { return }
            // A second change before the next sample keeps the first one's cancellation.
            let cancelled = shaking ? makeEvent(.cancelled, at: lastTime, reason: .interrupted) : pendingCancellation
            reset()
            pendingCancellation = cancelled
        }
    }

    /// The `cancelled` event of a shake that was in progress when the configuration changed,
    /// returned by the next sample (which, after the restart, takes the cold path) or interrupt.
    private var pendingCancellation: ShakeEvent?

    // The state read by the calm-sample path of `process(_:)` is internal and
    // `@usableFromInline`, so that `process(_:)` can be inlined into the caller's loop.

    // Squared thresholds, (m/s²)², from the configuration.
    private var onsetSquared: Double
    private var releaseSquared: Double
    // While a shake is under way a half-wave opens above ((onset + release) / 2)².
    private var continuationSquared: Double

    // Filter state.
    @usableFromInline var started = false
    @usableFromInline var lastTime = 0.0
    @usableFromInline var gx = 0.0, gy = 0.0, gz = 0.0  // gravity estimate, m/s²
    @usableFromInline var lx = 0.0, ly = 0.0, lz = 0.0  // smoothed linear acceleration, m/s²
    @usableFromInline var smoother: MovingAverage
    private var mxx = 0.0, myy = 0.0, mzz = 0.0       // second moments of l, (m/s²)²
    private var mxy = 0.0, mxz = 0.0, myz = 0.0
    // The same weighting's mean of l, m/s², and total weight (1 − (1 − α)ⁿ after n samples), to
    // centre the second moments (see `linearity()`).
    private var meanX = 0.0, meanY = 0.0, meanZ = 0.0, meanWeight = 0.0
    // Smoothing factors cached for the last sample interval.
    private var momentTime = 0.0  // time of the last second-moment update, s
    // Sample intervals within which the cached factors are reused: those within 10⁻⁴ of the
    // interval they were computed for, and never beyond `maximumGapSeconds`. Empty until the
    // first interval.
    @usableFromInline var steadyIntervalLow = Double.infinity
    @usableFromInline var steadyIntervalHigh = -Double.infinity
    @usableFromInline var alphaGravity = 0.0
    // The gravity filter's mean output over the interval relative to its start: the linear
    // acceleration over the interval is β · (a − g_start), β = α · τ / Δt (see step 1).
    @usableFromInline var betaGravity = 1.0
    private var alphaLinearity = 0.0

    // The current half-wave.
    @usableFromInline var inHalfWave = false
    private var peakX = 0.0, peakY = 0.0, peakZ = 0.0, peakSquared = 0.0, peakTime = 0.0
    private var halfWaveStart = 0.0
    private var linked = false     // already linked to the previous half-wave
    // The sample before the peak, kept to place the peak between samples (see `refinePeak`).
    private var peakIsLatest = false  // the peak is the latest sample, not yet refined
    private var beforePeakDot = 0.0   // l(before) · l(peak), (m/s²)²
    private var beforePeakTime = 0.0
    // A sample between the release and onset thresholds outside a half-wave: if it turns out to be
    // a local maximum whose interpolated peak exceeds the onset, a half-wave opens on it.
    @usableFromInline var candidate = false
    private var candidateX = 0.0, candidateY = 0.0, candidateZ = 0.0, candidateNorm = 0.0
    private var candidateTime = 0.0
    private var beforeCandidateDot = 0.0, beforeCandidateTime = 0.0
    // The open half-wave belongs to the open chain: it has linked, or may still (its peak is
    // within the reversal interval of the last one). Stays true once it has linked.
    private var linkable = false
    // The previous half-wave.
    private var previousX = 0.0, previousY = 0.0, previousZ = 0.0, previousNorm = 0.0, previousTime = 0.0
    // The chain of linked half-waves.
    private var chainCount = 0
    private var chainStart = 0.0
    // The intervals between the peaks of its closed linked half-waves, s: the last
    // `recentIntervalCount` of them, in a ring (the rhythm rule's window; `recentIntervalsStored`
    // of them, the oldest at `recentIntervalsNext` once it is full), and the start of each one's
    // earlier half-wave, s.
    private var recentIntervals = InlineArray<8, Double>(repeating: 0)
    private var recentIntervalStarts = InlineArray<8, Double>(repeating: 0)
    // The rhythm rule refused the chain: a shake it makes later starts where the window does.
    private var chainRhythmRefused = false
    // The start of the latest closed half-wave, s.
    private var previousStart = 0.0
    private var recentIntervalsStored = 0
    private var recentIntervalsNext = 0
    // How many of the chain's latest closed links, in a row, have their peaks at most
    // `maximumPeakIntervalSeconds` apart.
    private var chainQuickLinks = 0
    // The latest interval between the chain's closed linked peaks that exceeded
    // `maximumPeakIntervalSeconds`, s (0 while there is none): reported in a refusal.
    private var chainSlowInterval = 0.0
    private var chainPeakSquared = 0.0
    // One bit per linked half-wave of the chain, newest in bit 0: 1 when its peak reached
    // `ongoingMotionPeakAcceleration`.
    private var chainStrong: UInt64 = 0
    private var chainEnergyX = 0.0, chainEnergyY = 0.0, chainEnergyZ = 0.0
    private var lastActivity = -Double.infinity {
        // Set within the latest interval (a release crossing placed between two samples), only
        // the part of that interval after it may count as unseen since.
        // (An assignment of the same value, a crossing that could not be placed, changes nothing.)
        didSet {
            guard lastActivity != oldValue else { return }
            unseenAtLastActivity = unseen - max(0, lastTime - lastActivity - latestIntervalSeen)
            // Set within a dropout (the latest interval), the seen part of the dropout after it
            // is the credit since; otherwise there is none yet.
            dropoutCredit = intervalsSinceDropout == 0
                ? min(latestIntervalSeen, max(0, lastTime - lastActivity)) : 0
        }
    }
    // Of the time since the filters started, how much no sample saw, s: the part of each
    // interval beyond `seenIntervalSeconds` (a dropout under the gap limit; of a row of
    // dropouts, what goes beyond that in all), summed over the samples that reach step 2 (all
    // while a shake is under way). The quiet that ends a shake leaves out what of it came after
    // the last activity, since no sample says the hand was still then, and so does the time
    // that makes a shake too long; `unseenAtLastActivity` is the sum up to `lastActivity` when
    // it was last set.
    private var unseen = 0.0
    private var unseenAtLastActivity = 0.0
    // Of the seen quiet since the last activity, how much dropouts were credited with, s. A
    // sample above the release threshold before the shake has ended takes it back (it becomes
    // unseen): motion seen after a dropout says the hand may have moved through it, so a dropout
    // that swallows a stroke, followed by weak strokes, does not end the shake.
    private var dropoutCredit = 0.0
    // Of the latest interval, the part that counts as seen, s (for `lastActivity`).
    private var latestIntervalSeen = 0.0
    // Dropouts in a row count as seen for `seenIntervalSeconds` in all, not each: a sample or two
    // kept between two dropouts does not make both seen (see `countLongInterval`). The stream's
    // usual interval (the latest that was not a dropout, of those ending at a sample that
    // reaches step 2; ∞ before the first), s; the intervals since the latest dropout; the seen
    // time given to the current row of dropouts, s.
    private var usualInterval = Double.infinity
    private var intervalsSinceDropout = ShakeDetector.dropoutRowIntervals
    private var dropoutRowSeen = 0.0
    // An interval is a dropout when longer than this, s (2.5 intervals at 25 Hz), and than
    // `dropoutRatio` usual intervals (a driver that stamps each FIFO batch once has an interval
    // of a batch's period: that is its stream, not a dropout).
    private static let dropoutSeconds = 0.1
    private static let dropoutRatio = 2.5
    // Two dropouts are in a row when fewer usual intervals than this lie between them (one to
    // three samples kept). A FIFO batch stamped as it is read out (samples microseconds apart,
    // then a pause of its period) keeps four or more, so its pauses are not a row.
    private static let dropoutRowIntervals = 3
    // The longest part of an interval between two samples that counts as seen quiet, s:
    // `quietSeconds / 2`, and at least 0.1 s, so that a 25 Hz sensor's intervals (0.04 s, up to
    // 0.076 s with heavy jitter) always count whole, whatever `quietSeconds` is.
    private let seenIntervalSeconds: Double

    // The shake.
    @usableFromInline var shaking = false
    @usableFromInline var exhausted = false  // cancelled as too long; waiting for a pause
    // |l|², (m/s²)², up to which a sample is calm: `releaseSquared`, or −∞ while a half-wave, a
    // shake, a shake cancelled as too long or a candidate peak is in progress (then none is),
    // so that the calm path makes one test of |l|.
    @usableFromInline var calmSquared: Double
    private var shakeStart = 0.0
    private var shakePeakSquared = 0.0
    private var shakeReversals = 0
    private var shakeEnergyX = 0.0, shakeEnergyY = 0.0, shakeEnergyZ = 0.0
    private var refractoryUntil = -Double.infinity

    // `process(_:explanation:)`: whether the current call collects an explanation, and what it
    // has collected. Written only on the rare paths (a half-wave ends, a began test fails).
    private var explaining = false
    private var explanation = ShakeExplanation()

    // Ongoing motion (see `ShakeConfiguration.ongoingMotionSeconds`). The current block's
    // time-weighted sums of |a| − `motionReference` (|a| of its first sample, so that the
    // variance is not the small difference of two large numbers), and one bit per completed
    // block, newest in bit 0: 1 when it was not a pause. Blocks not yet seen since the filters
    // started (0 in `motionSeen`) are not pauses: once one block has been seen, motion without a
    // pause since the stream started counts as ongoing.
    // `motionBlockEnd` is the end of the stream's first `startPauseSeconds` while
    // `judgingStart` is true (the first block is judged then, and goes on to its half-second).
    @usableFromInline var motionBlockEnd = Double.infinity
    @usableFromInline var motionReference = 0.0
    @usableFromInline var motionSum = 0.0, motionSquares = 0.0  // m/s² · s, (m/s²)² · s
    private var motionBlockStart = 0.0
    private var motionHistory: UInt64 = 0
    private var judgingStart = false
    private var motionSeen: UInt64 = 0  // one bit per completed block since the filters started
    private let ongoingMotionMask: UInt64  // the last `ongoingMotionBlocks` bits; 0: rule off
    private let pauseVariance: Double  // (m/s²)²
    private let ongoingPeakSquared: Double  // (m/s²)²
    private let strongNeeded: Int  // ongoingMotionStrongHalfWaves

    /// A detector in its initial state.
    ///
    /// The configuration is not checked (the presets are valid, and a detector is often made
    /// where nothing may throw); with one that `validate()` rejects, the events mean nothing. For
    /// values from outside the program (a settings screen, a file) use `init(validating:)`, or
    /// load them with ShakeRecording's `ConfigurationFile.load(path:)`, which validates.
    public init(configuration: ShakeConfiguration = .default) {
        self.configuration = configuration
        onsetSquared = configuration.onsetAcceleration * configuration.onsetAcceleration
        let continuation = (configuration.onsetAcceleration + configuration.releaseAcceleration) / 2
        continuationSquared = continuation * continuation
        releaseSquared = configuration.releaseAcceleration * configuration.releaseAcceleration
        calmSquared = releaseSquared
        smoother = MovingAverage(window: configuration.smoothingWindowSeconds)
        let blocks = configuration.ongoingMotionBlocks
        ongoingMotionMask = blocks >= 64 ? ~0 : (1 << UInt64(blocks)) - 1
        pauseVariance = configuration.pauseDeviationAcceleration * configuration.pauseDeviationAcceleration
        ongoingPeakSquared = configuration.ongoingMotionPeakAcceleration * configuration.ongoingMotionPeakAcceleration
        strongNeeded = configuration.ongoingMotionStrongHalfWaves
        seenIntervalSeconds = max(0.5 * configuration.quietSeconds, 0.1)
    }

    /// A detector in its initial state, after `configuration.validate()`.
    /// - Throws: `ShakeConfigurationError` naming the first value the detector cannot work with.
    public init(validating configuration: ShakeConfiguration) throws(ShakeConfigurationError) {
        try configuration.validate()
        self.init(configuration: configuration)
    }

    /// True between `began` and the matching `ended` or `cancelled`.
    public var isShaking: Bool { shaking }

    /// The linear acceleration after the last sample (gravity removed and smoothed, step 1), m/s²
    /// per axis: what the onset and release thresholds are compared with, for a level meter while
    /// tuning or to see how far a gentle shake stayed under the onset. Zero before the first
    /// sample and right after a restart.
    public var linearAcceleration: (x: Double, y: Double, z: Double) { (lx, ly, lz) }

    /// True while the device has been in *ongoing motion* (no pause in the last
    /// `ongoingMotionSeconds`, or since the stream started or resumed after a gap, once its first
    /// half-second block has ended; see `ShakeConfiguration`): a shake needs a peak of
    /// `ongoingMotionPeakAcceleration` to begin. For a hint such as "shake harder while walking",
    /// or to draw when the rule applied (`shake plot`). Always false when the rule is off.
    public var isInOngoingMotion: Bool { inOngoingMotion }

    /// Forgets everything (filters, half-waves, shake in progress, refractory period) without
    /// emitting an event: a shake in progress, or the `cancelled` event still pending after a
    /// configuration change, is dropped. To end a stream with every `began` matched, call
    /// `interrupt(at:)` instead. The next sample starts the filters afresh.
    public mutating func reset() {
        let configuration = self.configuration
        self = ShakeDetector(configuration: configuration)
    }

    /// The stream was interrupted at `time` (seconds): a shake in progress is cancelled with
    /// reason `.interrupted` (returned), and the detector restarts as after `reset()`. Call it
    /// when a stream ends, so that a shake still in progress gets its `cancelled`.
    /// Returns the `cancelled` event still pending after a configuration change, if any, or nil
    /// if no shake was in progress. A NaN or infinite `time`, or one before the last sample's
    /// (the stream was still running then), is taken as the last sample's, so a `cancelled`
    /// never comes before the shake's own start or its last activity.
    public mutating func interrupt(at time: Double) -> ShakeEvent? {
        let time = time.isFinite && time >= lastTime ? time : lastTime
        let event = shaking ? makeEvent(.cancelled, at: time, reason: .interrupted) : pendingCancellation
        reset()
        return event
    }

    /// How many of a chain's latest intervals between linked peaks the rhythm rule
    /// (`maximumIntervalRatio`) compares.
    static let recentIntervalCount = 8  // the rings' InlineArray count

    /// The slowest sample rate the detector is made for, Hz. Its 40 ms smoothing is one sample
    /// at this rate, and one configuration behaves the same from here to 1.6 kHz. Slower input is
    /// still processed, but a shake's quick strokes fall between the samples: a 10 Hz stream of
    /// five synthesized shakes (`shake synth shakes --rate 10`) gives one. `shake replay`,
    /// `evaluate`, `tune`, `live` and `record` warn about input more than 10 % slower than this.
    public static let slowestSupportedSampleRate = 25.0

    /// Acceleration beyond which a sample is ignored as corrupt, m/s² (about 1000 g). Real
    /// accelerometers measure ±2 g to ±400 g.
    public static let implausibleAcceleration = 1e4

    /// Feeds one sample like `process(_:)`, and also reports what the detector decided on it:
    /// the half-wave that ended and why a chain long enough to be a shake did not begin one (see
    /// `ShakeExplanation`). For tools that explain a missed or unexpected shake; a little slower
    /// than `process(_:)` (the explanation is cleared and copied out on every sample), and the
    /// events are the same.
    public mutating func process(_ sample: Sample, explanation: inout ShakeExplanation) -> ShakeEvent? {
        explaining = true
        self.explanation = ShakeExplanation()
        let event = process(sample)
        explanation = self.explanation
        explaining = false
        return event
    }

    /// Feeds one sample; returns the event it causes, if any (at most one).
    /// - Complexity: O(1), no allocation. Inlinable: a calm sample (most of them) costs a few
    ///   dozen instructions in the caller's loop; everything else is done out of line.
    @inlinable @inline(__always)
    public mutating func process(_ sample: Sample) -> ShakeEvent? {
        let t = sample.time
        let limit = Self.implausibleAcceleration
        // |a|² ≤ limit² (rounded) implies every |axis| ≤ limit, so the axes are tested one by
        // one only past it. abs(v) ≤ limit is false for NaN and ±infinity, and so is the first
        // test, so these also reject non-finite values.
        let squaredMagnitude = sample.x * sample.x + sample.y * sample.y + sample.z * sample.z
        guard squaredMagnitude <= limit * limit
                || (abs(sample.x) <= limit && abs(sample.y) <= limit && abs(sample.z) <= limit) else {
            return nil
        }
        let dt = t - lastTime
        // One test for the usual case: started, and an interval within 10⁻⁴ of the last one
        // (timestamps like i/rate differ in the last bits; α then errs by under 10⁻⁴ relative).
        // A NaN or infinite time never passes it.
        if !(dt >= steadyIntervalLow && dt <= steadyIntervalHigh) {
            // Written so that a NaN interval (a NaN time) goes to the irregular path too.
            if !started || !(dt > 0 && dt <= configuration.maximumGapSeconds) {
                return irregularInterval(sample, interval: dt)
            }
            updateSmoothingFactors(interval: dt)
        }
        lastTime = t

        // 0. Ongoing motion: the spread of |a| in half-second blocks.
        let magnitude = squaredMagnitude.squareRoot()  // sample.magnitude, the same operations
        let deviation = magnitude - motionReference
        motionSum += deviation * dt
        motionSquares += deviation * deviation * dt
        // A completed block is recorded out of line, with the active samples (below): nothing
        // in between reads the block's state.

        // 1. Gravity and linear acceleration.
        let ux = sample.x - gx, uy = sample.y - gy, uz = sample.z - gz
        gx += alphaGravity * ux
        gy += alphaGravity * uy
        gz += alphaGravity * uz
        let b = betaGravity
        let (nx, ny, nz) = smoother.add(b * ux, b * uy, b * uz, at: t, duration: dt)
        let m2 = nx * nx + ny * ny + nz * nz

        // Fast path for calm motion (no half-wave, no shake, |l| below the release threshold)
        // within a half-second block: nothing below can change. The second moments skip calm
        // samples; their decay is applied at the next active sample instead, so only the calm
        // samples' own (small) outer products are left out of the linearity measure.
        if m2 <= calmSquared && t < motionBlockEnd {
            lx = nx; ly = ny; lz = nz
            return nil
        }
        return processActive(sample, interval: dt, squaredMagnitude: m2, magnitude: magnitude,
                             linear: (nx, ny, nz))
    }

    /// The end of step 1 (`linear` becomes the linear acceleration; the one it replaces is the
    /// previous sample's, which steps 2–5 need) and of step 0 for a sample that completes a
    /// half-second block, and steps 2–5 for a sample that is not calm; kept out of line so that
    /// the calm path stays small (it stores `linear` itself, and never reads the previous one).
    @inline(never) @usableFromInline
    mutating func processActive(
        _ sample: Sample, interval dt: Double, squaredMagnitude m2: Double, magnitude: Double,
        linear: (x: Double, y: Double, z: Double)
    ) -> ShakeEvent? {
        let previous = (x: lx, y: ly, z: lz)
        lx = linear.x; ly = linear.y; lz = linear.z
        if sample.time >= motionBlockEnd {
            if judgingStart {
                judgeStart(at: sample.time, magnitude: magnitude)
            } else {
                closeMotionBlock(at: sample.time, magnitude: magnitude)
            }
        }
        if m2 <= calmSquared { return nil }
        let event = steps(sample, interval: dt, squaredMagnitude: m2, previous: previous)
        calmSquared = inHalfWave || shaking || exhausted || candidate ? -.infinity : releaseSquared
        return event
    }

    /// A sample that is not the usual next one: one with a NaN or infinite time (ignored), the
    /// first, one with the same time as the last or at most `maximumGapSeconds` before it
    /// (ignored), or one after a gap or further back in time (a restart).
    @inline(never) @usableFromInline
    mutating func irregularInterval(_ sample: Sample, interval dt: Double) -> ShakeEvent? {
        // t − t is 0 for every finite t and NaN otherwise: a sample with a NaN or infinite time
        // is ignored.
        guard sample.time - sample.time == 0 else { return nil }
        if !started {
            restartFilters(with: sample)
            defer { pendingCancellation = nil }
            return pendingCancellation
        }
        if dt <= 0 && dt >= -configuration.maximumGapSeconds { return nil }
        return restartAfterGap(with: sample)
    }

    @inline(__always)
    private mutating func steps(
        _ sample: Sample, interval dt: Double, squaredMagnitude m2: Double,
        previous: (x: Double, y: Double, z: Double)
    ) -> ShakeEvent? {
        let t = sample.time
        let release2 = releaseSquared
        if dt > Self.dropoutSeconds {
            countLongInterval(dt)
        } else {
            usualInterval = dt
            intervalsSinceDropout += 1
            latestIntervalSeen = seenIntervalSeconds
        }
        if t - momentTime > 1.5 * dt {
            decayMoments(over: t - momentTime - dt)
        }
        momentTime = t
        let al = alphaLinearity
        mxx += al * (lx * lx - mxx)
        myy += al * (ly * ly - myy)
        mzz += al * (lz * lz - mzz)
        mxy += al * (lx * ly - mxy)
        mxz += al * (lx * lz - mxz)
        myz += al * (ly * lz - myz)
        meanX += al * (lx - meanX)
        meanY += al * (ly - meanY)
        meanZ += al * (lz - meanZ)
        meanWeight += al * (1 - meanWeight)

        // 2. Half-waves. A peak found on the previous sample is first placed between samples
        // (and its reversal re-tested with that time) before this sample may close its half-wave.
        // A half-wave linked by that re-test may close on this very sample; it may still make
        // the shake begin (step 4).
        var linkedBeforeClosing = false
        if inHalfWave && peakIsLatest && m2 <= peakSquared {
            refinePeak(next: t)
            linkedBeforeClosing = testReversal()
        } else if candidate && !inHalfWave {
            linkedBeforeClosing = openOnInterpolatedPeak(next: t)
        }
        candidate = false
        if inHalfWave {
            if m2 < release2 {
                lastActivity = releaseCrossing(at: t, interval: dt, squaredMagnitude: m2, previous: previous)
                closeHalfWave()
            } else if lx * peakX + ly * peakY + lz * peakZ < 0 {
                closeHalfWave()
            } else {
                lastActivity = t
                if m2 > peakSquared {
                    setPeak(squared: m2, at: t, before: previous, interval: dt)
                }
            }
        }
        if !inHalfWave && m2 > release2 {
            let s = configuration.saturationAcceleration
            if m2 > (shaking ? continuationSquared : onsetSquared)
                || abs(sample.x) >= s || abs(sample.y) >= s || abs(sample.z) >= s {
                openHalfWave(at: t, squared: m2, before: previous, interval: dt)
            } else {
                candidate = true
                candidateX = lx; candidateY = ly; candidateZ = lz
                candidateNorm = m2.squareRoot()
                candidateTime = t
                beforeCandidateDot = previous.x * lx + previous.y * ly + previous.z * lz
                beforeCandidateTime = t - dt
            }
        }

        // 3. Reversals.
        testReversal()

        // 4. Began. The chain's totals include its half-waves that have closed; add the open
        // one if it belongs to the chain. A half-wave too late to link has no chain: the one
        // before it ended, and its count, rhythm and start must not make this one a shake.
        let open = inHalfWave && linked ? 1.0 : 0.0
        if ((inHalfWave && linkable) || linkedBeforeClosing) && !shaking
            && chainCount >= configuration.minimumHalfWaves {
            if let reason = beganRefusal(at: t, withOpenHalfWave: open > 0) {
                if explaining {
                    explanation.refusal = ShakeExplanation.Refusal(
                        time: t, chainStartTime: chainStart, chainHalfWaves: chainCount, reason: reason)
                }
            } else {
                if explaining { explanation.began = beganReport(at: t, withOpenHalfWave: open > 0) }
                shaking = true
                let beginning = beginningChain(withOpenHalfWave: open > 0)
                shakeStart = beginning.start
                shakeReversals = beginning.halfWaves - 1
                shakePeakSquared = max(chainPeakSquared, open * peakSquared)
                shakeEnergyX = chainEnergyX + open * peakX * peakX
                shakeEnergyY = chainEnergyY + open * peakY * peakY
                shakeEnergyZ = chainEnergyZ + open * peakZ * peakZ
                return makeEvent(.began, at: t)
            }
        }

        // 5. Ended, too long. The quiet must be seen: of a dropout since the last activity only
        // `seenIntervalSeconds` counts, and none once a sample after it has passed the release
        // threshold; the time a dropout delays `ended` by does not make the shake too long.
        if dropoutCredit > 0 && m2 >= release2 && lastActivity < t && (shaking || exhausted) {
            unseen += dropoutCredit
            dropoutCredit = 0
        }
        let unseenSince = unseen - unseenAtLastActivity
        let quiet = t - lastActivity - unseenSince
        if shaking {
            if quiet > configuration.quietSeconds {
                let event = makeEvent(.ended, at: t)
                endShake(refractoryFrom: t)
                return event
            }
            if t - shakeStart - unseenSince > configuration.maximumShakeSeconds {
                let event = makeEvent(.cancelled, at: t, reason: .tooLong)
                shaking = false
                exhausted = true
                return event
            }
        } else if exhausted && quiet > configuration.quietSeconds {
            endShake(refractoryFrom: t)
        }
        return nil
    }

    // MARK: Steps

    @inline(never) @usableFromInline
    mutating func restartAfterGap(with sample: Sample) -> ShakeEvent? {
        var event: ShakeEvent? = nil
        var refractory = refractoryUntil
        if sample.time < lastTime {
            // A clock reset: the cancellation is timed on the clock its `began` was, and the
            // refractory period left goes on from the new clock's first sample.
            if shaking { event = makeEvent(.cancelled, at: lastTime, reason: .timeWentBackwards) }
            refractory = refractory > lastTime ? sample.time + (refractory - lastTime) : -.infinity
        } else if shaking {
            event = makeEvent(.cancelled, at: sample.time, reason: .gap)
        }
        reset()
        refractoryUntil = refractory
        restartFilters(with: sample)
        return event
    }

    /// An interval of `dt` s over `dropoutSeconds`: of a dropout only `seenIntervalSeconds` counts
    /// as seen quiet, and of a row of dropouts only that much in all; the rest is unseen.
    @inline(never)
    private mutating func countLongInterval(_ dt: Double) {
        let seen: Double
        if dt > Self.dropoutRatio * usualInterval {
            if intervalsSinceDropout >= Self.dropoutRowIntervals { dropoutRowSeen = 0 }
            seen = min(dt, max(0, seenIntervalSeconds - dropoutRowSeen))
            dropoutCredit += seen
            dropoutRowSeen += seen
            intervalsSinceDropout = 0
        } else {
            seen = min(dt, seenIntervalSeconds)
            usualInterval = dt
            intervalsSinceDropout += 1
        }
        unseen += dt - seen
        latestIntervalSeen = seen
    }

    /// Scales the second moments by `exp(−duration/τ)` for the calm samples skipped.
    @inline(never)
    private mutating func decayMoments(over duration: Double) {
        let k = expNegative(duration / configuration.linearityTimeConstantSeconds)
        mxx *= k; myy *= k; mzz *= k; mxy *= k; mxz *= k; myz *= k
        meanX *= k; meanY *= k; meanZ *= k; meanWeight *= k
    }

    @inline(never) @usableFromInline
    mutating func updateSmoothingFactors(interval dt: Double) {
        // |dt' − dt| ≤ 10⁻⁴ · dt'  ⟺  dt / (1 + 10⁻⁴) ≤ dt' ≤ dt / (1 − 10⁻⁴)
        steadyIntervalLow = dt / (1 + 1e-4)
        steadyIntervalHigh = min(dt / (1 - 1e-4), configuration.maximumGapSeconds)
        let tau = configuration.gravityTimeConstantSeconds
        alphaGravity = smoothingFactor(interval: dt, timeConstant: tau)
        betaGravity = alphaGravity * tau / dt
        alphaLinearity = smoothingFactor(interval: dt, timeConstant: configuration.linearityTimeConstantSeconds)
    }

    @inline(never) @usableFromInline
    mutating func restartFilters(with sample: Sample) {
        started = true
        lastTime = sample.time
        momentTime = sample.time
        gx = sample.x; gy = sample.y; gz = sample.z
        smoother.restart(at: sample.time)
        startMotionBlock(at: sample.time, magnitude: sample.magnitude)
        judgingStart = true
        motionBlockEnd = sample.time + ShakeConfiguration.startPauseSeconds
    }

    /// The sample at `t` ends the stream's first `startPauseSeconds`: a pause if they were one
    /// (by the block's measure, the sample at `t` included); the first block then goes on to its
    /// half-second (or ends at once, after a gap in the samples longer than that).
    @inline(never)
    private mutating func judgeStart(at t: Double, magnitude: Double) {
        judgingStart = false
        let length = t - motionBlockStart
        let mean = motionSum / length
        if motionSquares / length - mean * mean <= pauseVariance {
            motionHistory = motionHistory << 1
            motionSeen = motionSeen << 1 | 1
        }
        motionBlockEnd = motionBlockStart + ShakeConfiguration.motionBlockSeconds
        if t >= motionBlockEnd { closeMotionBlock(at: t, magnitude: magnitude) }
    }

    /// The sample at `t` (with `|a|` = `magnitude`) completes the current half-second block:
    /// records whether it was a pause and starts the next one.
    @inline(never)
    private mutating func closeMotionBlock(at t: Double, magnitude: Double) {
        let length = t - motionBlockStart
        if length > 0 {
            let mean = motionSum / length
            let moving = motionSquares / length - mean * mean > pauseVariance
            motionHistory = motionHistory << 1 | (moving ? 1 : 0)
            motionSeen = motionSeen << 1 | 1
        }
        startMotionBlock(at: t, magnitude: magnitude)
    }

    private mutating func startMotionBlock(at t: Double, magnitude: Double) {
        motionBlockStart = t
        motionBlockEnd = t + ShakeConfiguration.motionBlockSeconds
        motionReference = magnitude
        motionSum = 0
        motionSquares = 0
    }

    /// The device has moved without a pause through every block of the last
    /// `ongoingMotionSeconds` (see `ShakeConfiguration.ongoingMotionSeconds`), or through every
    /// block since the filters started when fewer have been seen. False until the first block
    /// has ended (and after a still start, for `ongoingMotionSeconds`).
    private var inOngoingMotion: Bool {
        @inline(__always) get {
            ongoingMotionMask != 0 && motionSeen != 0
                && (motionHistory | ~motionSeen) & ongoingMotionMask == ongoingMotionMask
        }
    }

    @inline(never)
    private mutating func openHalfWave(
        at t: Double, squared m2: Double, before previous: (x: Double, y: Double, z: Double),
        interval dt: Double
    ) {
        inHalfWave = true
        halfWaveStart = t
        lastActivity = t
        setPeak(squared: m2, at: t, before: previous, interval: dt)
        linked = false
        linkable = chainCount > 0 && t - previousTime <= configuration.maximumReversalIntervalSeconds
    }

    /// The current linear acceleration becomes the half-wave's peak.
    private mutating func setPeak(
        squared m2: Double, at t: Double, before previous: (x: Double, y: Double, z: Double),
        interval dt: Double
    ) {
        peakSquared = m2
        peakX = lx; peakY = ly; peakZ = lz
        peakTime = t
        peakIsLatest = true
        beforePeakDot = previous.x * lx + previous.y * ly + previous.z * lz
        beforePeakTime = t - dt
    }

    /// The sample after the peak has arrived and is no larger: fits a parabola through the
    /// projections onto the peak direction of the sample before the peak, the peak and this
    /// sample (the current `l`), and moves the peak to the parabola's vertex. Sampling at 25 Hz
    /// otherwise places a peak up to 20 ms off and up to 1 − cos(π f/25) too low (about 10 %
    /// for a 3 Hz shake, 45 % at 8 Hz), which splits or loses half-waves that a faster sensor
    /// sees; at 100 Hz and above the correction is tiny.
    @inline(never)
    private mutating func refinePeak(next t: Double) {
        peakIsLatest = false
        let norm = peakSquared.squareRoot()
        guard norm > 0, let vertex = interpolatedPeak(
            (peakX, peakY, peakZ), norm: norm, at: peakTime, before: (beforePeakDot, beforePeakTime), next: t)
        else { return }
        let scale = vertex.value / norm
        peakX *= scale; peakY *= scale; peakZ *= scale
        peakSquared = vertex.value * vertex.value
        peakTime += vertex.offset
    }

    /// The vertex of the parabola through the projections onto `peak`'s direction of the sample
    /// before it (`before`: its dot product with `peak`, and its time), `peak` itself (length
    /// `norm`, at `time`) and the current sample (`l`, at `next`); offset in seconds from `time`.
    @inline(__always) private func interpolatedPeak(
        _ peak: (x: Double, y: Double, z: Double), norm: Double, at time: Double,
        before: (dot: Double, time: Double), next: Double
    ) -> (offset: Double, value: Double)? {
        let after = (lx * peak.x + ly * peak.y + lz * peak.z) / norm
        return parabolaVertex(before: (before.time - time, before.dot / norm), peak: norm,
                              after: (next - time, after))
    }

    /// The previous sample lay between the release and onset thresholds outside a half-wave. If
    /// it was a local maximum and its interpolated peak (as in `refinePeak`) exceeds the onset
    /// (during a shake, the continuation threshold), the half-wave that sampling cut short opens
    /// now, with that peak. Returns whether it linked to the previous half-wave.
    @inline(never)
    private mutating func openOnInterpolatedPeak(next t: Double) -> Bool {
        let norm = candidateNorm
        guard let vertex = interpolatedPeak(
            (candidateX, candidateY, candidateZ), norm: norm, at: candidateTime,
            before: (beforeCandidateDot, beforeCandidateTime), next: t),
            vertex.value * vertex.value > (shaking ? continuationSquared : onsetSquared)
        else { return false }
        let scale = vertex.value / norm
        inHalfWave = true
        halfWaveStart = candidateTime
        lastActivity = candidateTime
        peakX = candidateX * scale; peakY = candidateY * scale; peakZ = candidateZ * scale
        peakSquared = vertex.value * vertex.value
        peakTime = candidateTime + vertex.offset
        peakIsLatest = false
        linked = false
        linkable = chainCount > 0 && peakTime - previousTime <= configuration.maximumReversalIntervalSeconds
        return testReversal()
    }

    /// Links the current half-wave to the previous one if its peak points the opposite way within
    /// the allowed interval (step 3). Returns whether it linked now.
    @discardableResult @inline(__always)
    private mutating func testReversal() -> Bool {
        guard inHalfWave && linkable && !linked else { return false }
        return linkIfReversed()
    }

    /// `testReversal()` for a half-wave that may still link; out of line, as most active
    /// samples have nothing to test.
    @inline(never)
    private mutating func linkIfReversed() -> Bool {
        let gap = peakTime - previousTime
        if gap > configuration.maximumReversalIntervalSeconds {
            linkable = false
        } else if gap >= configuration.minimumReversalIntervalSeconds {
            let dot = peakX * previousX + peakY * previousY + peakZ * previousZ
            // cos = dot / (|peak| |previous|) ≤ reversalCosine, without a division.
            if dot <= configuration.reversalCosine * peakSquared.squareRoot() * previousNorm {
                linked = true
                chainCount += 1
                if shaking { shakeReversals += 1 }
                return true
            }
        }
        return false
    }

    /// When `|l|` fell through the release threshold between the previous sample (at `t − dt`,
    /// still above) and this one, by linear interpolation of `|l|`: the end of the motion, to
    /// within a fraction of an interval at any rate (so `ended` comes `quietSeconds` after it, at
    /// the first sample from then on, and not up to one more interval early at 25 Hz).
    @inline(__always) private func releaseCrossing(
        at t: Double, interval dt: Double, squaredMagnitude m2: Double,
        previous: (x: Double, y: Double, z: Double)
    ) -> Double {
        let before = (previous.x * previous.x + previous.y * previous.y + previous.z * previous.z).squareRoot()
        let now = m2.squareRoot()
        let release = configuration.releaseAcceleration
        guard before >= release, before > now else { return lastActivity }
        return t - dt + dt * min(1, (before - release) / (before - now))
    }

    @inline(never)
    private mutating func closeHalfWave() {
        inHalfWave = false
        peakIsLatest = false
        if explaining { explanation.halfWave = halfWaveReport() }
        if linked {
            let gap = peakTime - previousTime
            recentIntervals[recentIntervalsNext] = gap
            recentIntervalStarts[recentIntervalsNext] = previousStart
            recentIntervalsNext = recentIntervalsNext == Self.recentIntervalCount - 1 ? 0 : recentIntervalsNext + 1
            recentIntervalsStored = min(recentIntervalsStored + 1, Self.recentIntervalCount)
            if gap <= configuration.maximumPeakIntervalSeconds {
                chainQuickLinks += 1
            } else {
                chainQuickLinks = 0
                chainSlowInterval = gap
            }
            chainPeakSquared = max(chainPeakSquared, peakSquared)
            chainStrong = chainStrong << 1 | (peakSquared >= ongoingPeakSquared ? 1 : 0)
            chainEnergyX += peakX * peakX; chainEnergyY += peakY * peakY; chainEnergyZ += peakZ * peakZ
        } else {
            chainCount = 1
            chainStart = halfWaveStart
            recentIntervalsStored = 0
            recentIntervalsNext = 0
            chainRhythmRefused = false
            chainQuickLinks = 0
            chainSlowInterval = 0
            chainPeakSquared = peakSquared
            chainStrong = peakSquared >= ongoingPeakSquared ? 1 : 0
            chainEnergyX = peakX * peakX; chainEnergyY = peakY * peakY; chainEnergyZ = peakZ * peakZ
        }
        if shaking {
            shakePeakSquared = max(shakePeakSquared, peakSquared)
            shakeEnergyX += peakX * peakX; shakeEnergyY += peakY * peakY; shakeEnergyZ += peakZ * peakZ
        }
        previousX = peakX; previousY = peakY; previousZ = peakZ
        previousNorm = peakSquared.squareRoot()
        previousTime = peakTime
        previousStart = halfWaveStart
    }

    /// Where a shake that begins now starts, and on how many half-waves: the chain's, or, once
    /// the rhythm rule has refused the chain, the part in its window (the last
    /// `recentIntervalCount` intervals, from the earlier half-wave of the oldest), so that a
    /// shake after irregular motion is not dated from that motion, nor made too long by it.
    private func beginningChain(withOpenHalfWave open: Bool) -> (start: Double, halfWaves: Int) {
        guard chainRhythmRefused, recentIntervalsStored == Self.recentIntervalCount else { return (chainStart, chainCount) }
        return (recentIntervalStarts[recentIntervalsNext], min(chainCount, recentIntervalsStored + 1 + (open ? 1 : 0)))
    }

    /// The half-wave that is closing, as `process(_:explanation:)` reports it; called before the
    /// chain and the previous half-wave are updated. `mutating` for the reason `makeEvent` gives.
    private mutating func halfWaveReport() -> ShakeExplanation.HalfWave {
        let interval = peakTime - previousTime
        let norms = peakSquared.squareRoot() * previousNorm
        let cosine = norms > 0 ? (peakX * previousX + peakY * previousY + peakZ * previousZ) / norms : 0
        let link: ShakeExplanation.Link
        if linked {
            link = .linked(cosine: cosine, intervalSeconds: interval)
        } else if chainCount == 0 {
            link = .nothingBefore
        } else if interval < configuration.minimumReversalIntervalSeconds
                    || interval > configuration.maximumReversalIntervalSeconds {
            link = .outsideInterval(intervalSeconds: interval)
        } else {
            link = .notOpposite(cosine: cosine, intervalSeconds: interval)
        }
        return ShakeExplanation.HalfWave(
            startTime: halfWaveStart, peakTime: peakTime, peakAcceleration: peakSquared.squareRoot(),
            chainHalfWaves: linked ? chainCount : 1, link: link)
    }

    /// What step 4's rules measure as a shake begins at `t`, as `process(_:explanation:)` reports it.
    private mutating func beganReport(at t: Double, withOpenHalfWave open: Bool) -> ShakeExplanation.Began {
        let (shortest, longest) = chainIntervals(withOpenHalfWave: open)
        let beginning = beginningChain(withOpenHalfWave: open)
        return ShakeExplanation.Began(
            time: t, chainStartTime: beginning.start, chainHalfWaves: beginning.halfWaves, linearity: linearity(),
            intervalRatio: shortest.isFinite && shortest > 0 ? longest / shortest : 1,
            longestIntervalSeconds: longest, ongoingMotion: inOngoingMotion,
            strongHalfWaves: strongHalfWaves(withOpenHalfWave: open))
    }

    /// The first of step 4's rules (after the chain's length) that refuses a shake now, with what
    /// it measured; nil when a shake may begin. In the order of the original single test, so the
    /// decision is the same whether or not anyone asks why.
    @inline(__always) private mutating func beganRefusal(
        at t: Double, withOpenHalfWave open: Bool
    ) -> ShakeExplanation.Reason? {
        if exhausted { return .pauseNeeded }
        if t < refractoryUntil { return .refractory(until: refractoryUntil) }
        if !rhythmIsSteady(withOpenHalfWave: open) {
            chainRhythmRefused = true
            let (shortest, longest) = chainIntervals(withOpenHalfWave: open)
            return .unsteadyRhythm(ratio: longest / shortest, limit: configuration.maximumIntervalRatio)
        }
        if !recentStrokesAreQuick(withOpenHalfWave: open) {
            let limit = configuration.maximumPeakIntervalSeconds
            let openGap = peakTime - previousTime
            return .slowStroke(intervalSeconds: open && openGap > limit ? openGap : chainSlowInterval, limit: limit)
        }
        let straightness = linearity()
        if straightness > configuration.maximumLinearity {
            return .notStraight(linearity: straightness, limit: configuration.maximumLinearity)
        }
        if inOngoingMotion {
            let strong = strongHalfWaves(withOpenHalfWave: open)
            if strong < strongNeeded { return .weakDuringOngoingMotion(strongHalfWaves: strong, needed: strongNeeded) }
        }
        if chainCount == configuration.minimumHalfWaves && straightness > configuration.shortChainLinearity {
            let longest = chainIntervals(withOpenHalfWave: open).longest
            if longest > configuration.shortChainPeakIntervalSeconds {
                return .shortChainNeedsAnotherHalfWave(longestIntervalSeconds: longest, linearity: straightness)
            }
        }
        return nil
    }

    /// The longest of the chain's last `recentIntervalCount` intervals between linked peaks is at
    /// most `maximumIntervalRatio` times the shortest, counting the open half-wave's interval to
    /// its peak so far when it has linked.
    @inline(__always) private func rhythmIsSteady(withOpenHalfWave: Bool) -> Bool {
        let (shortest, longest) = chainIntervals(withOpenHalfWave: withOpenHalfWave)
        return longest <= configuration.maximumIntervalRatio * shortest
    }

    /// The shortest and longest of the chain's last `recentIntervalCount` intervals between
    /// linked peaks, s, and the open half-wave's interval to its peak so far when it has linked
    /// (∞ and 0 while there is none).
    @inline(__always) private func chainIntervals(withOpenHalfWave: Bool) -> (shortest: Double, longest: Double) {
        var shortest = Double.infinity, longest = 0.0
        for i in 0..<recentIntervalsStored {
            shortest = min(shortest, recentIntervals[i])
            longest = max(longest, recentIntervals[i])
        }
        if withOpenHalfWave {
            let gap = peakTime - previousTime
            shortest = min(shortest, gap)
            longest = max(longest, gap)
        }
        return (shortest, longest)
    }

    /// The chain's last `minimumHalfWaves` half-waves peaked at most `maximumPeakIntervalSeconds`
    /// apart one after another (the open one, when it has linked, at its peak so far).
    @inline(__always) private func recentStrokesAreQuick(withOpenHalfWave: Bool) -> Bool {
        var quick = chainQuickLinks
        if withOpenHalfWave {
            quick = peakTime - previousTime <= configuration.maximumPeakIntervalSeconds ? quick + 1 : 0
        }
        return quick + 1 >= configuration.minimumHalfWaves  // not `− 1`: Int.min must not trap
    }

    /// Of the chain's last `minimumHalfWaves` linked half-waves (the open one included when it
    /// has linked), how many peaked at `ongoingMotionPeakAcceleration` or more.
    @inline(__always) private func strongHalfWaves(withOpenHalfWave: Bool) -> Int {
        var bits = chainStrong
        if withOpenHalfWave { bits = bits << 1 | (peakSquared >= ongoingPeakSquared ? 1 : 0) }
        let n = max(0, min(configuration.minimumHalfWaves, 64))  // UInt64(n) traps below 0
        let mask: UInt64 = n >= 64 ? ~0 : (1 << UInt64(n)) - 1
        return (bits & mask).nonzeroBitCount
    }

    private mutating func endShake(refractoryFrom t: Double) {
        shaking = false
        exhausted = false
        refractoryUntil = t + configuration.refractorySeconds
        chainCount = 0
        linkable = false
    }

    /// `√(λ₂/λ₁)` of the weighted covariance of linear acceleration, in [0, 1]: the second
    /// moments about their mean, `M − μμᵀ/w` (μ the weighted sum, w the total weight, so this is
    /// w times the covariance, and the ratio is the covariance's). Centred, a shake right after a
    /// quick turn reads as straight: the gravity estimate lags the turn, which adds a slowly
    /// fading constant to `l` along another line than the shake's.
    @inline(__always) private func linearity() -> Double {
        guard meanWeight > 0 else { return 1 }
        let w = meanWeight
        return SecondMoment(
            xx: mxx - meanX * meanX / w, yy: myy - meanY * meanY / w, zz: mzz - meanZ * meanZ / w,
            xy: mxy - meanX * meanY / w, xz: mxz - meanX * meanZ / w, yz: myz - meanY * meanZ / w
        ).linearity
    }

    // `mutating` although it changes nothing: a non-mutating call on the detector (over 16 KB with
    // the moving average's buffer) copies it first; small helpers are inlined instead.
    @inline(never)
    private mutating func makeEvent(_ phase: ShakeEvent.Phase, at time: Double,
                           reason: ShakeEvent.CancellationReason? = nil) -> ShakeEvent {
        let axis: ShakeAxis
        if shakeEnergyX >= shakeEnergyY && shakeEnergyX >= shakeEnergyZ {
            axis = .x
        } else if shakeEnergyY >= shakeEnergyZ {
            axis = .y
        } else {
            axis = .z
        }
        return ShakeEvent(
            phase: phase, time: time, startTime: shakeStart, endTime: lastActivity,
            peakAcceleration: shakePeakSquared.squareRoot(), reversals: shakeReversals,
            dominantAxis: axis, cancellationReason: reason)
    }
}
