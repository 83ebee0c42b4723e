/// A sharp tap on a device lying on a table, for `MotionSegment.tap`.
///
/// At `atSeconds` into the segment the device is knocked into the table and rebounds: along the
/// world vertical, `peakG · g · sin(2π t / w) · e^(−1.5 t / w)` for `0 ≤ t < 4w`, normalised to a
/// peak of `peakG`, with `w = widthSeconds`; before and after, still.
public struct TapMotion: Sendable, Hashable {
    /// Peak acceleration of the tap, g. Realistic: 2…5. Allowed: 0.1…16.
    public var peakG: Double
    /// Length of the main lobe pair, s. Default 0.01.
    public var widthSeconds: Double
    /// When the tap happens, s from the start of the segment. Default 0.2.
    public var atSeconds: Double
    /// Length of the segment, s (the tap plus stillness after it).
    public var seconds: Double

    public init(peakG: Double = 3, widthSeconds: Double = 0.01, atSeconds: Double = 0.2, seconds: Double = 1) {
        self.peakG = peakG
        self.widthSeconds = widthSeconds
        self.atSeconds = atSeconds
        self.seconds = seconds
    }
}
