@testable import ShakeCLI
import ShakeDetection
import ShakeRecording
import Testing

/// After tuning, `shake evaluate --list` says why each labelled shake was missed; a shake whose
/// |l| stayed just under a raised onset must not read as reaching it ("12.0 m/s², under the onset
/// (onsetAcceleration 12.0 m/s²)").
@Suite struct TuneMissedShakeWordingTests {
    @Test(arguments: [
        (11.96, 12.0, "no half-wave: largest |l| 11.96 m/s², under the onset (onsetAcceleration 12.00 m/s²)"),
        (11.9996, 12.0, "no half-wave: largest |l| 12.000 m/s², under the onset (onsetAcceleration 12.000 m/s²)"),
        (9.8, 12.0, "no half-wave: largest |l| 9.8 m/s², under the onset (onsetAcceleration 12.0 m/s²)"),
        (7.3, 10.0, "no half-wave: largest |l| 7.3 m/s², under the onset (onsetAcceleration 10.0 m/s²)"),
    ])
    func levelUnderTheOnsetNeverReadsAsTheOnset(largest: Double, onset: Double, says: String) {
        var configuration = ShakeConfiguration.medium
        configuration.onsetAcceleration = onset
        configuration.releaseAcceleration = onset / 2
        let missed = MissedShakeExplanation(shake: LabeledShake(start: 1, end: 2), largestLinearAcceleration: largest,
                                            chains: [])
        #expect(NearMissReport.missedWhy(missed, configuration: configuration) == says)
    }
}
