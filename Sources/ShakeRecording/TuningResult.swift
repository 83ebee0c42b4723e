import ShakeDetection

/// What `Tuner.run` found: the chosen configuration, its in-sample and cross-validated
/// figures, and the recall/false-shake trade-off curve.
public struct TuningResult: Sendable, Encodable {
    /// The configuration with the highest recall within the budget (see `Tuner`).
    public var configuration: ShakeConfiguration
    /// The budget it was chosen under, false shakes per hour.
    public var maximumFalsePerHour: Double
    /// False when no configuration tried stayed within the budget without duplicates; the
    /// configuration is then the one with the fewest false shakes and duplicates.
    public var metBudget: Bool
    /// Figures of `configuration` on every recording it was tuned on (optimistic: the same data).
    public var inSample: EvaluationSummary
    /// Figures of `TuningOptions.reference` (the medium preset), not tuned, on every recording:
    /// what the chosen configuration's held-out figures should beat.
    public var referenceSummary: EvaluationSummary
    /// Best recall at each budget of `TuningOptions.tradeoffBudgets`, on all recordings (in sample).
    public var tradeoff: [TradeoffPoint]
    /// Held-out figures; nil when there is only one recording or cross-validation was off.
    public var crossValidation: CrossValidation?
    /// Distinct configurations replayed over at least one recording.
    public var configurationsEvaluated: Int
    public var recordings: Int
    public var samples: Int
    /// For each axis of `TuningOptions.axes`, in their order, the values that some configuration
    /// replayed had, ascending: an axis's values missing here were ruled out by `validate()`
    /// wherever the search went (onsets above a base's `ongoingMotionPeakAcceleration`, say).
    /// Not encoded: `shake tune` reports them as its `searched_values`.
    public var valuesTried: [[Double]] = []

    enum CodingKeys: String, CodingKey {
        case configuration
        case maximumFalsePerHour = "max_false_per_hour"
        case metBudget = "met_budget"
        case inSample = "in_sample"
        case referenceSummary = "reference_in_sample"
        case tradeoff
        case crossValidation = "cross_validation"
        case configurationsEvaluated = "configurations_evaluated"
        case recordings, samples
    }
}

/// One point of the trade-off curve: the best configuration whose false shakes per hour stay
/// within `budget` (without duplicates).
public struct TradeoffPoint: Sendable, Encodable {
    /// False shakes per hour allowed.
    public var budget: Double
    public var metBudget: Bool
    public var summary: EvaluationSummary
    public var configuration: ShakeConfiguration

    enum CodingKeys: String, CodingKey {
        case budget = "max_false_per_hour"
        case metBudget = "met_budget"
        case summary, configuration
    }
}

/// Cross-validated figures: for each fold, tune on the other recordings and score the
/// held-out ones with the configuration chosen without them; `pooled` adds the held-out
/// counts of all folds.
public struct CrossValidation: Sendable, Encodable {
    /// "leave-one-group-out" (groups: `TuningRecording.group(ofPath:)`) when there are at
    /// least 3 groups, else "k-fold by file" (k = min(5, recordings), file i in fold i mod k,
    /// files sorted by path).
    public var method: String
    public var folds: [Fold]
    public var pooled: EvaluationSummary
    /// Whether the pooled held-out figures stay within the budget without duplicates. False
    /// means the chosen values fit the recordings they were tuned on more than others.
    public var metBudget: Bool

    enum CodingKeys: String, CodingKey {
        case method, folds, pooled
        case metBudget = "met_budget"
    }

    public struct Fold: Sendable, Encodable {
        /// The held-out group's name, or "fold N".
        public var name: String
        public var heldOutFiles: [String]
        /// Chosen on the other recordings.
        public var configuration: ShakeConfiguration
        public var metBudget: Bool
        /// Figures on the recordings it was tuned on.
        public var training: EvaluationSummary
        /// Figures on the held-out recordings.
        public var heldOut: EvaluationSummary

        enum CodingKeys: String, CodingKey {
            case name
            case heldOutFiles = "held_out_files"
            case configuration
            case metBudget = "met_budget"
            case training
            case heldOut = "held_out"
        }
    }
}
