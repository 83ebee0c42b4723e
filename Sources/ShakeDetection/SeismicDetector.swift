/// The shake rule of Square's Seismic library, as a baseline to compare `ShakeDetector` with.
///
/// Written from the rule's description (see DESIGN.md, "What peers do"), not from its source:
/// a sample is *accelerating* when its magnitude `|a| = √(x² + y² + z²)` (gravity included)
/// exceeds the threshold `T`. The detector keeps the samples of the last
/// `windowSeconds` (0.5 s) and fires when
///
/// - the window spans at least `minimumSpanSeconds` (0.25 s) from its oldest to its newest sample, and
/// - at least 3/4 of its `n` samples are accelerating, counted as Seismic does in integers:
///   `accelerating ≥ ⌊n/2⌋ + ⌊n/4⌋` (slightly under 3/4 when `n` is not a multiple of 4);
///
/// then it clears the window, so the next shake needs a fresh 0.25 s of samples.
///
/// There is no gravity removal, no direction reversals and no end-of-shake detection: the rule
/// only says "a shake happened now". To fit the `began` → `ended` contract of `ShakeEvent`,
/// firing emits `began` (time = the firing sample's time, `startTime` = the window's oldest
/// sample), and the next call (the next sample, or `interrupt(at:)`) emits `ended` with the same
/// `startTime` and `endTime` (= the firing time). `peakAcceleration` is the largest
/// `|a| − standardGravity` in the window, m/s²; `reversals` is always 0; the dominant axis is
/// the one with the largest sum of squares in the window.
///
/// Thresholds of Seismic's sensitivities: light 11, medium 13, hard 15 m/s².
///
/// - Complexity: O(1) amortised per sample; memory O(samples in 0.5 s).
public struct SeismicDetector: ShakeDetecting, Sendable {
    /// Seismic's light sensitivity: 11 m/s².
    public static let lightThreshold = 11.0
    /// Seismic's medium (default) sensitivity: 13 m/s².
    public static let mediumThreshold = 13.0
    /// Seismic's hard sensitivity: 15 m/s².
    public static let hardThreshold = 15.0

    /// Magnitude threshold `T`, m/s², gravity included.
    public let thresholdMetersPerSecondSquared: Double
    /// Length of the sliding window, s. Seismic: 0.5 s.
    public let windowSeconds = 0.5
    /// The window must span at least this long before it can fire, s. Seismic: 0.25 s.
    public let minimumSpanSeconds = 0.25

    private struct Entry {
        var sample: Sample
        var accelerating: Bool
    }

    private var window: [Entry] = []
    /// Index of the oldest entry still in the window (entries before it are dropped lazily).
    private var head = 0
    private var acceleratingCount = 0
    /// The `began` event whose `ended` is due on the next call.
    private var pendingEnd: ShakeEvent?

    /// A detector with threshold `T` in m/s² (gravity included); default: medium, 13 m/s².
    public init(thresholdMetersPerSecondSquared: Double = SeismicDetector.mediumThreshold) {
        self.thresholdMetersPerSecondSquared = thresholdMetersPerSecondSquared
    }

    /// The threshold of a named sensitivity ("light" 11, "medium" 13, "hard" 15 m/s²), or nil.
    public static func threshold(preset name: String) -> Double? {
        switch name {
        case "light": lightThreshold
        case "medium": mediumThreshold
        case "hard": hardThreshold
        default: nil
        }
    }

    /// True between a `began` and its `ended` (that is, until the next call after firing).
    public var isShaking: Bool { pendingEnd != nil }

    /// Forgets all samples.
    public mutating func reset() {
        window.removeAll(keepingCapacity: true)
        head = 0
        acceleratingCount = 0
        pendingEnd = nil
    }

    public mutating func process(_ sample: Sample) -> ShakeEvent? {
        // The window was cleared when the shake fired, so this sample cannot fire again: it
        // starts the next window and carries the `ended` event.
        let ended = pendingEnd.map { Self.ended(after: $0, at: sample.time) }
        pendingEnd = nil
        guard sample.time.isFinite, sample.x.isFinite, sample.y.isFinite, sample.z.isFinite else { return ended }
        let threshold = thresholdMetersPerSecondSquared
        let squared = sample.x * sample.x + sample.y * sample.y + sample.z * sample.z
        let accelerating = squared > threshold * threshold
        // Drop samples older than the window; a sample going back in time restarts it.
        if let newest = window.last, sample.time < newest.sample.time { reset() }
        while head < window.count && window[head].sample.time < sample.time - windowSeconds {
            if window[head].accelerating { acceleratingCount -= 1 }
            head += 1
        }
        if head > 64 && head * 2 > window.count {
            window.removeFirst(head)
            head = 0
        }
        window.append(Entry(sample: sample, accelerating: accelerating))
        if accelerating { acceleratingCount += 1 }
        let count = window.count - head
        let span = sample.time - window[head].sample.time
        guard ended == nil, span >= minimumSpanSeconds, acceleratingCount >= (count >> 1) + (count >> 2) else {
            return ended
        }
        let began = shakeEvent(at: sample.time)
        reset()
        pendingEnd = began
        return began
    }

    public mutating func interrupt(at time: Double) -> ShakeEvent? {
        let began = pendingEnd
        reset()
        return began.map { Self.ended(after: $0, at: time) }
    }

    private func shakeEvent(at time: Double) -> ShakeEvent {
        var peak = 0.0
        var energy = (x: 0.0, y: 0.0, z: 0.0)
        for entry in window[head...] {
            let s = entry.sample
            peak = max(peak, s.magnitude - standardGravity)
            energy.x += s.x * s.x
            energy.y += s.y * s.y
            energy.z += s.z * s.z
        }
        let axis: ShakeAxis = energy.x >= energy.y && energy.x >= energy.z ? .x : (energy.y >= energy.z ? .y : .z)
        return ShakeEvent(phase: .began, time: time, startTime: window[head].sample.time, endTime: time,
                          peakAcceleration: peak, reversals: 0, dominantAxis: axis)
    }

    /// The `ended` of `began` at `time`, or at `began`'s own time when `time` is before it or
    /// not finite (an interrupt with a stale or NaN time, a clock that went back).
    private static func ended(after began: ShakeEvent, at time: Double) -> ShakeEvent {
        var ended = began
        ended.phase = .ended
        ended.time = time.isFinite && time >= began.time ? time : began.time
        return ended
    }
}
