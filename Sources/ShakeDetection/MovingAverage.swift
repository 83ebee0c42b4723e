/// Time-weighted moving average of a 3-vector over the last `window` seconds: the smoothing
/// stage of `ShakeDetector`.
///
/// Each value stands for the interval since the previous one (as a sensor's output is its
/// average over its sample period), so the average at time `t` is `(1/W) ∫ v dt` over
/// `(t − W, t]` of that step signal: an interval that straddles `t − W` counts in part.
/// This makes the smoothing the same at every sample rate: at 25 Hz a 40 ms window holds just
/// the last sample (which the sensor has already averaged over 40 ms), at 100 Hz it averages the
/// last four 10 ms samples, at 1.6 kHz the last 64; each sees the motion averaged over the same
/// 40 ms. A one-pole low-pass cannot do this: the sensor's own averaging differs with the rate.
///
/// Holds at most `capacity` (256) intervals without allocating; when more fall inside the
/// window (above 6.4 kHz for 40 ms), the oldest are dropped and the window is that much shorter.
/// Running sums are recomputed from the stored values every `capacity` additions (whenever the
/// newest interval goes into the last slot), so rounding errors cannot accumulate. Each interval
/// keeps its value times its duration as it was added to the sums, so that dropping it subtracts
/// exactly that term (no multiplication per dropped interval).
@usableFromInline
struct MovingAverage: Sendable {
    @usableFromInline static var capacity: Int { 256 }
    @usableFromInline var mask: Int { Self.capacity - 1 }

    /// Window length, s. Zero or less: no smoothing.
    @usableFromInline let window: Double
    @usableFromInline let inverseWindow: Double
    /// One stored interval: its end time, s, the value over it, m/s², and the value times the
    /// interval's duration, m/s (its term of the running sums).
    @usableFromInline typealias Entry = (
        end: Double, x: Double, y: Double, z: Double,
        wx: Double, wy: Double, wz: Double, unused: Double)
    /// The stored intervals, oldest at `oldest`.
    @usableFromInline var entries = InlineArray<256, Entry>(repeating: (0, 0, 0, 0, 0, 0, 0, 0))
    @usableFromInline var oldest = 0  // index of the oldest stored interval
    @usableFromInline var count = 0
    @usableFromInline var oldestStart = 0.0  // start of the oldest interval, s
    @usableFromInline var sumX = 0.0, sumY = 0.0, sumZ = 0.0  // Σ value · duration, stored intervals

    @usableFromInline init(window: Double) {
        self.window = window
        inverseWindow = window > 0 ? 1 / window : 0
    }

    /// Forgets every value; the next interval starts at `time`.
    @usableFromInline mutating func restart(at time: Double) {
        oldest = 0
        count = 0
        oldestStart = time
        sumX = 0; sumY = 0; sumZ = 0
    }

    /// Adds the value `v` for the `duration` seconds up to `time` (since the previous value's
    /// time, or the restart: `time` must be later than that time, and `duration` exactly `time`
    /// minus it, as computed by the caller), and returns the average over the window ending at
    /// `time`.
    @inlinable @inline(__always)
    mutating func add(
        _ x: Double, _ y: Double, _ z: Double, at time: Double, duration: Double
    ) -> (Double, Double, Double) {
        if count == Self.capacity { dropOldest() }
        let wx = x * duration, wy = y * duration, wz = z * duration
        let slot = (oldest &+ count) & mask
        entries[slot].end = time
        entries[slot].x = x; entries[slot].y = y; entries[slot].z = z
        entries[slot].wx = wx; entries[slot].wy = wy; entries[slot].wz = wz
        count &+= 1
        // The sums stay in registers until the end.
        var sx = sumX + wx, sy = sumY + wy, sz = sumZ + wz
        if slot == mask {
            recomputeSums()
            sx = sumX; sy = sumY; sz = sumZ
        }
        let from = time - window
        // A window of 0 (or less, or NaN): no smoothing; the intervals are kept all the same, and
        // never read. Times so large (over 10¹⁴ s) that the window is lost in rounding: no
        // smoothing either. This also keeps the loop below finite.
        if !(from < time) {
            sumX = sx; sumY = sy; sumZ = sz
            return (x, y, z)
        }
        // Drop the intervals that ended before the window; the newest (ending at `time`) stays.
        var first = oldest, start = oldestStart, n = count
        while entries[first & mask].end <= from {
            let e = entries[first & mask]
            sx -= e.wx; sy -= e.wy; sz -= e.wz
            start = e.end
            first = (first &+ 1) & mask
            n &-= 1
        }
        oldest = first; oldestStart = start; count = n
        sumX = sx; sumY = sy; sumZ = sz
        if start < from {
            let e = entries[first & mask]
            let part = from - start  // of the oldest interval, before the window
            let k = inverseWindow
            return ((sx - e.x * part) * k, (sy - e.y * part) * k, (sz - e.z * part) * k)
        }
        // The oldest interval starts at the window's start (whole intervals fill the window) or
        // after it (less than a window since the restart): the average over the intervals
        // there are. `covered` is positive, as the oldest interval starts before `time`.
        let covered = time - start
        return (sx / covered, sy / covered, sz / covered)
    }

    @inlinable @inline(__always)
    mutating func dropOldest() {
        let e = entries[oldest & mask]
        sumX -= e.wx; sumY -= e.wy; sumZ -= e.wz
        oldestStart = e.end
        oldest = (oldest &+ 1) & mask
        count &-= 1
    }

    @inline(never) @usableFromInline
    mutating func recomputeSums() {
        var sx = 0.0, sy = 0.0, sz = 0.0
        for i in 0..<count {
            let e = entries[(oldest + i) & mask]
            sx += e.wx; sy += e.wy; sz += e.wz
        }
        sumX = sx; sumY = sy; sumZ = sz
    }
}
