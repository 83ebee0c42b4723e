import ShakeDetection
import ShakeRecording
import Testing

/// `EarlyMagnitude` as a tool uses it to warn of a recording with gravity taken out.
@Suite struct EarlyMagnitudeTests {
    /// `count` samples at 100 Hz of a hand's small motion without gravity (|a| about 0.5 m/s²).
    static func withoutGravity(_ count: Int) -> [Sample] {
        (0 ..< count).map { Sample(time: Double($0) / 100, x: 0.3, y: -0.4, z: 0.1 * Double($0 % 3)) }
    }

    /// From 16 samples on the mean tells; 15 tell nothing, however low their mean.
    @Test func sixteenSamplesAreTheFewestThatTell() {
        let fifteen = EarlyMagnitude(Self.withoutGravity(15))
        #expect(fifteen.count == 15 && fifteen.mean! < 1)
        #expect(!fifteen.meanLooksGravityFree && !fifteen.looksGravityFree)
        let sixteen = EarlyMagnitude(Self.withoutGravity(16))
        #expect(sixteen.meanLooksGravityFree && sixteen.looksGravityFree)
    }
}
