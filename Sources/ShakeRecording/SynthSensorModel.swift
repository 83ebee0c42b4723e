/// The accelerometer a synthesized recording is read through.
///
/// Each output sample `n` is taken at `t_n = startTime + (n + jitterFraction · u_n) / rateHertz`
/// (`u_n` uniform in [0, 1)), rounded to whole microseconds, so times stay strictly increasing for
/// any `jitterFraction < 1` and the median interval is `1 / rateHertz`. The value is the
/// motion averaged over one nominal interval centred on `t_n` (the sensor's own low-pass, which
/// follows its output rate; turn off with `averagesOverInterval`), plus white Gaussian noise of
/// `noiseRMS` per axis, then quantised to `quantizationStep`, then clipped to ±`clipG` g (with
/// quantisation: to the last whole step within ±`clipG` g, as a converter's largest code).
public struct SensorModel: Sendable, Hashable, Codable {
    /// Output data rate, Hz. Allowed: 1…20 000. Default 100.
    public var rateHertz: Double
    /// Timing jitter as a fraction of the nominal interval, 0…0.9. Default 0.
    public var jitterFraction: Double
    /// White noise per axis, RMS in m/s². Default 0.03.
    public var noiseRMS: Double
    /// Full-scale range, g: each axis is clamped to ±`clipG` · 9.80665 m/s². `nil` (default): no clipping.
    public var clipG: Double?
    /// Quantisation step, m/s² (e.g. 0.0096 for 1 mg/LSB). `nil` (default): none.
    public var quantizationStep: Double?
    /// Whether each sample averages the motion over one interval (default `true`).
    public var averagesOverInterval: Bool
    /// Time of the first sample, s. Default 0.
    public var startTime: Double

    public init(
        rateHertz: Double = 100, jitterFraction: Double = 0, noiseRMS: Double = 0.03,
        clipG: Double? = nil, quantizationStep: Double? = nil, averagesOverInterval: Bool = true,
        startTime: Double = 0
    ) {
        self.rateHertz = rateHertz
        self.jitterFraction = jitterFraction
        self.noiseRMS = noiseRMS
        self.clipG = clipG
        self.quantizationStep = quantizationStep
        self.averagesOverInterval = averagesOverInterval
        self.startTime = startTime
    }

    /// Throws when a setting lies outside its allowed range, naming the setting.
    public func validate() throws(SynthesisError) {
        try SynthesisError.check(rateHertz, in: 1...20_000, "rateHertz", "sensor")
        try SynthesisError.check(jitterFraction, in: 0...0.9, "jitterFraction", "sensor")
        try SynthesisError.check(noiseRMS, in: 0...100, "noiseRMS", "sensor")
        if let clipG { try SynthesisError.check(clipG, in: 0.1...1000, "clipG", "sensor") }
        if let quantizationStep {
            try SynthesisError.check(quantizationStep, in: 1e-9...100, "quantizationStep", "sensor")
        }
        try SynthesisError.check(startTime, in: -1e9...1e9, "startTime", "sensor")
    }
}
