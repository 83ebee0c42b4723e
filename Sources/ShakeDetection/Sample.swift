/// One accelerometer reading.
///
/// Acceleration is in metres per second squared (m/s²) **including gravity**, in the
/// device's own axes, as Linux IIO reports it after applying `scale` and `offset`.
/// A device lying flat and still reads about `(0, 0, 9.81)`.
public struct Sample: Sendable, Hashable {
    /// Timestamp in seconds. Any origin; only differences matter. Should not decrease (use a
    /// monotonic clock): `ShakeDetector` ignores a sample up to `maximumGapSeconds` earlier than
    /// the latest, and restarts on one further back.
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
