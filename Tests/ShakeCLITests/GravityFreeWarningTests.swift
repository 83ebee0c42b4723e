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

    static let commands: [[String]] = [["replay"], ["replay", "--format", "json"], ["evaluate"]]

    @Test(arguments: commands)
    func aRecordingWithGravityTakenOutIsReadWithAWarning(command: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let withoutGravity = try folder.write("Accelerometer.csv", Self.rows(gravity: 0))
        let run = runShake(command + [withoutGravity])
        #expect(run.status == 0, "\(run.err)")
        #expect(!run.out.isEmpty)
        #expect(run.err.hasPrefix("Warning: \(withoutGravity): |a| averages 0."), "\(run.err)")
        #expect(run.err.contains(" over the first 64 samples, where gravity alone gives 9.8 m/s²: the acceleration looks like it has gravity taken out"))
        #expect(run.err.components(separatedBy: "Warning:").count == 2)

        let withGravity = try folder.write("TotalAcceleration.csv", Self.rows(gravity: 9.8))
        let quiet = runShake(command + [withGravity])
        #expect(quiet.status == 0, "\(quiet.err)")
        #expect(quiet.err.isEmpty, "\(quiet.err)")
    }
}
