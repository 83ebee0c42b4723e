import Foundation
@testable import ShakeRecording
import Testing

/// `FixedDecimals.format` against what it replaces, Foundation's `String(format: "%.Nf")`.
@Suite struct FixedDecimalsTests {
    static let edgeValues: [Double] = [
        0, -0.0, 0.5, 1.5, 2.5, -0.5, -1.5, 0.125, 0.375, -0.375, 2.675, 1.005, 0.045, 1.0 / 3, -2.0 / 3,
        -0.001, -0.0049, -0.005, -0.0051, 0.015625, 1999.999995, 9.995, 9.9949999, 99.5, 999_999.5,
        123_456_789.123456789, 9_007_199_254_740_992, 9_007_199_254_740_994, 1e15 + 0.5, 1e16, 1e22,
        1e23, 1e300, 1e308, -1e308, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, 1e-10, -1e-10,
        .nan, -Double.nan, .infinity, -.infinity, .pi, -.pi, 0.1, 0.2, 0.3, 0.7, 100, 86_400.0005,
    ]

    @Test("Edge values give what String(format:) gives at every decimal count the project uses and beyond",
          arguments: [0, 1, 2, 3, 4, 5, 6, 9, 17, 20, 30, 64, 65, 300, 1074, FixedDecimals.maximumDecimals])
    func edgeValuesMatchStringFormat(decimals: Int) {
        for value in Self.edgeValues {
            #expect(FixedDecimals.format(value, decimals: decimals) == String(format: "%.\(decimals)f", value),
                    "\(value) at \(decimals) decimals")
        }
    }

    @Test("Halves at every scale round as printf does: the exact binary value, ties to even")
    func halvesMatchStringFormat() {
        for decimals in 0 ... 6 {
            let scale = (0 ..< decimals).reduce(1.0) { value, _ in value * 10 }
            for numerator in -2_000 ... 2_000 {
                let value = (Double(numerator) + 0.5) / scale
                #expect(FixedDecimals.format(value, decimals: decimals) == String(format: "%.\(decimals)f", value),
                        "\(value) at \(decimals) decimals")
            }
        }
    }

    @Test("Values spread over every decade give what String(format:) gives")
    func spreadValuesMatchStringFormat() {
        var generator = SynthRandom(seed: 0x5EED_F1_2ED, stream: 0)
        var mismatches: [String] = []
        for _ in 0 ..< 20_000 {
            let bits = generator.next()
            let exponent = Double(Int(bits % 60) - 30)
            let mantissa = Double(bits >> 11) / Double(1 << 53)
            let value = (bits & 1 << 10 == 0 ? 1 : -1) * mantissa * pow(10, exponent)
            let decimals = Int((bits >> 4) % 12)
            let expected = String(format: "%.\(decimals)f", value)
            if FixedDecimals.format(value, decimals: decimals) != expected {
                mismatches.append("\(value) at \(decimals): \(expected)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test("The largest value keeps every integer digit")
    func largestValueKeepsEveryDigit() {
        let text = FixedDecimals.format(-.greatestFiniteMagnitude, decimals: FixedDecimals.maximumDecimals)
        #expect(text.count == 1 + 309 + 1 + FixedDecimals.maximumDecimals)
        #expect(text.hasPrefix("-17976931348623157"))
    }

    static func germanNumbers() -> locale_t? { newlocale(1 << LC_NUMERIC, "de_DE.UTF-8", nil) }

    /// Without the locale this fails saying so (it was skipped, and so never ran on a fresh
    /// machine, CI's included): `Scripts/bootstrap` makes it.
    @Test("The decimal point is '.' even when the thread's locale writes numbers with a comma")
    func decimalPointIgnoresTheLocale() throws {
        // uselocale is per thread and the test does not suspend, so other tests are unaffected.
        let german = try #require(Self.germanNumbers(),
                                  "needs the de_DE.UTF-8 locale: Scripts/bootstrap makes it (localedef -i de_DE -f UTF-8 de_DE.UTF-8)")
        defer { freelocale(german) }
        let previous = uselocale(german)
        defer { uselocale(previous) }
        var buffer = [CChar](repeating: 0, count: 16)
        let count = withVaList([1.5]) { vsnprintf(&buffer, buffer.count, "%.2f", $0) }
        let commaText = String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(commaText == "1,50")  // the locale is in effect
        #expect(FixedDecimals.format(1.5, decimals: 2) == "1.50")
        #expect(FixedDecimals.format(-1234.5678, decimals: 3) == "-1234.568")
    }
}

/// Test values and mutated texts drawn from the synthesizer's seeded generator (xoshiro256**).
extension SynthRandom {
    /// Uniform in 0..<`bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
