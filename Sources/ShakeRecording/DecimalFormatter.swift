/// Fast fixed-point formatting of `Double`s into bytes, like C's `%.Nf`.
///
/// The value is scaled by 10^decimals and rounded to the nearest integer, then its digits are
/// written with the decimal point inserted. The rounding is that of the exact binary value, as
/// glibc's `printf` does: a value just short of a half whose Double product lands on the half
/// rounds down, and only an exact half rounds to even (1999.999995 is 1999.99999 at 5 decimals,
/// 0.015625 is 0.01562). The sign is written whenever the
/// value's sign bit is set, as `printf` does (`-0.00000` for -0.000001 at 5 decimals).
/// Values whose scaled magnitude reaches 2^53 fall back to the standard library's description.
enum DecimalFormatter {
    /// Most bytes `write` produces: a sign, 16 digits, a point and 9 decimals, or a description.
    static let maximumBytes = 40

    /// Writes `value` with `decimals` (1…9) digits after the point at `out`.
    ///
    /// - Precondition: `value` is finite; `maximumBytes` bytes are writable at `out`.
    /// - Returns: the position after the last byte written.
    @inline(always)
    static func write(_ value: Double, decimals: Int, to out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let magnitude = value.magnitude
        let scale = DecimalParser.powerOfTen(decimals)
        let product = magnitude * scale
        var scaled = product.rounded(.toNearestOrAwayFromZero)
        if scaled - product == 0.5 { scaled = roundedFromHalf(magnitude, scale: scale, product: product) }
        guard scaled < 9_007_199_254_740_992 else { return writeDescription(value, to: out) }
        var p = out
        if value.sign == .minus {
            p.pointee = UInt8(ascii: "-")
            p += 1
        }
        var n = UInt64(scaled)
        // Count the digits: at least decimals + 1 (a leading 0 before the point).
        var digits = 1
        var limit: UInt64 = 10
        while n >= limit && digits < 16 {
            digits += 1
            limit &*= 10
        }
        if digits <= decimals { digits = decimals + 1 }
        // Fill right to left: `decimals` digits, the point, then the integer digits.
        var q = p + digits + 1
        let end = q
        for _ in 0 ..< decimals {
            q -= 1
            q.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n % 10)
            n /= 10
        }
        q -= 1
        q.pointee = UInt8(ascii: ".")
        while q > p {
            q -= 1
            q.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n % 10)
            n /= 10
        }
        return end
    }

    /// The nearest integer to the exact `magnitude` · `scale` when the Double `product` is a half:
    /// the product's rounding error (exact, by fused multiply-add) says on which side of the half
    /// the exact value lies; on it, the even neighbour.
    @inline(never)
    private static func roundedFromHalf(_ magnitude: Double, scale: Double, product: Double) -> Double {
        let error = (-product).addingProduct(magnitude, scale)
        if error < 0 { return product.rounded(.down) }
        if error > 0 { return product.rounded(.up) }
        return product.rounded(.toNearestOrEven)
    }

    @inline(never)
    private static func writeDescription(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var p = out
        for byte in "\(value)".utf8.prefix(maximumBytes) {
            p.pointee = byte
            p += 1
        }
        return p
    }
}
