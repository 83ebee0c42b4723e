import ShakeDetection

/// One tunable field of `ShakeConfiguration` and the values a tuner tries for it.
///
/// The search is written over a list of axes, so following a change of the configuration's
/// fields is an edit of `ParameterAxis.standard` only.
public struct ParameterAxis: Sendable {
    /// Where the value lives in the configuration.
    public enum Field: Sendable {
        /// A real-valued field (seconds, hertz or m/s²).
        case real(WritableKeyPath<ShakeConfiguration, Double> & Sendable)
        /// A whole-number field (a count); candidate values are rounded.
        case whole(WritableKeyPath<ShakeConfiguration, Int> & Sendable)
        /// A value derived from other fields, e.g. one threshold as a fraction of another, so every
        /// candidate keeps the fields' constraints. Axes apply in order: `set` may read fields of
        /// earlier axes.
        case derived(get: @Sendable (ShakeConfiguration) -> Double,
                     set: @Sendable (inout ShakeConfiguration, Double) -> Void)
    }

    /// The field's name, as in the configuration's JSON (for reports).
    public var name: String
    public var field: Field
    /// Every value the refinement may try, ascending, without repeats.
    public var values: [Double]
    /// Indices into `values` of the coarse grid's values.
    public var coarseIndices: [Int]

    /// An axis trying `values` (sorted and de-duplicated here); the coarse grid uses
    /// `coarse` (each must be one of `values`; default: every value).
    /// - Precondition: `values` holds a value, and `coarse` only values of `values`.
    public init(_ name: String, _ field: Field, values: [Double], coarse: [Double]? = nil) {
        self.name = name
        self.field = field
        let sorted = Array(Set(values)).sorted()
        precondition(!sorted.isEmpty, "axis \(name) needs at least one value")
        self.values = sorted
        let coarseValues = Array(Set(coarse ?? sorted)).sorted()
        coarseIndices = coarseValues.map { value in
            guard let index = sorted.firstIndex(of: value) else {
                preconditionFailure("axis \(name): coarse value \(value) is not among its values")
            }
            return index
        }
    }

    /// This axis's value in `configuration`.
    public func value(in configuration: ShakeConfiguration) -> Double {
        switch field {
        case .real(let path): configuration[keyPath: path]
        case .whole(let path): Double(configuration[keyPath: path])
        case .derived(let get, _): get(configuration)
        }
    }

    /// Sets this axis's field of `configuration` to `value` (rounded for whole-number fields).
    public func apply(_ value: Double, to configuration: inout ShakeConfiguration) {
        switch field {
        case .real(let path): configuration[keyPath: path] = value
        case .whole(let path): configuration[keyPath: path] = Int(value.rounded())
        case .derived(_, let set): set(&configuration, value)
        }
    }

    /// The span of the candidate values, used to normalise distances (1 when there is one value).
    var span: Double {
        let span = values[values.count - 1] - values[0]
        return span > 0 ? span : 1
    }
}

extension ParameterAxis {
    /// The axes `shake tune` searches by default. The coarse grid is
    /// 4 × 2 × 2 × 3 × 3 × 2 = 288 points (onset, release fraction, reversal interval,
    /// half-waves, linearity, gravity time constant); refinement then tries every listed value of
    /// every axis, including those with a single coarse value (the medium preset's).
    /// Every combination passes `ShakeConfiguration.validate()` (release below onset, minimum
    /// below maximum reversal interval, smoothing shorter than gravity).
    ///
    /// Written against `ShakeConfiguration`'s fields; when they change, this list is the one
    /// place to edit. `saturationAcceleration` (a property of the sensor), the smoothing window
    /// (one 25 Hz sample, for rate invariance), `maximumGapSeconds` and `maximumShakeSeconds` are
    /// left at the reference's values, and so are the ongoing-motion fields: a labelled corpus
    /// whose shakes all start from a pause (as `dev`'s do) cannot tell their values apart.
    public static let standard: [ParameterAxis] = [
        ParameterAxis("onsetAcceleration", .real(\.onsetAcceleration),
                      values: [7, 8, 9, 10, 11, 12, 13, 14, 16],
                      coarse: [8, 10, 12, 14]),
        ParameterAxis("releaseAcceleration / onsetAcceleration",
                      .derived(get: { $0.releaseAcceleration / $0.onsetAcceleration },
                               // To a nanometre per s²: 7 × 0.35 is 2.45, not 2.4499999999999997
                               // (what the written configuration would say), and a base's
                               // release comes back as it was.
                               set: { $0.releaseAcceleration = ($0.onsetAcceleration * $1 * 1e9).rounded() / 1e9 }),
                      values: [0.35, 0.5, 0.6, 0.7, 0.8],
                      coarse: [0.5, 0.7]),
        ParameterAxis("maximumReversalIntervalSeconds", .real(\.maximumReversalIntervalSeconds),
                      values: [0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8],
                      coarse: [0.35, 0.6]),
        ParameterAxis("minimumHalfWaves", .whole(\.minimumHalfWaves),
                      values: [3, 4, 5, 6],
                      coarse: [3, 4, 5]),
        ParameterAxis("maximumLinearity", .real(\.maximumLinearity),
                      values: [0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 0.8],
                      coarse: [0.45, 0.55, 0.7]),
        ParameterAxis("gravityTimeConstantSeconds", .real(\.gravityTimeConstantSeconds),
                      values: [0.2, 0.3, 0.4, 0.5, 0.7, 1.0],
                      coarse: [0.3, 0.5]),
        ParameterAxis("maximumIntervalRatio", .real(\.maximumIntervalRatio),
                      values: [2, 3, 4, 5, 6, 8],
                      coarse: [4]),
        ParameterAxis("reversalCosine", .real(\.reversalCosine),
                      values: [-0.8, -0.6, -0.5, -0.4, -0.3, -0.2],
                      coarse: [-0.4]),
        ParameterAxis("minimumReversalIntervalSeconds", .real(\.minimumReversalIntervalSeconds),
                      values: [0.03, 0.04, 0.05, 0.08, 0.12],
                      coarse: [0.04]),
        ParameterAxis("linearityTimeConstantSeconds", .real(\.linearityTimeConstantSeconds),
                      values: [0.25, 0.35, 0.5, 0.7, 1.0],
                      coarse: [0.5]),
        ParameterAxis("quietSeconds", .real(\.quietSeconds),
                      values: [0.2, 0.3, 0.4, 0.5, 0.7],
                      coarse: [0.4]),
        ParameterAxis("refractorySeconds", .real(\.refractorySeconds),
                      values: [0, 0.15, 0.3, 0.5, 0.8],
                      coarse: [0.3]),
    ]
}

extension ParameterAxis {
    /// This axis with only the values in `range` (both ends included), or nil when none of its
    /// values lies in it. The coarse grid keeps its values in the range, or, when none is, the
    /// value in the range nearest `preferred` (the reference's value, say).
    public func restricted(to range: ClosedRange<Double>, preferred: Double) -> ParameterAxis? {
        let kept = values.filter { range.contains($0) }
        guard let nearest = kept.min(by: { abs($0 - preferred) < abs($1 - preferred) }) else { return nil }
        let coarse = coarseIndices.map { values[$0] }.filter { range.contains($0) }
        return ParameterAxis(name, field, values: kept, coarse: coarse.isEmpty ? [nearest] : coarse)
    }

    /// This axis with the single value `value` (which need not be one of its values): the
    /// parameter is held there, not searched.
    public func fixed(at value: Double) -> ParameterAxis {
        ParameterAxis(name, field, values: [value])
    }

    /// Whether `text` names this axis: its name, ignoring spaces and case
    /// (`releaseAcceleration/onsetAcceleration` for the release fraction).
    public func isNamed(_ text: String) -> Bool {
        func key(_ name: String) -> String { name.filter { $0 != " " }.lowercased() }
        return key(text) == key(name)
    }
}
