/// One accelerometer reading.
///
/// Acceleration is in metres per second squared (m/s²) **including gravity**, in the
/// device's own axes, as Linux IIO reports it after applying `scale` and `offset`.
/// A device lying flat and still reads about `(0, 0, 9.81)`. A driver that gives g must multiply
/// by `standardGravity`: the detector cannot tell, and in g it fires nothing (every shake is
/// 9.8 times too weak). Feed the same samples to `SampleStreamCheck` to be told.
public struct Sample: Sendable, Hashable {
    /// Timestamp in seconds. Any origin; only differences matter. Should not decrease (use a
    /// monotonic clock): `ShakeDetector` ignores a sample up to `maximumGapSeconds` earlier than
    /// the latest, and restarts on one further back.
    ///
    /// A hardware counter that wraps (a 32-bit millisecond tick wraps every 49.7 days, a 32-bit
    /// microsecond one every 71.6 minutes) restarts the detector at each wrap, cancelling a
    /// shake in progress (`.timeWentBackwards`) and restarting the filters (the ongoing-motion rule
    /// then waits 4 s to learn the motion again):
    /// unwrap it (add the counter's period at each wrap) before dividing it into seconds.
    /// Timestamps in ms, µs or ns must be divided into seconds; `SampleStreamCheck` says so.
    public var time: Double
    /// Acceleration along the device's x axis, m/s², gravity included.
    public var x: Double
    /// Acceleration along the device's y axis, m/s², gravity included.
    public var y: Double
    /// Acceleration along the device's z axis, m/s², gravity included.
    public var z: Double

    @inlinable
    public init(time: Double, x: Double, y: Double, z: Double) {
        self.time = time
        self.x = x
        self.y = y
        self.z = z
    }

    /// Euclidean norm of the acceleration vector, m/s² (gravity included).
    @inlinable
    public var magnitude: Double { (x * x + y * y + z * z).squareRoot() }
}

/// Standard gravity, m/s², used to convert between g and m/s².
public let standardGravity: Double = 9.80665
