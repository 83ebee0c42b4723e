import Testing
import ShakeDetection

/// Behaviour that a mutation sweep of the detector found no test pinned: each test fails when
/// the decision it names is changed (a comparison flipped, a reset dropped, a term left out),
/// and says what a user would see.
@Suite struct PinnedBehaviourTests {
    /// A shake cancelled as too long waits for a pause of `quietSeconds`; after it, the next
    /// shake begins and ends as usual (the wait does not last for ever).
    @Test(arguments: [25.0, 100, 400])
    func aShakeAfterATooLongOneAndAPauseIsFound(rate: Double) throws {
        var configuration = ShakeConfiguration.default
        configuration.maximumShakeSeconds = 2
        var m = Motion(noise: 0.05)
        m.shakes = [
            .init(start: 1, duration: 4, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0)),
            .init(start: 6.5, duration: 1.5, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0)),
        ]
        let result = events(m.samples(duration: 10, rate: rate), configuration: configuration)
        try #require(result.map(\.phase) == [.began, .cancelled, .began, .ended], "at \(rate) Hz: \(result)")
        #expect(result[1].cancellationReason == .tooLong)
        #expect(result[2].startTime > 6.4 && result[2].time < 7.2, "at \(rate) Hz: \(result[2])")
    }}
