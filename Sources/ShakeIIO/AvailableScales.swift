/// Parsing `in_accel_scale_available`.
enum AvailableScales {
    /// The scales in `text`, m/s² per LSB, ascending and each once: a list (`"0.000598 0.001196"`,
    /// spaces, tabs, commas or line ends between), or a range (`"[min step max]"`), given as its
    /// two ends (the narrowest and the widest measuring range). Empty text is an empty list; nil
    /// when anything in it is not a positive number.
    static func parse(_ text: String) -> [Double]? {
        let trimmed = text.trimmingWhitespace()
        let bracketed = trimmed.hasPrefix("[") && trimmed.hasSuffix("]")
        let body = bracketed ? String(trimmed.dropFirst().dropLast()) : trimmed
        var values: [Double] = []
        for token in body.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" }) {
            guard let value = Double(String(token)), value.isFinite, value > 0 else { return nil }
            values.append(value)
        }
        if bracketed {
            guard values.count == 3, values[2] >= values[0] else { return nil }
            values = [values[0], values[2]]
        }
        return Array(Set(values)).sorted()
    }
}
