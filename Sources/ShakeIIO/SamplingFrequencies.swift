/// Parsing and choosing IIO sampling frequencies.
enum SamplingFrequencies {
    /// Parses `sampling_frequency_available`: a list (`"12.5 25 50 100"`) or a range
    /// (`"[min step max]"`, expanded up to 10 000 values). Values in hertz, ascending (0 and
    /// less left out); nil when a word is no number (`12.5Hz`) or the range is none.
    static func parse(_ text: String) -> [Double]? {
        let trimmed = text.trimmingWhitespace()
        if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
            let words = trimmed.dropFirst().dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" })
            let parts = words.compactMap { Double(String($0)) }
            guard parts.count == 3, words.count == 3, parts.allSatisfy(\.isFinite), parts[1] > 0, parts[2] >= parts[0]
            else { return nil }
            let count = min(10_000, Int(((parts[2] - parts[0]) / parts[1]).rounded(.down)) + 1)
            return (0..<count).map { parts[0] + Double($0) * parts[1] }
        }
        var values: [Double] = []
        for word in trimmed.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" }) {
            guard let value = Double(String(word)) else { return nil }
            if value.isFinite && value > 0 { values.append(value) }
        }
        return Array(Set(values)).sorted()
    }

    /// The available value closest to `requested` (hertz); `requested` itself when none is listed.
    /// Ties go to the higher rate, so no shake detail is lost.
    static func nearest(to requested: Double, in available: [Double]) -> Double {
        guard !available.isEmpty else { return requested }
        return available.min { a, b in
            let da = abs(a - requested), db = abs(b - requested)
            return da == db ? a > b : da < db
        }!
    }
}
