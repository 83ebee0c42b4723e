import Foundation
import Testing

/// A recording whose acceleration has gravity taken out (a linear accelerometer's export, such as
/// Sensor Logger's Accelerometer.csv) is read as it is, but every command that reads recordings
/// says so on stderr, naming the file, and says nothing of a recording with gravity.
@Suite struct GravityFreeWarningTests {
    /// 2 s at 100 Hz of a device wobbling, `gravity` m/s² added to z, labelled.
    static func rows(gravity: Double) -> String {
        var text = "time_s,x,y,z,shake\n"
        for i in 0 ..< 200 {
            let wobble = 0.2 * Double((i * 3) % 7 - 3)
            text += "\(Double(i) / 100),\(wobble),-0.1,\(gravity + wobble),0\n"
        }
        return text
    }

    /// OUT stands for a file in the test's folder.
    static let commands: [[String]] = [
        ["replay"], ["replay", "--format", "json"], ["evaluate"], ["tune", "-j", "1", "--range", "onsetAcceleration=10"],
        ["plot", "-o", "OUT"],
    ]

    /// The lines of stderr that are warnings (tune and plot also say what they do there).
    static func warnings(_ err: String) -> [Substring] {
        err.split(separator: "\n").filter { $0.hasPrefix("Warning:") }
    }

    @Test(arguments: commands)
    func aRecordingWithGravityTakenOutIsReadWithAWarning(command: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        func arguments(_ output: String) -> [String] { command.map { $0 == "OUT" ? folder.file(output) : $0 } }
        let withoutGravity = try folder.write("Accelerometer.csv", Self.rows(gravity: 0))
        let run = runShake(arguments("without.svg") + [withoutGravity])
        #expect(run.status == 0, "\(run.err)")
        let warnings = Self.warnings(run.err)
        #expect(warnings.count == 1, "\(run.err)")
        let warning = try #require(warnings.first)
        #expect(warning.hasPrefix("Warning: \(withoutGravity): |a| averages 0."))
        #expect(warning.contains(" over the first 64 samples, where gravity alone gives 9.8 m/s²: the acceleration looks like it has gravity taken out"))

        let withGravity = try folder.write("TotalAcceleration.csv", Self.rows(gravity: 9.8))
        let quiet = runShake(arguments("with.svg") + [withGravity])
        #expect(quiet.status == 0, "\(quiet.err)")
        #expect(Self.warnings(quiet.err).isEmpty, "\(quiet.err)")
    }

    /// 2 s at 100 Hz of Sensor Logger's `time,seconds_elapsed,z,y,x`, a hand's small motion
    /// without gravity whose first 0.6 s hold a shake (15 m/s² at 4 Hz along x), plus `gravity`
    /// m/s² on z.
    static func sensorLoggerRowsStartingWithAShake(gravity: Double) -> String {
        var text = "time,seconds_elapsed,z,y,x\n"
        for i in 0 ..< 200 {
            let wobble = 0.2 * Double((i * 3) % 7 - 3)
            let x = i < 60 ? 15 * sin(2 * Double.pi * 4 * Double(i) / 100) : 0.05
            text += "\(1_700_000_000_000_000_000 + i * 10_000_000),\(Double(i) / 100),\(gravity + wobble),\(-wobble),\(x)\n"
        }
        return text
    }

    /// Sensor Logger's Accelerometer.csv that begins with a shake: its |a| over the first 64
    /// samples is the shake's, over the 4.9 m/s² limit, and it had been read without a word;
    /// its header and name tell it. Evaluate and tune need labels, which Sensor Logger does not
    /// write (convert adds them, and warns here).
    @Test(arguments: [["replay"], ["replay", "--format", "json"], ["replay", "--explain"], ["plot", "-o", "OUT"],
                      ["convert", "-o", "OUT"]])
    func sensorLoggersAccelerometerStartingWithAShakeIsReadWithAWarning(command: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        func arguments(_ output: String) -> [String] { command.map { $0 == "OUT" ? folder.file(output) : $0 } }
        let accelerometer = try folder.write("Accelerometer.csv", Self.sensorLoggerRowsStartingWithAShake(gravity: 0))
        let run = runShake(arguments("without.out") + [accelerometer])
        #expect(run.status == 0, "\(run.err)")
        let expected: Substring = "Warning: \(accelerometer): its header and name are those of Sensor Logger's "
            + "Accelerometer.csv, whose acceleration has gravity taken out, in which the detector misses shakes; use the "
            + "export with gravity (Sensor Logger: TotalAcceleration.csv, or on iOS 'shake convert Accelerometer.csv "
            + "--add-gravity Gravity.csv'; phyphox: Acceleration with g; Physics Toolbox: g-Force Meter)"
        #expect(Self.warnings(run.err) == [expected], "\(run.err)")

        let total = try folder.write("TotalAcceleration.csv", Self.sensorLoggerRowsStartingWithAShake(gravity: 9.8))
        let quiet = runShake(arguments("with.out") + [total])
        #expect(quiet.status == 0, "\(quiet.err)")
        #expect(Self.warnings(quiet.err).isEmpty, "\(quiet.err)")
    }
}
