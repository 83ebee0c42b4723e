#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Fixed-point text of a `Double`, exactly as `String(format: "%.Nf", value)` gives it, without
/// Foundation (so without ICU in a static build).
///
/// The text is C's `printf("%.*f")` (which `String(format:)` also ends in): the exact binary value
/// rounded half to even, the sign whenever the sign bit is set (`-0.00` for -0.001), `nan`, `inf`
/// and `-inf` for the non-finite values, every integer digit of a large value. The decimal point
/// is always "." whatever locale the program set with `setlocale`.
///
/// ```swift
/// FixedDecimals.format(2.675, decimals: 2)  // "2.67" (2.675 is 2.67499999… in binary)
/// FixedDecimals.format(-0.0001, decimals: 3)  // "-0.000"
/// ```
public enum FixedDecimals {
    /// Most decimals `format` accepts: every digit of the smallest subnormal (1074 decimals) and
    /// some zeros beyond, as `String(format:)` writes them.
    public static let maximumDecimals = 1100

    /// `value` with `decimals` digits after the point (none, and no point, for 0).
    ///
    /// - Precondition: `0 <= decimals <= maximumDecimals`.
    public static func format(_ value: Double, decimals: Int) -> String {
        precondition(decimals >= 0 && decimals <= maximumDecimals, "decimals must be 0…\(maximumDecimals), not \(decimals)")
        // The longest text: a sign, 309 integer digits, the point, the decimals. One buffer on the
        // stack for everything but huge values.
        let small = 64
        if let text = withUnsafeTemporaryAllocation(of: CChar.self, capacity: small, { print(value, decimals, into: $0) }) {
            return text
        }
        let large = 1 + 309 + 1 + decimals + 1
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: large) { print(value, decimals, into: $0) } ?? "\(value)"
    }

    /// `format(value, decimals:)` up to 10¹², beyond it the value in powers of ten with three
    /// significant digits at most (`1e308`, `-2.5e15`): a plot's tick or range of such times
    /// written out filled hundreds of digits.
    public static func formatReadably(_ value: Double, decimals: Int) -> String {
        guard value.isFinite, abs(value) >= 1e12 else { return format(value, decimals: decimals) }
        var exponent = Int(log10(abs(value)).rounded(.down))
        var mantissa = format(value / pow(10, Double(exponent)), decimals: 2)
        if mantissa.hasPrefix("10.") || mantissa.hasPrefix("-10.") {
            exponent += 1
            mantissa = format(value / pow(10, Double(exponent)), decimals: 2)
        }
        while mantissa.hasSuffix("0") { mantissa.removeLast() }
        if mantissa.hasSuffix(".") { mantissa.removeLast() }
        return mantissa + "e" + String(exponent)
    }

    /// `printf("%.*f")` into `buffer` in the C locale, or nil when the buffer is too short.
    private static func print(_ value: Double, _ decimals: Int, into buffer: UnsafeMutableBufferPointer<CChar>) -> String? {
        guard let base = buffer.baseAddress else { return nil }
        let previous = cLocale.map { uselocale($0) }
        defer { if let previous { uselocale(previous) } }
        let count = withVaList([Int32(decimals), value]) { vsnprintf(base, buffer.count, "%.*f", $0) }
        guard count >= 0, Int(count) < buffer.count else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: base, count: Int(count)), as: UTF8.self)
    }

    /// The "C" locale, for a "." whatever `setlocale` chose for numbers (nil if glibc cannot make it: then the
    /// thread's locale, which is "C" unless the program called `setlocale`).
    private nonisolated(unsafe) static let cLocale: locale_t? = newlocale(1 << LC_NUMERIC, "C", nil)
}
