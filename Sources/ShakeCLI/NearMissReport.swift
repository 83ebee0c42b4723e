import ShakeDetection
import ShakeRecording

/// A near miss as `shake replay --explain` shows it (a row of the text table, or JSON) and the
/// sentences that `replay --explain`, `live --explain` and `evaluate --list` use to say why a
/// chain of half-waves was no shake.
struct NearMissReport: Encodable {
    var start: Double
    var lastPeak: Double
    var peaks: [Double]
    /// Why no shake: the rule that refused the chain (the last time it was refused), or
    /// `too_few_half_waves`.
    var reason: String
    /// The other rules that refused the chain before, in the order first met (codes as `reason`).
    var earlierReasons: [String]
    /// How the chain ended: `not_opposite`, `outside_interval`, `restart`, `shake_ended` or `recording_ended`.
    var ended: String
    /// The same in words, with the values measured and the limits.
    var why: String

    enum CodingKeys: String, CodingKey {
        case peaks = "peaks_m_s2"
        case start = "start_s"
        case lastPeak = "last_peak_s"
        case reason, ended, why
        case earlierReasons = "earlier_reasons"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(RoundedNumber.seconds(start), forKey: .start)
        try container.encode(RoundedNumber.seconds(lastPeak), forKey: .lastPeak)
        try container.encode(peaks.map(RoundedNumber.acceleration), forKey: .peaks)
        try container.encode(reason, forKey: .reason)
        try container.encode(earlierReasons, forKey: .earlierReasons)
        try container.encode(ended, forKey: .ended)
        try container.encode(why, forKey: .why)
    }

    init(_ miss: HalfWaveChain, configuration: ShakeConfiguration) {
        start = miss.startTime
        lastPeak = miss.lastPeakTime
        peaks = miss.halfWaves.map(\.peakAcceleration)
        (reason, ended, why) = Self.why(miss, configuration: configuration)
        earlierReasons = Self.earlierRefusals(miss).map { Self.refused($0, configuration: configuration).code }
    }

    /// The first refusal of each rule that refused `chain`, other than the rule of its last
    /// refusal, in time order.
    static func earlierRefusals(_ chain: HalfWaveChain) -> [ShakeExplanation.Refusal] {
        guard let last = chain.refusal else { return [] }
        return chain.firstRefusals.filter { !$0.reason.isSameRule(as: last.reason) }
    }

    /// Why `chain` did not become a shake: the rule that refused it (last), then each other rule
    /// that refused it earlier (when first met), or too few half-waves (and then how it ended);
    /// its codes and a sentence.
    static func why(
        _ chain: HalfWaveChain, configuration: ShakeConfiguration
    ) -> (reason: String, ended: String, text: String) {
        let ending = Self.ending(chain.end, configuration: configuration)
        if let refusal = chain.refusal {
            let refused = Self.refused(refusal, configuration: configuration)
            let earlier = earlierRefusals(chain).map {
                "; before that, " + Self.refused($0, configuration: configuration).text
            }
            return (refused.code, ending.code, refused.text + earlier.joined())
        }
        let count = chain.halfWaves.count
        let linked = count == 1 ? "1 half-wave, linked to none" : "\(count) linked half-waves"
        return ("too_few_half_waves", ending.code,
                "\(linked) (minimumHalfWaves \(configuration.minimumHalfWaves)); " + ending.text)
    }

    /// For `shake replay --explain`: how far a recording's motion stayed under the onset, when
    /// it did (no half-wave could open); nil when it did not, or without samples.
    static func underTheOnset(_ largest: (magnitude: Double, time: Double)?, configuration: ShakeConfiguration) -> String? {
        guard let largest, largest.magnitude < configuration.onsetAcceleration else { return nil }
        return "no half-wave: " + largestUnderOnset(largest.magnitude, at: largest.time, configuration: configuration)
    }

    /// `largest |l| L m/s² [at T s], under the onset (onsetAcceleration O m/s²)`, with as many
    /// decimals as it takes for a level just under the onset not to read as the onset.
    static func largestUnderOnset(_ largest: Double, at time: Double? = nil, configuration: ShakeConfiguration) -> String {
        let onset = configuration.onsetAcceleration
        let decimals = (1...3).first { fixed(largest, $0) != fixed(onset, $0) } ?? 3
        return "largest |l| \(fixed(largest, decimals)) m/s²\(time.map { " at \(fixed($0, 3)) s" } ?? ""), "
            + "under the onset (onsetAcceleration \(fixed(onset, decimals)) m/s²)"
    }

    /// Why a labelled shake was missed, for `shake evaluate --list`: the chain that came closest
    /// and why it was no shake, or how far the motion stayed under the onset; then the other
    /// chains of two or more linked half-waves in the shake's window (at most
    /// `otherChainsShown`), each with why: a shake's strokes may have formed two chains, the
    /// first broken by a link missed by a little.
    static func missedWhy(_ missed: MissedShakeExplanation, configuration: ShakeConfiguration) -> String {
        let level = "largest |l| \(fixed(missed.largestLinearAcceleration, 1)) m/s²"
        guard let chain = missed.closestChain else {
            if missed.largestLinearAcceleration <= configuration.onsetAcceleration {
                return "no half-wave: " + largestUnderOnset(missed.largestLinearAcceleration, configuration: configuration)
            }
            return "no half-wave peaked within the shake's window (\(level))"
        }
        if let began = chain.shakeBegan {
            let tolerance = ShakeScorer.matchToleranceSeconds
            let window = (missed.shake.start - tolerance)...(missed.shake.end + tolerance)
            guard !window.contains(began) else {
                // Windows of labelled shakes under a second apart overlap: one detection, two runs.
                return "a shake began at \(fixed(began, 3)) s and was counted for an earlier labelled shake"
            }
            return "a shake began at \(fixed(began, 3)) s, outside the window (\(fixed(window.lowerBound, 3)) "
                + "to \(fixed(window.upperBound, 3)) s)"
        }
        var text = "at \(fixed(chain.startTime, 3)) s, " + why(chain, configuration: configuration).text + "; \(level)"
        let others = missed.chains.filter { $0 != chain && $0.isNearMiss }
        for other in others.prefix(otherChainsShown) {
            text += "; also at \(fixed(other.startTime, 3)) s, " + why(other, configuration: configuration).text
        }
        if others.count > otherChainsShown { text += "; and \(others.count - otherChainsShown) more chains" }
        return text
    }

    /// How many chains besides the closest `missedWhy` describes.
    static let otherChainsShown = 3

    /// What the rules measured when `chain` began a shake, each against its limit: how close it
    /// came to being refused ("on 4 linked half-waves from ..."). Nil when it began no shake.
    static func beganWhy(_ chain: HalfWaveChain, configuration: ShakeConfiguration) -> String? {
        guard let began = chain.began else { return nil }
        // A half-wave links as soon as it points the other way, so the last one is often still
        // rising when the shake begins: its peak is not counted among those reached by then.
        let peaks = chain.halfWaves.filter { $0.peakTime <= began.time }.map { fixed($0.peakAcceleration, 1) }
        let rising = max(0, began.chainHalfWaves - peaks.count)
        let risingText = rising == 0 ? "" : ", and \(rising) still rising"
        var text = "on \(began.chainHalfWaves) linked half-waves from "
            + "\(fixed(began.chainStartTime, 3)) s (peaks by then \(peaks.joined(separator: " ")) m/s²\(risingText)); "
            + "linearity \(fixed(began.linearity, 2)) (maximumLinearity \(fixed(configuration.maximumLinearity, 2))), "
            + "peaks \(fixed(began.longestIntervalSeconds / max(began.intervalRatio, 1), 2)) to "
            + "\(fixed(began.longestIntervalSeconds, 2)) s apart, ratio \(fixed(began.intervalRatio, 1)) "
            + "(maximumIntervalRatio \(fixed(configuration.maximumIntervalRatio, 1)))"
        if began.ongoingMotion {
            text += "; in ongoing motion, \(began.strongHalfWaves) of the last \(configuration.minimumHalfWaves) "
                + "half-waves reached \(fixed(configuration.ongoingMotionPeakAcceleration, 1)) m/s² "
                + "(ongoingMotionStrongHalfWaves \(configuration.ongoingMotionStrongHalfWaves))"
        }
        return text
    }

    /// The rule that refused a long enough chain: its code and a sentence.
    static func refused(
        _ refusal: ShakeExplanation.Refusal, configuration: ShakeConfiguration
    ) -> (code: String, text: String) {
        let at = "refused at \(fixed(refusal.time, 3)) s (\(refusal.chainHalfWaves) half-waves): "
        switch refusal.reason {
        case .pauseNeeded:
            // The detector's chain then goes on from the cancelled shake's start: its count is
            // not this near miss's (89 against the 34 listed), so none is given.
            return ("pause_needed", "refused at \(fixed(refusal.time, 3)) s: a shake was cancelled as too long (maximumShakeSeconds "
                    + "\(fixed(configuration.maximumShakeSeconds, 1))); the motion must pause first (quietSeconds "
                    + "\(fixed(configuration.quietSeconds, 2)))")
        case .refractory(let until):
            return ("refractory", at + "too soon after the last shake ended, until \(fixed(until, 3)) s "
                    + "(refractorySeconds \(fixed(configuration.refractorySeconds, 2)))")
        case .unsteadyRhythm(let ratio, let limit):
            return ("unsteady_rhythm", at + "unsteady rhythm: of the chain's last intervals between peaks (8 at most), the longest is "
                    + "\(fixed(ratio, 1)) times the shortest (maximumIntervalRatio \(fixed(limit, 1)))")
        case .slowStroke(let interval, let limit):
            return ("slow_stroke", at + "a slow stroke: \(fixed(interval, 2)) s between peaks "
                    + "(maximumPeakIntervalSeconds \(fixed(limit, 2)))")
        case .notStraight(let linearity, let limit):
            return ("not_straight", at + "not back and forth along a line: linearity \(fixed(linearity, 2)) "
                    + "(maximumLinearity \(fixed(limit, 2)))")
        case .weakDuringOngoingMotion(let strong, let needed):
            return ("weak_during_ongoing_motion", at + "ongoing motion (no pause in the last "
                    + "\(fixed(configuration.ongoingMotionSeconds, 1)) s: ongoingMotionSeconds): \(strong) of the last "
                    + "\(configuration.minimumHalfWaves) half-waves reached "
                    + "\(fixed(configuration.ongoingMotionPeakAcceleration, 1)) m/s² (ongoingMotionPeakAcceleration; "
                    + "ongoingMotionStrongHalfWaves \(needed))")
        case .shortChainNeedsAnotherHalfWave(let longest, let linearity):
            return ("short_chain", at + "only \(configuration.minimumHalfWaves) half-waves, neither quick nor straight: "
                    + "peaks up to \(fixed(longest, 2)) s apart (shortChainPeakIntervalSeconds "
                    + "\(fixed(configuration.shortChainPeakIntervalSeconds, 2))), linearity \(fixed(linearity, 2)) "
                    + "(shortChainLinearity \(fixed(configuration.shortChainLinearity, 2))); it needs one half-wave more")
        }
    }

    /// How a chain ended: its code and a phrase.
    static func ending(_ end: HalfWaveChain.End, configuration: ShakeConfiguration) -> (code: String, text: String) {
        let next: ShakeExplanation.HalfWave
        switch end {
        case .recordingEnded:
            return ("recording_ended", "no further half-wave before the recording ended")
        case .shakeEnded:
            return ("shake_ended", "then the shake in progress ended, and the detector started afresh")
        case .broken(let halfWave):
            next = halfWave
        }
        let what = "the next half-wave (peak \(fixed(next.peakAcceleration, 1)) m/s² at \(fixed(next.peakTime, 3)) s)"
        switch next.link {
        case .notOpposite(let cosine, _):
            return ("not_opposite", "\(what) did not reverse: cosine \(fixed(cosine, 2)) "
                    + "(reversalCosine \(fixed(configuration.reversalCosine, 2)))")
        case .outsideInterval(let interval) where interval > configuration.maximumReversalIntervalSeconds:
            return ("outside_interval", "no half-wave peaked within "
                    + "\(fixed(configuration.maximumReversalIntervalSeconds, 2)) s of the last "
                    + "(maximumReversalIntervalSeconds; the next, \(fixed(next.peakAcceleration, 1)) m/s², peaked "
                    + "\(fixed(interval, 3)) s later)")
        case .outsideInterval(let interval):
            return ("outside_interval", "\(what) peaked only \(fixed(interval, 3)) s after the last "
                    + "(minimumReversalIntervalSeconds \(fixed(configuration.minimumReversalIntervalSeconds, 2)))")
        case .nothingBefore, .linked:
            // `.linked` cannot end a chain; with the events passed to the collector, `.nothingBefore`
            // closes one only after a restart on a gap in the samples.
            return ("restart", "then the samples stopped for longer than "
                    + "\(fixed(configuration.maximumGapSeconds, 2)) s (maximumGapSeconds) and the detector restarted")
        }
    }

    /// The text table's header line, with its line end.
    static let header = "  near misses (chains of linked half-waves that did not become a shake):\n"
        + "   start_s  last_peak_s  peaks_m/s²                why not\n"

    /// One near miss as a row of the text table, with its line end.
    var line: String {
        // At most four peaks: the first three and how many more.
        var text = peaks.prefix(peaks.count > 4 ? 3 : 4).map { fixed($0, 1) }.joined(separator: " ")
        if peaks.count > 4 { text += " +\(peaks.count - 3) more" }
        return fixed(start, 3).leftPadded(10) + " " + fixed(lastPeak, 3).leftPadded(12) + "  "
            + text.padding(toLength: 24) + "  " + why + "\n"
    }
}
