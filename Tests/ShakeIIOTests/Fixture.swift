import Foundation
import Testing

/// A synthetic recording for the emulator tests: a device at rest (gravity on z, a small
/// wobble so that every sample differs) with two strong shakes along x.
struct Fixture {
    /// Sample rate, Hz.
    static let rateHertz = 50.0
    /// Length, s.
    static let duration = 12.0
    /// Shakes: start and end in seconds; 3.5 Hz, ±22 m/s² along x.
    static let shakes: [(start: Double, end: Double)] = [(3.0, 4.6), (8.0, 9.6)]

    struct Row: Equatable {
        var time: Double
        var x: Double
        var y: Double
        var z: Double
    }

    let rows: [Row]
    let path: String

    /// Writes the fixture as a canonical CSV into `directory`.
    init(in directory: URL) throws {
        var rows: [Row] = []
        let count = Int(Self.duration * Self.rateHertz)
        for index in 0..<count {
            let t = Double(index) / Self.rateHertz
            var x = 0.4 * sin(2 * .pi * 0.37 * t) + 0.002 * Double(index % 7)
            let y = 0.3 * cos(2 * .pi * 0.23 * t) - 0.15
            let z = 9.80665 + 0.2 * sin(2 * .pi * 0.11 * t)
            for shake in Self.shakes where t >= shake.start && t < shake.end {
                x += 22 * sin(2 * .pi * 3.5 * (t - shake.start))
            }
            rows.append(Row(time: Self.round(t, 6), x: Self.round(x, 5), y: Self.round(y, 5), z: Self.round(z, 5)))
        }
        self.rows = rows
        path = directory.appendingPathComponent("fixture.csv").path
        var text = "# device: synthetic shakes for ShakeIIO tests\n# rate_hz: 50\n# units: m/s^2\ntime_s,x,y,z,shake\n"
        for row in rows {
            let inShake = Self.shakes.contains { row.time >= $0.start && row.time < $0.end }
            text += String(format: "%.6f,%.5f,%.5f,%.5f,%d\n", row.time, row.x, row.y, row.z, inShake ? 1 : 0)
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func round(_ value: Double, _ decimals: Int) -> Double {
        let factor = pow(10, Double(decimals))
        return (value * factor).rounded() / factor
    }

    /// Reads a canonical CSV written by `shake record`: metadata and rows.
    static func readRecording(_ path: String) throws -> (metadata: [String: String], rows: [Row]) {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var metadata: [String: String] = [:]
        var rows: [Row] = []
        var sawHeader = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#") {
                let parts = line.dropFirst().split(separator: ":", maxSplits: 1)
                if parts.count == 2 {
                    metadata[parts[0].trimmingCharacters(in: .whitespaces)] = parts[1].trimmingCharacters(in: .whitespaces)
                }
                continue
            }
            if !sawHeader {
                sawHeader = true
                guard line == "time_s,x,y,z" else { throw RecordingFormatError(line: String(line)) }
                continue
            }
            let fields = line.split(separator: ",").map { Double($0) }
            guard fields.count == 4, fields.allSatisfy({ $0 != nil }) else {
                throw RecordingFormatError(line: String(line))
            }
            rows.append(Row(time: fields[0]!, x: fields[1]!, y: fields[2]!, z: fields[3]!))
        }
        guard sawHeader else { throw RecordingFormatError(line: "(no header)") }
        return (metadata, rows)
    }

    struct RecordingFormatError: Error { var line: String }
}

extension Fixture {
    /// The emulator's default in_accel_scale, m/s² per LSB.
    static let scale = 0.004788
    /// Quantisation of the raw format plus the 5-decimal rounding of fixture and recording.
    static let tolerance = scale / 2 + 1.1e-5

    /// Expects `recorded` to equal `expected` sample by sample, within the raw format's quantisation.
    static func expectSamples(_ recorded: [Row], match expected: some Collection<Row>,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(recorded.count == expected.count, sourceLocation: sourceLocation)
        var worst = 0.0
        for (got, want) in zip(recorded, expected) {
            #expect(abs(got.time - want.time) < 2e-6, "time \(got.time) vs \(want.time)", sourceLocation: sourceLocation)
            worst = max(worst, abs(got.x - want.x), abs(got.y - want.y), abs(got.z - want.z))
        }
        #expect(worst <= tolerance, "largest difference \(worst) m/s²", sourceLocation: sourceLocation)
    }

    /// Follows polled samples through `fixtureRows` in playback order. Polling reads the three
    /// raw files one after another, as on any polled device, so an update can fall between them
    /// (a torn sample): each axis may come from the fixture sample or one of the next three.
    /// Returns how many polls matched no fixture sample and the fixture position reached.
    static func followPolls(_ rows: [Row], through fixtureRows: [Row]) -> (unmatched: Int, position: Int) {
        func matches(_ row: Row, at j: Int) -> Bool {
            let near = fixtureRows[j..<min(j + 4, fixtureRows.count)]
            return near.contains { abs($0.x - row.x) <= tolerance }
                && near.contains { abs($0.y - row.y) <= tolerance }
                && near.contains { abs($0.z - row.z) <= tolerance }
        }
        var position = 0
        var unmatched = 0
        for row in rows {
            if let match = (position..<fixtureRows.count).first(where: { matches(row, at: $0) }) {
                position = match
            } else {
                unmatched += 1
            }
        }
        return (unmatched, position)
    }
}
