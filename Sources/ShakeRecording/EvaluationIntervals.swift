#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How far the true recall and false-shake rate may lie from what a set of recordings measured:
/// 95 % confidence intervals for `EvaluationSummary`'s `recall` and `falsePerHour`.
///
/// A corpus of a few dozen shakes and an hour of other motion measures little: 36 of 36 shakes
/// found is consistent with a true recall as low as 0.904, and no false shake in 0.68 h with a
/// true rate as high as 5.4 per hour. These say how much.
/// - **Recall**: the Wilson score interval for `detected` successes in `shakes` trials (it stays
///   within [0, 1] and is not degenerate at 0 or n successes, unlike p ± z·√(p(1−p)/n)).
/// - **False shakes per hour**: the exact (Garwood) interval for a Poisson count of
///   `falseShakes` in `negativeHours`: its ends are the rates under which a count at least (at
///   most) that large has probability 2.5 %; 0 to 3.69 events for a count of 0.
/// Both treat the shakes, and the false shakes, as independent events: one person's many shakes
/// in one session are not, so the true uncertainty is larger still.
public struct EvaluationIntervals: Sendable, Hashable {
    /// The two-sided confidence level.
    public static let confidence = 0.95
    /// The standard normal quantile for it: Φ⁻¹(0.975).
    static let z = 1.959963984540054

    /// Recall's interval, nil without labelled shakes.
    public var recall: ClosedRange<Double>?
    /// False shakes per hour's interval, nil without negative time.
    public var falsePerHour: ClosedRange<Double>?

    public init(_ summary: EvaluationSummary) {
        recall = summary.shakes > 0 ? Self.wilson(successes: summary.detected, trials: summary.shakes) : nil
        let hours = summary.negativeHours
        if hours > 0 {
            let events = Self.poisson(count: summary.falseShakes)
            falsePerHour = events.lowerBound / hours ... events.upperBound / hours
        } else {
            falsePerHour = nil
        }
    }

    /// The Wilson score interval for `successes` of `trials` (trials > 0).
    static func wilson(successes: Int, trials: Int) -> ClosedRange<Double> {
        let n = Double(trials), p = Double(successes) / n, z2 = z * z
        let centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        let half = z / (1 + z2 / n) * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        // At 0 or n successes one end is exactly 0 or 1; rounding would put it a hair off.
        let low = successes == 0 ? 0 : max(0, centre - half)
        let high = successes == trials ? 1 : min(1, centre + half)
        return low ... high
    }

    /// The exact two-sided interval for the mean of a Poisson count: the lower end λ with
    /// P(X ≥ count | λ) = 2.5 % (0 for a count of 0), the upper end with P(X ≤ count | λ) = 2.5 %.
    static func poisson(count: Int) -> ClosedRange<Double> {
        let tail = (1 - confidence) / 2
        let k = Double(count)
        let ceiling = k + 20 * (k + 1).squareRoot() + 20  // far beyond the upper end
        // P(X ≤ count | λ) falls as λ grows: the upper end is where it reaches the tail.
        let high = solveDecreasing(in: 0 ... ceiling, target: tail) { poissonCDF(count, mean: $0) }
        let low = count == 0 ? 0 : solveDecreasing(in: 0 ... ceiling, target: 1 - tail) {
            poissonCDF(count - 1, mean: $0)
        }
        return low ... high
    }

    /// P(X ≤ count) for X Poisson with the given mean, summed in log space (no overflow for
    /// large counts or means).
    static func poissonCDF(_ count: Int, mean: Double) -> Double {
        guard count >= 0 else { return 0 }
        guard mean > 0 else { return 1 }
        let logMean = log(mean)
        var sum = 0.0
        for i in 0 ... count {
            sum += exp(-mean + Double(i) * logMean - lgamma(Double(i) + 1))
        }
        return min(1, sum)
    }

    /// The x in `range` where the decreasing `f` equals `target`, by bisection to machine
    /// precision.
    static func solveDecreasing(in range: ClosedRange<Double>, target: Double,
                                _ f: (Double) -> Double) -> Double {
        var low = range.lowerBound, high = range.upperBound
        for _ in 0 ..< 200 {
            let middle = (low + high) / 2
            if middle == low || middle == high { break }
            if f(middle) > target { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}

extension EvaluationIntervals: Encodable {
    enum CodingKeys: String, CodingKey {
        case recall
        case falsePerHour = "false_per_hour"
    }

    /// `{"recall": [low, high], "false_per_hour": [low, high]}`, null where the ratio is; rounded
    /// as `EvaluationSummary` rounds the ratios (`RoundedNumber`): recall to 4 decimals, the rate
    /// to 3.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recall.map { [RoundedNumber.ratio($0.lowerBound), .ratio($0.upperBound)] },
                             forKey: .recall)
        try container.encode(falsePerHour.map { [RoundedNumber.perHour($0.lowerBound), .perHour($0.upperBound)] },
                             forKey: .falsePerHour)
    }
}

extension EvaluationSummary {
    /// 95 % confidence intervals for `recall` and `falsePerHour`.
    public var intervals: EvaluationIntervals { EvaluationIntervals(self) }
}
