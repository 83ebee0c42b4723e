/// Smoothing factor of a one-pole low-pass for a sample interval and a time constant:
/// `α = 1 − exp(−interval / timeConstant)`, in [0, 1].
///
/// The exact discretisation of an RC filter, so the filter's time response is the same at any
/// sample rate and under jitter. A time constant of 0 gives α = 1 (no filtering).
/// Pure Swift (the standard library has no `exp`): accurate to a few units in the last place.
/// - Complexity: O(1).
@usableFromInline
func smoothingFactor(interval: Double, timeConstant: Double) -> Double {
    if !(timeConstant > 0) { return 1 }
    let x = interval / timeConstant
    if !(x > 0) { return 0 }
    return oneMinusExpNegative(x)
}

/// `1 − e^(−x)` for `x ≥ 0`. Absolute error about 10⁻¹⁶ (relative 10⁻¹⁶/x: ample for the
/// x ≥ 10⁻⁶ of any real sample interval and time constant).
@usableFromInline
func oneMinusExpNegative(_ x: Double) -> Double {
    1 - expNegative(x)
}

/// `e^(−x)` for `x ≥ 0` by range reduction `x = k·ln 2 + r`, |r| ≤ ln 2 / 2, and a degree-13
/// Taylor polynomial for `e^(−r)` (truncation error < 10⁻¹⁷), scaled by `2^(−k)`.
/// NaN for NaN and +infinity for `x` under −709 (only a configuration that `validate()`
/// rejects gives those, such as a time constant of NaN or below 0: it must not trap).
@usableFromInline
func expNegative(_ x: Double) -> Double {
    if x > 745 { return 0 }
    // Keeps `Int(k)` below finite: -inf and NaN would trap there.
    guard x >= -709 else { return x.isNaN ? .nan : .infinity }
    let ln2 = 0.693_147_180_559_945_309_417_232_121_458
    let k = (x / ln2).rounded()
    let r = -(x - k * ln2)
    // Horner form of Σ rⁿ/n!, n = 0…13.
    var p = 1.0 / 6_227_020_800
    p = p * r + 1.0 / 479_001_600
    p = p * r + 1.0 / 39_916_800
    p = p * r + 1.0 / 3_628_800
    p = p * r + 1.0 / 362_880
    p = p * r + 1.0 / 40_320
    p = p * r + 1.0 / 5_040
    p = p * r + 1.0 / 720
    p = p * r + 1.0 / 120
    p = p * r + 1.0 / 24
    p = p * r + 1.0 / 6
    p = p * r + 0.5
    p = p * r + 1
    p = p * r + 1
    return p * Double(sign: .plus, exponent: -Int(k), significand: 1)
}
