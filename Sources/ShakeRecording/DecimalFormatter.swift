/// Fast fixed-point formatting of `Double`s into a byte buffer, like C's `%.Nf`.
///
/// The value is scaled by 10^decimals and rounded to the nearest integer (ties away from zero),
/// then its digits are written with the decimal point inserted. The sign is written whenever the
/// value's sign bit is set, as `printf` does (`-0.00000` for -0.000001 at 5 decimals).
/// Values whose scaled magnitude reaches 2^53 fall back to the standard library's description.
enum DecimalFormatter {
    /// Appends `value` with `decimals` (1…9) digits after the point.
    ///
    /// - Precondition: `value` is finite.
    @inline(always)
    static func append(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        let scaled = (value.magnitude * DecimalParser.powerOfTen(decimals)).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9_007_199_254_740_992 else {
            out.append(contentsOf: "\(value)".utf8)
            return
        }
        if value.sign == .minus { out.append(UInt8(ascii: "-")) }
        var n = UInt64(scaled)
        // Up to 16 digits before the point plus `decimals` after: at most 26 bytes.
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { raw in
            var i = 32
            var written = 0
            while n > 0 || written <= decimals {
                if written == decimals {
                    i -= 1
                    raw[i] = UInt8(ascii: ".")
                }
                i -= 1
                raw[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n % 10)
                n /= 10
                written += 1
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[i ..< 32]))
        }
    }
}
