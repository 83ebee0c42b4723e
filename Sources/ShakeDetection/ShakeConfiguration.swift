/// Every tunable parameter of `ShakeDetector`, in seconds, hertz and m/s², never in samples,
/// so that one configuration behaves the same from 25 Hz to 1.6 kHz and under timing jitter.
///
/// The detector (see `ShakeDetector` for the full rule) removes gravity with a one-pole low-pass
/// estimate, splits the remaining *linear* acceleration into half-waves with a hysteresis
/// threshold, links half-waves that point the opposite way within a time window, and recognises
/// a shake when enough linked half-waves have been seen and the recent motion lies close to a
/// line.
///
/// Presets: `light` (gentle shakes count), `medium` (the default) and `hard` (only vigorous shakes).
/// `validate()` names the first bad field; `ShakeDetector` assumes a valid configuration.
public struct ShakeConfiguration: Sendable, Hashable {
    // MARK: Filters

    /// Time constant of the gravity estimate, seconds. Default 0.4 s.
    ///
    /// Gravity is a one-pole low-pass of the raw samples:
    /// `g += α · (a − g)` with `α = 1 − exp(−Δt / τ)`, Δt the actual sample interval.
    /// Linear acceleration is what is left, `a − g`: over each interval, its mean
    /// `β · (a − g_before)` with `β = α · τ / Δt` (see `ShakeDetector`, step 1), then smoothed.
    /// At most `longestTimeConstantSeconds` (an hour).
    public var gravityTimeConstantSeconds: Double

    /// The longest `gravityTimeConstantSeconds` and `linearityTimeConstantSeconds`, s: an hour.
    /// A gravity estimate slower than that follows no turn of the device; and far beyond it (from
    /// about 6·10¹² s at 1.6 kHz, 10¹⁴ s at 100 Hz) `Δt / τ` vanishes next to 1 in a `Double`,
    /// `α` rounds to 0, and the detector sees no motion at all (with the linearity's time
    /// constant, every chain reads as bent) without an error: validation refuses such values.
    public static let longestTimeConstantSeconds = 3600.0

    /// Length of the moving average applied to linear acceleration, seconds. Default 0.04 s.
    ///
    /// Time-weighted: each sample counts for the interval since the one before it, as a sensor's
    /// output is its average over its sample period. 0.04 s is one sample period of the slowest
    /// supported rate (25 Hz), so every rate sees the motion as a 25 Hz sensor does: a narrow
    /// peak that a 25 Hz sensor averages down is averaged down at 1.6 kHz too, and the same
    /// shakes begin at the same times. It also removes sensor noise. Zero disables smoothing.
    /// At most `maximumSmoothingWindowSeconds` (0.16 s): the average holds the last 256 sample
    /// intervals without allocating, 0.16 s at 1.6 kHz, and a longer window would be cut short
    /// at high rates (validation refuses one).
    public var smoothingWindowSeconds: Double

    /// The longest `smoothingWindowSeconds` that every supported rate (up to 1.6 kHz) averages
    /// in full: 256 sample intervals at 1.6 kHz, 0.16 s.
    public static let maximumSmoothingWindowSeconds = 0.16

    // MARK: Half-waves

    /// A half-wave starts when the magnitude of linear acceleration rises above this, m/s².
    /// Default 10 m/s² (about 1 g). While a shake is under way (from `began` to its end), from
    /// halfway between this and `releaseAcceleration` (7.5 m/s² by default): a gentle shake whose
    /// strokes dip under the onset for a moment goes on, and is not ended and begun again.
    public var onsetAcceleration: Double

    /// A half-wave ends when the magnitude of linear acceleration falls below this, m/s², or when
    /// the acceleration turns more than 90° away from the half-wave's peak direction.
    /// Must be below `onsetAcceleration` (hysteresis). Default 5 m/s².
    public var releaseAcceleration: Double

    /// A raw axis reading at or beyond ±this is treated as saturated, m/s². Default 19 m/s²
    /// (just under the ±2 g range of small sensors).
    ///
    /// A saturated sample starts a half-wave as soon as linear acceleration exceeds
    /// `releaseAcceleration`, because the sensor hides how strong it really was: on a clipping
    /// sensor the half-waves that push against gravity are cut short and would otherwise be lost.
    /// Set it to `.infinity` to disable.
    public var saturationAcceleration: Double

    // MARK: Reversals

    /// Two successive half-waves form a reversal when the cosine of the angle between their peak
    /// vectors is at most this. Default −0.4 (at least about 114° apart), which admits shakes
    /// whose path bends or rotates a little but not circles (90° steps).
    public var reversalCosine: Double

    /// Shortest time between the peaks of two linked half-waves, seconds. Default 0.04 s
    /// (a 12.5 Hz shake). Faster "reversals" are sensor ringing (a heel strike, a tap), not a hand.
    ///
    /// 0.04 s is one sample interval at 25 Hz, the slowest supported rate: at that rate the peaks
    /// of an 8 Hz shake (0.0625 s apart) can only be placed to within a few hundredths of a second
    /// even after interpolation, and a larger minimum splits such shakes.
    public var minimumReversalIntervalSeconds: Double

    /// Longest time between the peaks of two linked half-waves, seconds, the later peak taken as
    /// it is when the link is recognised (usually soon after its half-wave starts, before the
    /// peak). Default 0.35 s: the peaks of a 2 Hz shake are 0.25 s apart, and a 1.2 Hz shake of
    /// 1.5 g still links. Longer links joined mostly steps and separate gestures: on the dev
    /// corpus, 3 of 286 links within labelled shakes were over 0.3 s (the longest 0.35 s), and
    /// 133 of 692 outside them. (0.5 s until the rhythm rule measured final peaks; see README.)
    /// The peaks as finally placed are held to `maximumPeakIntervalSeconds` before a shake begins.
    public var maximumReversalIntervalSeconds: Double

    // MARK: Recognition

    /// Linked half-waves needed before `began` fires. Default 4 (three reversals).
    public var minimumHalfWaves: Int

    /// Largest accepted ratio `√(λ₂/λ₁)` of the two largest eigenvalues of the recent covariance
    /// matrix of linear acceleration (weighted as `linearityTimeConstantSeconds` says); 0 is a
    /// perfect line, 1 a circle. Default 0.5.
    /// Rejects circles, walking gaits and other motion that is not back-and-forth.
    public var maximumLinearity: Double

    /// Largest accepted ratio between the longest and the shortest peak-to-peak interval of the
    /// linked half-waves that make a shake begin (dimensionless, ≥ 1), over the chain's last 8
    /// intervals (so one irregular interval, a dropout say, holds a long chain back only until
    /// 8 steady ones have followed it). Default 4.
    ///
    /// A hand shakes with a steady rhythm; a heel strike felt in a pocket rings fast (0.06 s) and
    /// then pauses until the next step (0.2–0.4 s), which this rejects even when it is linear.
    public var maximumIntervalRatio: Double

    /// Longest accepted time between the peaks, as finally placed, of consecutive half-waves among
    /// the last `minimumHalfWaves` of the chain that makes a shake begin, seconds. Default 0.45 s
    /// (strokes of 1.1 Hz; a 2 Hz shake's peaks are 0.25 s apart, dev's slowest shake's 0.41 s);
    /// a large value (1e6) turns the test off.
    ///
    /// A link is recognised as soon as a half-wave is clearly opposite the last one, with its
    /// peak so far within `maximumReversalIntervalSeconds`; the half-wave of a slow move may go
    /// on to peak much later. Such a slow stroke keeps the chain from making a shake begin until
    /// `minimumHalfWaves − 1` quick links have followed it (the open half-wave counts with its
    /// peak so far), so a shake after a slow wind-up is still found. On the dev corpus's Wiimote
    /// sessions with every gesture turned into another orientation and made 15 and 30 % more
    /// vigorous (`Scripts/dev-check`'s `vigorous` row), 6 of the 11 false shakes had a slow
    /// stroke (peaks 0.51 to 0.62 s apart); of dev's shakes made at 0.7 to 1.4 times their
    /// cadence, one is lost, at 0.7. 0.5 s until other people's micro:bit waves and claps
    /// (`Fixtures/others`), turned and made 15 and 30 % more vigorous, fired 12 false shakes with
    /// a stroke 0.47 to 0.54 s after the one before; at 0.45 s those 12 do not, and every row of
    /// dev and its variants is unchanged except dev's slowest shake made 10 % slower and 30 to
    /// 40 % gentler (peaks 0.45 s apart), lost in two of 1080 variants.
    public var maximumPeakIntervalSeconds: Double

    /// Time constant of the exponentially weighted covariance matrix used for
    /// `maximumLinearity`, seconds. Default 0.5 s. At most `longestTimeConstantSeconds` (an hour).
    public var linearityTimeConstantSeconds: Double

    /// Longest time between consecutive peaks, seconds, of a chain of exactly `minimumHalfWaves`
    /// linked half-waves that makes a shake begin without being straight (the open half-wave's
    /// peak taken as it is so far). Such a chain begins a shake only when its peaks are at most
    /// this far apart or its linearity is at most `shortChainLinearity`; otherwise it needs one
    /// half-wave more, and is then judged by the other limits alone. Default 0.2 s (strokes of
    /// 2.5 Hz); a large value (1e6) turns the rule off.
    ///
    /// Gestures that are not shakes (circles, a move with its rebound, a push and pull) make three
    /// or four strong half-waves and stop; a hand that shakes goes on. Other people's Wiimote
    /// gestures (`Scripts/wiimote-extra`, clips in neither dev nor eval) turned into ten random
    /// orientations fired 146 false shakes, 138 of them on chains that ended at four half-waves,
    /// while 251 of the 269 shakes found went on to five or more; the four-half-wave shakes were
    /// quick or straight. With 0.2 s and linearity 0.3 those gestures fire 69 false shakes and
    /// every shake of dev and its variants in `Scripts/dev-check` is still found (a shake waiting
    /// for its fifth half-wave begins about one stroke later); of dev's shakes made 0.6 to 1.3
    /// times as strong at 0.7 to 1.4 times their cadence, 13 of 1080 are lost, most of them made
    /// slower. docs/results-history.md has the values tried.
    public var shortChainPeakIntervalSeconds: Double

    /// The linearity (see `maximumLinearity`) at or under which a chain of exactly
    /// `minimumHalfWaves` half-waves makes a shake begin even when its strokes are slower than
    /// `shortChainPeakIntervalSeconds`. Default 0.3; 1 (or `maximumLinearity` or more) turns the
    /// rule off.
    public var shortChainLinearity: Double

    // MARK: Ongoing motion

    /// How long the device must have moved without a pause for a shake to count as starting
    /// during ongoing motion (walking, running, riding), seconds. Default 4 s; 0 disables the rule.
    ///
    /// The detector judges motion in consecutive half-second blocks (so this must be a whole
    /// number of half-seconds, at most 30 s; `validate()` rejects 1.3): a block is a *pause*
    /// when the standard deviation of the raw magnitude `|a|` within it is at most
    /// `pauseDeviationAcceleration`.
    /// When none of the blocks completed in the last `ongoingMotionSeconds` is a pause, a shake
    /// may begin only once its half-waves reach `ongoingMotionPeakAcceleration` (see
    /// `ongoingMotionStrongHalfWaves`). Blocks before the stream started (or before a gap) are
    /// not pauses: a stream that starts in the middle of a walk is in ongoing motion once its
    /// first block has ended, unless a pause is seen. A stream whose first `startPauseSeconds`
    /// are a pause (by the same measure) starts with one: a shake begun within the stream's
    /// first half-second then needs no more than any other. A hand that picks up
    /// a device and shakes it holds it nearly still first (every shake in the dev corpus has a
    /// block under 0.2 m/s² in the 4 s before it); a walk with the device in a pocket, bag or
    /// armband does not pause (in the dev corpus, only while standing at its start and end), and
    /// a heel strike felt in a pocket can ring like a short shake.
    public var ongoingMotionSeconds: Double

    /// A half-second block of samples is a pause when the standard deviation of `|a|` (the raw
    /// acceleration's magnitude, gravity included, so turning the device does not count) within
    /// it is at most this, m/s². Default 0.5 m/s².
    ///
    /// A hand holds a device far stiller than this before it shakes it (every shake in the dev
    /// corpus has a block under 0.2 m/s² in the 4 s before it). A walk with the device in a hand
    /// can vary less than 1 m/s² in the half-second between two steps: on other people's everyday
    /// motion (`Scripts/dev-check`'s `everyday` row, 5.6 h), 1 m/s² (the default until stop 32)
    /// let a phone carried on a walk fire, and the row's false shakes went from 16 to 10 at
    /// 0.5 m/s² (medium), with no shake lost in any row under any preset (and light's one false
    /// shake on dev's walks made more vigorous gone). With medium, 0.3 m/s² fires 7 there and
    /// loses nothing either, but at 0.2 m/s² 20 of the 720 shakes of `others-vig` (other people's
    /// recordings, turned and made more vigorous) are lost: 0.5 keeps a margin.
    public var pauseDeviationAcceleration: Double

    /// Peak linear acceleration that the half-waves of a shake (`ongoingMotionStrongHalfWaves` of
    /// its last `minimumHalfWaves`) need for it to begin during ongoing motion (see
    /// `ongoingMotionSeconds`), m/s². Default 25 m/s² (about 2.5 g): a vigorous shake while
    /// walking still counts, a heel strike's ring does not. At least `onsetAcceleration`;
    /// `.infinity` (or, in JSON, any value beyond the sensor's range such as 1e6) means no shake
    /// begins during ongoing motion.
    ///
    /// A sensor whose range is under this shows it only over two axes at once or against
    /// gravity: a ±2 g sensor clips every axis at 19.6 m/s², so during a walk a shake whose
    /// strokes lie along one axis across gravity is never found on it, and others often not (a
    /// shake after a pause still is). Set such a sensor to ±4 g or more. A half-wave that reached the sensor's
    /// range is not counted as strong: a ±2 g phone clips on a run's heel strikes too (other
    /// people's everyday motion fired 60 false shakes instead of 13 when it was).
    public var ongoingMotionPeakAcceleration: Double

    /// How many of the last `minimumHalfWaves` linked half-waves must peak at
    /// `ongoingMotionPeakAcceleration` or more for a shake to begin during ongoing motion
    /// (see `ongoingMotionSeconds`). Default 2, from 1 to `minimumHalfWaves`.
    ///
    /// A vigorous shake is vigorous on more than one stroke; a heel strike felt in a bag or a
    /// pocket is one jolt followed by a weaker ring. On dev's walks made up to twice as vigorous
    /// (`Scripts/dev-check`), 1 fires 5 false shakes, 2 none (the rule before this setting, one
    /// peak anywhere in the chain, fired 8).
    public var ongoingMotionStrongHalfWaves: Int

    /// Length of the blocks in which ongoing motion is judged, seconds.
    public static let motionBlockSeconds = 0.5

    /// A stream's (or a restart's after a gap) first this many seconds are also judged on their
    /// own, as a block is, when they end: if still, the stream has started with a pause, seconds.
    /// Without it, a shake begun within the first block leaves that block moving and no pause to
    /// see, and the ongoing-motion rule held it to 25 m/s² peaks, which a ±2 g sensor cannot
    /// give: `Scripts/dev-check`'s `joined-shakes` (dev's sessions as streams started 0.25, 0.5
    /// and 1 s before each shake) found 88 of 108 with medium, now 108, with no other row of its
    /// table changed (0.15 s gives the same; 0.25 s, as long as the row's shortest lead, 100).
    /// 0.2 s is five samples at 25 Hz, the slowest rate the detector is made for.
    public static let startPauseSeconds = 0.2

    /// Largest accepted `ongoingMotionSeconds`, seconds (60 blocks; the detector keeps a 64-block
    /// history).
    public static let longestOngoingMotionSeconds = 30.0

    /// How far, in blocks, `ongoingMotionSeconds` may be from a whole number of blocks (for
    /// rounding in values such as 0.1 · 45) and still count as that number.
    static let motionBlockTolerance = 1e-9

    /// `ongoingMotionSeconds` as a number of whole blocks (0 when the rule is off): exact for the
    /// values `validate()` accepts (whole half-seconds, within `motionBlockTolerance`); any
    /// other is rounded up.
    var ongoingMotionBlocks: Int {
        let blocks = (ongoingMotionSeconds / Self.motionBlockSeconds - Self.motionBlockTolerance).rounded(.up)
        return blocks > 0 ? Int(min(blocks, 64)) : 0
    }

    // MARK: Ending, debounce and limits

    /// A shake ends (`ended`) when no half-wave has been active for this long, seconds. Default 0.4 s.
    /// The quiet must be seen in the samples: of an interval between two samples (a dropout
    /// within `maximumGapSeconds`) only half this (and at least 0.1 s) counts, as the hand may have moved meanwhile,
    /// and as much in all of dropouts in a row (intervals over 0.1 s and over 2.5 times the usual
    /// one, with one to three samples kept between them); none once a sample after the dropout
    /// passes `releaseAcceleration` before the shake has ended (a stroke may have been lost in it).
    public var quietSeconds: Double

    /// After `ended`, no new shake may begin for this long, seconds. Default 0.3 s. The same
    /// holds after a shake cancelled as too long, counted from the end of the pause
    /// (`quietSeconds`) that must follow it.
    public var refractorySeconds: Double

    /// A gap between two samples longer than this cancels a shake in progress (reason `.gap`) and
    /// restarts the filters, seconds. Default 0.5 s. A sample earlier than the latest by up to
    /// this is ignored; further back, the detector restarts (reason `.timeWentBackwards`).
    public var maximumGapSeconds: Double

    /// A shake that has not ended this long after its first half-wave began is cancelled with
    /// reason `.tooLong`; the motion must then stop for `quietSeconds` before a new shake can
    /// begin, seconds. Default 10 s.
    ///
    /// The time counts until `ended`, which comes `quietSeconds` after the last half-wave: with
    /// the defaults, shaking (first half-wave to last) of more than about 9.6 s is cancelled.
    /// What a dropout after the last half-wave delays `ended` by (see `quietSeconds`) does not
    /// count.
    /// `validate()` requires more than `quietSeconds + (minimumHalfWaves − 1) ×
    /// minimumReversalIntervalSeconds`, under which no shake could ever end.
    public var maximumShakeSeconds: Double

    /// Creates a configuration; every argument defaults to the `medium` preset's value.
    public init(
        gravityTimeConstantSeconds: Double = 0.4,
        smoothingWindowSeconds: Double = 0.04,
        onsetAcceleration: Double = 10,
        releaseAcceleration: Double = 5,
        saturationAcceleration: Double = 19,
        reversalCosine: Double = -0.4,
        minimumReversalIntervalSeconds: Double = 0.04,
        maximumReversalIntervalSeconds: Double = 0.35,
        minimumHalfWaves: Int = 4,
        maximumLinearity: Double = 0.5,
        maximumIntervalRatio: Double = 4,
        maximumPeakIntervalSeconds: Double = 0.45,
        linearityTimeConstantSeconds: Double = 0.5,
        shortChainPeakIntervalSeconds: Double = 0.2,
        shortChainLinearity: Double = 0.3,
        ongoingMotionSeconds: Double = 4,
        pauseDeviationAcceleration: Double = 0.5,
        ongoingMotionPeakAcceleration: Double = 25,
        ongoingMotionStrongHalfWaves: Int = 2,
        quietSeconds: Double = 0.4,
        refractorySeconds: Double = 0.3,
        maximumGapSeconds: Double = 0.5,
        maximumShakeSeconds: Double = 10
    ) {
        self.gravityTimeConstantSeconds = gravityTimeConstantSeconds
        self.smoothingWindowSeconds = smoothingWindowSeconds
        self.onsetAcceleration = onsetAcceleration
        self.releaseAcceleration = releaseAcceleration
        self.saturationAcceleration = saturationAcceleration
        self.reversalCosine = reversalCosine
        self.minimumReversalIntervalSeconds = minimumReversalIntervalSeconds
        self.maximumReversalIntervalSeconds = maximumReversalIntervalSeconds
        self.minimumHalfWaves = minimumHalfWaves
        self.maximumLinearity = maximumLinearity
        self.maximumIntervalRatio = maximumIntervalRatio
        self.maximumPeakIntervalSeconds = maximumPeakIntervalSeconds
        self.linearityTimeConstantSeconds = linearityTimeConstantSeconds
        self.shortChainPeakIntervalSeconds = shortChainPeakIntervalSeconds
        self.shortChainLinearity = shortChainLinearity
        self.ongoingMotionSeconds = ongoingMotionSeconds
        self.pauseDeviationAcceleration = pauseDeviationAcceleration
        self.ongoingMotionPeakAcceleration = ongoingMotionPeakAcceleration
        self.ongoingMotionStrongHalfWaves = ongoingMotionStrongHalfWaves
        self.quietSeconds = quietSeconds
        self.refractorySeconds = refractorySeconds
        self.maximumGapSeconds = maximumGapSeconds
        self.maximumShakeSeconds = maximumShakeSeconds
    }

    // MARK: Presets

    /// Gentle shakes count: half-waves from 7 m/s² (release 3.5 m/s²), two half-waves of 20 m/s²
    /// during ongoing motion. More false shakes while walking vigorously.
    public static let light = ShakeConfiguration(
        onsetAcceleration: 7, releaseAcceleration: 3.5, ongoingMotionPeakAcceleration: 20)

    /// The default: half-waves from 10 m/s² (about 1 g), release 5 m/s², four linked half-waves
    /// (five unless quick or straight), linearity at most 0.5, two half-waves of 25 m/s² during
    /// ongoing motion. Tuned on the `dev` corpus and other dev-side recordings only.
    public static let medium = ShakeConfiguration()

    /// Only vigorous shakes count: half-waves from 14 m/s², release 7 m/s², two half-waves of
    /// 30 m/s² during ongoing motion.
    public static let hard = ShakeConfiguration(
        onsetAcceleration: 14, releaseAcceleration: 7, ongoingMotionPeakAcceleration: 30)

    /// The default configuration, `medium`.
    public static let `default` = medium

    /// Names accepted by `preset(named:)`, in order of increasing required force.
    public static let presetNames: [String] = ["light", "medium", "hard"]

    /// The preset called `name` ("light", "medium" or "hard", case-sensitive), or nil.
    public static func preset(named name: String) -> ShakeConfiguration? {
        switch name {
        case "light": return .light
        case "medium": return .medium
        case "hard": return .hard
        default: return nil
        }
    }
}
