import ShakeDetection

/// A deliberate shake for `MotionSegment.shake`.
///
/// The linear acceleration (gravity removed) along `direction` is
/// `a(t) = amplitudeG · g · e(t) · w(φ(t))`, where `w` is a sine with small 2nd and 3rd
/// harmonics (normalised to a peak of 1), `e` ramps up over the first cycle and down over the
/// last (raised cosine) with a slow ±5 % swell, and the instantaneous frequency
/// `φ'(t) / 2π = frequencyHertz · (1 + frequencyWobble · cos(2π f_w t + ψ))` wanders slowly
/// (`f_w` 0.4–0.9 Hz). On top: cross-axis leakage (each perpendicular axis gets up to
/// `crossAxisLeakage` of the amplitude, out of phase), and the wrist rotating back and forth by up
/// to `rotationDegrees` about an axis perpendicular to the shake, which swings the measured
/// gravity direction. Peak linear acceleration ≈ `amplitudeG` g (leakage adds a few per cent).
public struct ShakeMotion: Sendable, Hashable {
    /// Shake frequency (full back-and-forth cycles per second), Hz. Realistic: 2…8. Allowed: 1…12.
    public var frequencyHertz: Double
    /// Peak linear acceleration along `direction`, in units of g (9.80665 m/s²). Realistic: 1…4.
    /// Allowed: 0.1…8.
    public var amplitudeG: Double
    /// Direction of the shake in the device frame; any non-zero vector, normalised when rendered.
    public var direction: SIMD3<Double>
    /// Length of the shake, s (including the ramps).
    public var seconds: Double
    /// Peak wrist rotation during the shake, degrees. Default 12.
    public var rotationDegrees: Double
    /// Largest share of the amplitude leaking into each perpendicular axis, 0…1. Default 0.12.
    public var crossAxisLeakage: Double
    /// Relative frequency wobble, 0…0.3. Default 0.06 (±6 %).
    public var frequencyWobble: Double

    /// A shake along `direction` (device frame) lasting `seconds`.
    public init(
        frequencyHertz: Double, amplitudeG: Double, direction: SIMD3<Double>, seconds: Double,
        rotationDegrees: Double = 12, crossAxisLeakage: Double = 0.12, frequencyWobble: Double = 0.06
    ) {
        self.frequencyHertz = frequencyHertz
        self.amplitudeG = amplitudeG
        self.direction = direction
        self.seconds = seconds
        self.rotationDegrees = rotationDegrees
        self.crossAxisLeakage = crossAxisLeakage
        self.frequencyWobble = frequencyWobble
    }

    /// A shake along one device axis lasting `cycles` periods (`cycles / frequencyHertz` s).
    public init(frequencyHertz: Double, amplitudeG: Double, axis: ShakeAxis, cycles: Double) {
        let direction: SIMD3<Double> =
            switch axis {
            case .x: SIMD3(1, 0, 0)
            case .y: SIMD3(0, 1, 0)
            case .z: SIMD3(0, 0, 1)
            }
        self.init(
            frequencyHertz: frequencyHertz, amplitudeG: amplitudeG, direction: direction,
            seconds: cycles / frequencyHertz)
    }
}
