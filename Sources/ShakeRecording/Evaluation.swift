import ShakeDetection

/// Scores detections against labelled shakes, the way `shake evaluate` reports them.
///
/// A labelled shake is a run of samples with `shake = 1`, from its first sample's time to its
/// last's. A detection (a `began` event, at its emission time) matches a run when it lies within
/// `[run start − tolerance, run end + tolerance]` (tolerance 0.5 s; the times are compared in
/// whole microseconds, so that a detection written exactly 0.5 s after a run's end, 1.97 and
/// 2.47, is not lost to binary rounding, 1.97 + 0.5 being 2.4699999999999998, and one 1 µs
/// past the edge is outside, whatever the times' size). Each run matches at most one
/// detection: the first one in its window; further detections in a matched window are
/// duplicates (one shake fired twice). A detection outside every window is a false shake.
/// When windows overlap, a detection goes to the earliest run that is still unmatched.
///
/// Negative time (the denominator of false shakes per hour) is the sum of the intervals between
/// consecutive samples that start at a sample labelled `shake = 0`.
public struct ShakeScorer: Sendable {
    /// Seconds a detection may precede a run's start or follow its end and still match it.
    public static let matchToleranceSeconds = 0.5

    /// Whether a detection at `time` lies in the window of the run from `start` to `end`: within
    /// `matchToleranceSeconds` of it, edges included, compared in whole microseconds (a slack
    /// added to the seconds instead took some times 1 µs outside as inside, by rounding).
    static func isInWindow(_ time: Double, start: Double, end: Double) -> Bool {
        let tolerance = (matchToleranceSeconds * 1e6).rounded()
        let (t, first, last) = ((time * 1e6).rounded(), (start * 1e6).rounded(), (end * 1e6).rounded())
        // Beyond 1.8e302 s the microseconds overflow: compared in seconds there.
        guard t.isFinite, first.isFinite, last.isFinite else {
            return time >= start - matchToleranceSeconds && time <= end + matchToleranceSeconds
        }
        return t >= first - tolerance && t <= last + tolerance
    }

    private var runs: [(start: Double, end: Double)] = []
    private var runStart: Double?
    private var lastTime: Double?
    private var lastLabel = false
    private var negativeSeconds = 0.0
    private var detections: [Double] = []

    public init() {}

    /// Feeds one labelled sample, in time order.
    public mutating func addSample(time: Double, isShake: Bool) {
        if let lastTime {
            if !lastLabel { negativeSeconds += time - lastTime }
            if lastLabel && !isShake, let start = runStart {
                runs.append((start, lastTime))
                runStart = nil
            }
        }
        if isShake && runStart == nil { runStart = time }
        lastTime = time
        lastLabel = isShake
    }

    /// Records a detection: the emission time of a `began` event, seconds.
    public mutating func addDetection(at time: Double) {
        detections.append(time)
    }

    /// Matches detections to runs and returns the counts.
    public func finish() -> EvaluationCounts {
        var none: EvaluationDetails? = nil
        return match(listing: &none)
    }

    /// The counts, and which labelled shakes were missed and when the false shakes and
    /// duplicates fired (for `shake evaluate --list`).
    public func outcome() -> (counts: EvaluationCounts, details: EvaluationDetails) {
        var details: EvaluationDetails? = EvaluationDetails()
        let counts = match(listing: &details)
        return (counts, details ?? EvaluationDetails())
    }

    /// Matches detections to runs; adds to `listing` unless it is nil.
    private func match(listing: inout EvaluationDetails?) -> EvaluationCounts {
        var runs = runs
        if let start = runStart, let lastTime { runs.append((start, lastTime)) }
        var matched = [Bool](repeating: false, count: runs.count)
        var counts = EvaluationCounts()
        counts.shakes = runs.count
        counts.negativeSeconds = negativeSeconds
        for time in detections.sorted() {
            var inMatchedWindow = false
            var hit: Int?
            for (index, run) in runs.enumerated() where Self.isInWindow(time, start: run.start, end: run.end) {
                if matched[index] {
                    inMatchedWindow = true
                } else {
                    hit = index
                    break
                }
            }
            if let hit {
                matched[hit] = true
                counts.detected += 1
                counts.latencies.append(time - runs[hit].start)
            } else if inMatchedWindow {
                counts.duplicates += 1
                listing?.duplicateTimes.append(time)
            } else {
                counts.falseShakes += 1
                listing?.falseShakeTimes.append(time)
            }
        }
        if listing != nil {
            for (index, run) in runs.enumerated() where !matched[index] {
                listing?.missed.append(LabeledShake(start: run.start, end: run.end))
            }
        }
        return counts
    }
}

/// What lies behind the counts of one recording: the labelled shakes no detection matched and
/// the times of the detections that were false shakes or duplicates, seconds, in time order.
public struct EvaluationDetails: Sendable, Hashable {
    /// Missed labelled shakes.
    public var missed: [LabeledShake] = []
    /// Emission times of the `began` events outside every labelled shake's window.
    public var falseShakeTimes: [Double] = []
    /// Emission times of the `began` events inside an already matched shake's window.
    public var duplicateTimes: [Double] = []

    public init() {}
}

/// A run of `shake = 1` samples: the times of its first and last sample, seconds.
public struct LabeledShake: Sendable, Hashable {
    public var start: Double
    public var end: Double

    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }
}

/// Raw counts of one or more evaluated recordings; add them up with `+=`.
public struct EvaluationCounts: Sendable, Hashable {
    /// Labelled shakes (runs of `shake = 1`).
    public var shakes = 0
    /// Labelled shakes matched by a detection.
    public var detected = 0
    /// Detections inside an already matched shake's window.
    public var duplicates = 0
    /// Detections outside every labelled shake's window.
    public var falseShakes = 0
    /// Time labelled `shake = 0`, seconds.
    public var negativeSeconds = 0.0
    /// `began − run start` of each matched shake, seconds.
    public var latencies: [Double] = []

    public init() {}

    public static func += (lhs: inout EvaluationCounts, rhs: EvaluationCounts) {
        lhs.shakes += rhs.shakes
        lhs.detected += rhs.detected
        lhs.duplicates += rhs.duplicates
        lhs.falseShakes += rhs.falseShakes
        lhs.negativeSeconds += rhs.negativeSeconds
        lhs.latencies += rhs.latencies
    }

    /// The figures `shake evaluate` reports.
    public var summary: EvaluationSummary { EvaluationSummary(self) }
}

/// The figures `shake evaluate` reports for a file or a total. Ratios are nil where undefined
/// (recall without labelled shakes, precision without detections).
public struct EvaluationSummary: Sendable, Hashable, Codable {
    public var shakes: Int
    public var detected: Int
    /// detected / shakes.
    public var recall: Double?
    public var duplicates: Int
    public var falseShakes: Int
    /// Time labelled `shake = 0`, hours.
    public var negativeHours: Double
    /// falseShakes / negativeHours.
    public var falsePerHour: Double?
    /// detected / (detected + duplicates + falseShakes).
    public var precision: Double?
    /// Harmonic mean of precision and recall.
    public var f1: Double?
    /// Median detection latency (`began − run start`), seconds.
    public var latencyMedianSeconds: Double?
    /// 95th percentile of detection latency (linear interpolation between ranks: rank (n − 1) ·
    /// 0.95, counted from 0, as numpy's default), seconds.
    public var latencyP95Seconds: Double?

    enum CodingKeys: String, CodingKey {
        case shakes, detected, recall, duplicates
        case falseShakes = "false_shakes"
        case negativeHours = "negative_hours"
        case falsePerHour = "false_per_hour"
        case precision, f1
        case latencyMedianSeconds = "latency_median_s"
        case latencyP95Seconds = "latency_p95_s"
    }

    /// Encodes every key, undefined ratios as `null`, so the key set is always the same. Numbers
    /// are rounded to what they mean (`RoundedNumber`): ratios to 4 decimals, hours to 6, false
    /// shakes per hour to 3, latencies to the microsecond.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(shakes, forKey: .shakes)
        try container.encode(detected, forKey: .detected)
        try container.encode(recall.map(RoundedNumber.ratio), forKey: .recall)
        try container.encode(duplicates, forKey: .duplicates)
        try container.encode(falseShakes, forKey: .falseShakes)
        try container.encode(RoundedNumber.hours(negativeHours), forKey: .negativeHours)
        try container.encode(falsePerHour.map(RoundedNumber.perHour), forKey: .falsePerHour)
        try container.encode(precision.map(RoundedNumber.ratio), forKey: .precision)
        try container.encode(f1.map(RoundedNumber.ratio), forKey: .f1)
        try container.encode(latencyMedianSeconds.map(RoundedNumber.seconds), forKey: .latencyMedianSeconds)
        try container.encode(latencyP95Seconds.map(RoundedNumber.seconds), forKey: .latencyP95Seconds)
    }

    public init(_ counts: EvaluationCounts) {
        shakes = counts.shakes
        detected = counts.detected
        duplicates = counts.duplicates
        falseShakes = counts.falseShakes
        negativeHours = counts.negativeSeconds / 3600
        recall = shakes > 0 ? Double(detected) / Double(shakes) : nil
        falsePerHour = negativeHours > 0 ? Double(falseShakes) / negativeHours : nil
        let detections = detected + duplicates + falseShakes
        precision = detections > 0 ? Double(detected) / Double(detections) : nil
        if let recall, let precision {
            f1 = recall + precision > 0 ? 2 * recall * precision / (recall + precision) : 0
        } else {
            f1 = nil
        }
        let sorted = counts.latencies.sorted()
        latencyMedianSeconds = Self.percentile(sorted, 0.5)
        latencyP95Seconds = Self.percentile(sorted, 0.95)
    }

    /// Linear interpolation between closest ranks (numpy's default), nil when empty.
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let position = fraction * Double(sorted.count - 1)
        let lower = Int(position)
        let upper = min(lower + 1, sorted.count - 1)
        let weight = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * weight
    }
}
