import FoundationEssentials

/// A measured value as a report writes it: rounded to the decimals its unit warrants and encoded
/// as the shortest decimal of the rounded value (`0.539216`, `0.00005`, `3`), never as the
/// binary noise of a computation (`0.539215500000001`) nor in exponent notation (`5e-05`).
///
/// The JSON of `shake evaluate`, `tune`, `replay` and `live` writes its numbers through this
/// type, with one precision per unit (see the static constructors).
public struct RoundedNumber: Sendable, Hashable, Encodable {
    /// The value as computed.
    public var value: Double
    /// Decimals kept, 0 to 9.
    public var decimals: Int

    public init(_ value: Double, decimals: Int) {
        precondition((0...9).contains(decimals), "0 to 9 decimals")
        self.value = value
        self.decimals = decimals
    }

    /// Seconds, to the microsecond (as the CSV writer keeps time).
    public static func seconds(_ value: Double) -> RoundedNumber { RoundedNumber(value, decimals: 6) }
    /// Hours, to 6 decimals (3.6 ms).
    public static func hours(_ value: Double) -> RoundedNumber { RoundedNumber(value, decimals: 6) }
    /// A ratio between 0 and 1 (recall, precision, F1), to 4 decimals.
    public static func ratio(_ value: Double) -> RoundedNumber { RoundedNumber(value, decimals: 4) }
    /// A rate per hour (false shakes per hour), to 3 decimals.
    public static func perHour(_ value: Double) -> RoundedNumber { RoundedNumber(value, decimals: 3) }
    /// A frequency in Hz, to 3 decimals.
    public static func hertz(_ value: Double) -> RoundedNumber { RoundedNumber(value, decimals: 3) }
    /// An acceleration in m/s², to 3 decimals (1 mm/s², below any accelerometer's noise).
    public static func acceleration(_ value: Double) -> RoundedNumber { RoundedNumber(value, decimals: 3) }

    /// The rounded value as a decimal; nil when it is not finite or too large for its decimals to
    /// be exact in a `Double` (beyond 2⁵³ units of the last decimal), where the value is written
    /// as it is.
    public var rounded: Decimal? {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let units = (value * scale).rounded()
        guard units.isFinite, abs(units) < 9_007_199_254_740_992 else { return nil }
        let count = Int64(units)
        return Decimal(sign: count < 0 ? .minus : .plus, exponent: -decimals, significand: Decimal(count.magnitude))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let rounded {
            try container.encode(rounded)
        } else {
            try container.encode(value)
        }
    }
}
