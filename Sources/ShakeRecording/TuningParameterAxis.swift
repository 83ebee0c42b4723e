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
        }
    }

    /// Sets this axis's field of `configuration` to `value` (rounded for whole-number fields).
    public func apply(_ value: Double, to configuration: inout ShakeConfiguration) {
        switch field {
        case .real(let path): configuration[keyPath: path] = value
        case .whole(let path): configuration[keyPath: path] = Int(value.rounded())
        }
    }

    /// The span of the candidate values, used to normalise distances (1 when there is one value).
    var span: Double {
        let span = values[values.count - 1] - values[0]
        return span > 0 ? span : 1
    }
}

extension ParameterAxis {
    /// The axes `shake tune` searches by default: 6 × 3 × 3 × 3 × 2 × 2 = 648 coarse grid points,
    /// then refinement over every listed value.
    ///
    /// Written against `ShakeConfiguration`'s fields; when its field set changes, this list is
    /// the one place to edit.
    public static let standard: [ParameterAxis] = [
        ParameterAxis("thresholdMetersPerSecondSquared", .real(\.thresholdMetersPerSecondSquared),
                      values: [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20],
                      coarse: [7, 9, 11, 13, 16, 20]),
        ParameterAxis("reversalWindowSeconds", .real(\.reversalWindowSeconds),
                      values: [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6],
                      coarse: [0.2, 0.3, 0.4]),
        ParameterAxis("minimumHalfWaves", .whole(\.minimumHalfWaves),
                      values: [2, 3, 4, 5, 6, 7],
                      coarse: [3, 4, 5]),
        ParameterAxis("gravityTimeConstantSeconds", .real(\.gravityTimeConstantSeconds),
                      values: [0.15, 0.25, 0.35, 0.5, 0.7, 1.0, 1.5, 2.0],
                      coarse: [0.25, 0.5, 1.0]),
        ParameterAxis("quietSeconds", .real(\.quietSeconds),
                      values: [0.2, 0.3, 0.4, 0.5, 0.7, 1.0],
                      coarse: [0.3, 0.7]),
        ParameterAxis("refractorySeconds", .real(\.refractorySeconds),
                      values: [0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0],
                      coarse: [0.25, 1.0]),
    ]
}
