import FoundationEssentials
import ShakeDetection

/// What `Tuner` optimises and how widely it searches.
public struct TuningOptions: Sendable {
    /// The false-shake budget, false shakes per hour of `shake = 0` time. Default 0.5.
    public var maximumFalsePerHour = 0.5
    /// The fields searched and their candidate values. Default: `ParameterAxis.standard`.
    public var axes: [ParameterAxis] = ParameterAxis.standard
    /// Values of the fields not searched, and the reference for the last tie-break
    /// (distance from it). Default: the medium preset.
    public var reference: ShakeConfiguration = .medium
    /// Budgets (false shakes per hour) of the recall/false-shake trade-off curve.
    public var tradeoffBudgets: [Double] = [0, 0.5, 1, 2, 5, 10]
    /// Whether to cross-validate (tune on all but one group, score the held-out group).
    public var crossValidate = true
    /// Passes of coordinate descent after the coarse grid (each pass tries every value of
    /// every axis, one axis at a time). Default 3.
    public var maximumRefinementPasses = 3
    /// Coordinate descents per search, each from one of the best distinct configurations
    /// replayed so far. Default 4.
    public var refinementStarts = 4
    /// Replays run at once. Default: the active processor count.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount

    public init() {}
}

/// How far a tuning run has got, for a progress display.
public struct TuningProgress: Sendable {
    /// Samples replayed so far (one configuration over one recording counts its samples).
    public var samplesDone: Int
    /// The current estimate of all samples the run will replay (≥ `samplesDone`).
    public var samplesEstimated: Int
    /// Distinct configurations evaluated so far.
    public var configurationsEvaluated: Int
    /// What the run is doing: "grid", "refining", "trade-off", "cross-validation".
    public var stage: String

    /// Done fraction, 0 to 1.
    public var fraction: Double {
        samplesEstimated > 0 ? min(1, Double(samplesDone) / Double(samplesEstimated)) : 0
    }
}
