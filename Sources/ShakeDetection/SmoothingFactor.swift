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

/// `1 − e^(−x)` for `x ≥ 0`, without cancellation for small x.
@usableFromInline
func oneMinusExpNegative(_ x: Double) -> Double {
    if x < 0.5 {
        // −expm1(−x) = x − x²/2! + x³/3! − …; 18 terms are exact to double precision for x < 0.5.
        var term = x
        var sum = x
        var n = 1.0
        for _ in 0..<18 {
            n += 1
            term *= -x / n
            sum += term
        }
        return sum
    }
    return 1 - expNegative(x)
}

/// `e^(−x)` for `x ≥ 0` by range reduction `x = k·ln 2 + r`, |r| ≤ ln 2 / 2, and a Taylor
/// series for `e^(−r)`.
@usableFromInline
func expNegative(_ x: Double) -> Double {
    if x > 745 { return 0 }
    let ln2 = 0.693_147_180_559_945_309_417_232_121_458
    let k = (x / ln2).rounded()
    let r = x - k * ln2
    var term = 1.0
    var sum = 1.0
    var n = 0.0
    for _ in 0..<20 {
        n += 1
        term *= -r / n
        sum += term
    }
    return sum * Double(sign: .plus, exponent: -Int(k), significand: 1)
}
