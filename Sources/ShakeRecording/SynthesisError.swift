/// A script or sensor setting the synthesizer cannot render.
public struct SynthesisError: Error, Hashable, CustomStringConvertible {
    /// Where the bad value is: `"sensor"` or `"segment 3 (shake)"` (segments count from 1).
    public var location: String
    /// The parameter's name, e.g. `"frequencyHertz"`.
    public var parameter: String
    /// The offending value.
    public var value: Double
    /// The allowed range, as text.
    public var allowed: String

    public init(location: String, parameter: String, value: Double, allowed: String) {
        self.location = location
        self.parameter = parameter
        self.value = value
        self.allowed = allowed
    }

    public var description: String {
        "\(location): \(parameter) = \(value) is outside the allowed range \(allowed)"
    }

    /// Throws unless `value` is finite and within `range`.
    static func check(
        _ value: Double, in range: ClosedRange<Double>, _ parameter: String, _ location: String
    ) throws(SynthesisError) {
        guard value.isFinite, range.contains(value) else {
            throw SynthesisError(
                location: location, parameter: parameter, value: value,
                allowed: "\(range.lowerBound)…\(range.upperBound)")
        }
    }
}
