/// The vertex of the parabola through three samples around a local maximum: `before` and `after`
/// are (time offset from the middle sample, s; value), the middle sample is at offset 0 with value
/// `peak`. The samples may be unevenly spaced (timing jitter).
///
/// Returns nil unless the middle sample is a local maximum (`before.value ≤ peak ≥ after.value`,
/// not all equal), `before.offset < 0 < after.offset` and the vertex is finite. The vertex offset
/// is kept within the two outer samples; its value is at least `peak`.
///
/// When one interval is more than twice the other, the value returned is `peak` itself (the
/// offset is still the vertex's): beside a pause in the stream (a phone's browser sampling
/// pauses for up to 0.4 s between samples 20 ms apart) the parabola carries the curvature of the
/// close pair over the long interval, and its vertex can lie far above every sample (a shake
/// reported at 244 m/s² from samples of at most 90). Within a factor of 2 the vertex is at most
/// 5/3 of `peak` (for outer values down to −`peak`), so evenly spaced samples, with jitter up to
/// a third of the interval or one sample lost, are refined fully.
/// - Complexity: O(1).
func parabolaVertex(
    before: (offset: Double, value: Double), peak: Double, after: (offset: Double, value: Double)
) -> (offset: Double, value: Double)? {
    let x0 = before.offset, x2 = after.offset
    guard x0 < 0, x2 > 0, before.value <= peak, after.value <= peak else { return nil }
    // y = peak + b·x + a·x² through both outer samples.
    let slope0 = (before.value - peak) / x0
    let slope2 = (after.value - peak) / x2
    let a = (slope2 - slope0) / (x2 - x0)
    guard a < 0 else { return nil }
    let b = slope2 - a * x2
    let offset = min(max(-b / (2 * a), x0), x2)
    let value = peak + b * offset + a * offset * offset
    // Absurd spacings (a sample interval of 1e-300 s) can overflow to infinity or NaN.
    guard offset.isFinite, value.isFinite else { return nil }
    return (offset, max(-x0, x2) > 2 * min(-x0, x2) ? peak : value)
}
