import Foundation
import ShakeRecording
import Testing

/// The 95 % confidence intervals `shake evaluate` prints under its table, against published
/// values: Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I
/// (Wilson score method), and the exact (Garwood) Poisson limits χ²(0.025; 2k)/2 and
/// χ²(0.975; 2k+2)/2 as SciPy computes them (`scipy.stats.chi2.ppf`), an implementation
/// independent of this one.
@Suite struct EvaluationIntervalsTests {
    func summary(shakes: Int, detected: Int, falseShakes: Int = 0, negativeHours: Double = 1) -> EvaluationSummary {
        var counts = EvaluationCounts()
        counts.shakes = shakes
        counts.detected = detected
        counts.falseShakes = falseShakes
        counts.negativeSeconds = negativeHours * 3600
        return counts.summary
    }

    @Test(arguments: [
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ])
    func recallIsTheWilsonScoreInterval(detected: Int, shakes: Int, low: Double, high: Double) throws {
        let recall = try #require(summary(shakes: shakes, detected: detected).intervals.recall)
        #expect(abs(recall.lowerBound - low) < 5e-5, "\(recall)")
        #expect(abs(recall.upperBound - high) < 5e-5, "\(recall)")
    }

    /// Every shake found: the upper end is exactly 1, and the lower end says how little a small
    /// corpus proves (36 of 36, dev's size, is consistent with a recall of 0.90).
    @Test func allFoundEndsAtOneAndSaysHowSmallTheCorpusIs() throws {
        let recall = try #require(summary(shakes: 36, detected: 36).intervals.recall)
        #expect(recall.upperBound == 1)
        #expect(recall.lowerBound > 0.90 && recall.lowerBound < 0.91, "\(recall)")
        let none = try #require(summary(shakes: 36, detected: 0).intervals.recall)
        #expect(none.lowerBound == 0)
    }

    @Test(arguments: [
        (0, 0.0, 3.6889),
        (1, 0.0253, 5.5716),
        (7, 2.8144, 14.4227),
        (10, 4.7954, 18.3904),
        (50, 37.1110, 65.9188),
    ])
    func falseShakesPerHourIsTheExactPoissonInterval(count: Int, low: Double, high: Double) throws {
        let rate = try #require(summary(shakes: 1, detected: 1, falseShakes: count).intervals.falsePerHour)
        #expect(abs(rate.lowerBound - low) < 5e-4, "\(rate)")
        #expect(abs(rate.upperBound - high) < 5e-4, "\(rate)")
    }

    /// The rate is per hour of negative time: the same count in half the time doubles both ends.
    @Test func falseShakeRateScalesWithNegativeTime() throws {
        let hour = try #require(summary(shakes: 1, detected: 1, falseShakes: 7, negativeHours: 1).intervals.falsePerHour)
        let half = try #require(summary(shakes: 1, detected: 1, falseShakes: 7, negativeHours: 0.5).intervals.falsePerHour)
        #expect(abs(half.lowerBound - 2 * hour.lowerBound) < 1e-9)
        #expect(abs(half.upperBound - 2 * hour.upperBound) < 1e-9)
    }

    /// A large count (Seismic's hundreds of false shakes) neither overflows nor loses precision
    /// (SciPy: 4862.3592 and 5140.5489).
    @Test func largeCountsStayExact() throws {
        let rate = try #require(summary(shakes: 1, detected: 1, falseShakes: 5000).intervals.falsePerHour)
        #expect(abs(rate.lowerBound - 4862.3592) < 0.001, "\(rate)")
        #expect(abs(rate.upperBound - 5140.5489) < 0.001, "\(rate)")
    }

    @Test func undefinedWhereTheRatioIs() {
        let empty = EvaluationCounts().summary
        #expect(empty.intervals.recall == nil)
        #expect(empty.intervals.falsePerHour == nil)
        #expect(summary(shakes: 0, detected: 0, negativeHours: 1).intervals.recall == nil)
    }

    /// None or all of the shakes found: the interval ends exactly at 0 or 1, whatever their number
    /// (computed, the lower end for 0 of 7 is 2.8e-17, a hair above 0).
    @Test func noneOrAllFoundEndExactlyAtZeroOrOne() throws {
        for shakes in 1...50 {
            let none = try #require(summary(shakes: shakes, detected: 0).intervals.recall)
            #expect(none.lowerBound == 0, "0 of \(shakes): \(none)")
            let all = try #require(summary(shakes: shakes, detected: shakes).intervals.recall)
            #expect(all.upperBound == 1, "\(shakes) of \(shakes): \(all)")
        }
    }

    /// The JSON writes each number to its unit's decimals (`RoundedNumber`): negative time in
    /// hours to 6 (1 s is 0.000278 h, not 0.0003), the recall interval's ends to 4, as recall
    /// (1 of 29 found: 0.0061 to 0.1718, Newcombe's values, not 0.006).
    @Test func jsonRoundsHoursToSixDecimalsAndRecallsIntervalToFour() throws {
        var counts = EvaluationCounts()
        counts.shakes = 29
        counts.detected = 1
        counts.negativeSeconds = 1
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let summary = String(decoding: try encoder.encode(counts.summary), as: UTF8.self)
        #expect(summary.contains("\"negative_hours\":0.000278,"), "\(summary)")
        let intervals = String(decoding: try encoder.encode(counts.summary.intervals), as: UTF8.self)
        #expect(intervals.contains("\"recall\":[0.0061,0.1718]"), "\(intervals)")
    }
}
