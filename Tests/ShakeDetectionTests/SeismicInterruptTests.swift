import ShakeDetection
import Testing

/// The Seismic baseline's `ended` for a stream interrupted with a stale or NaN time.
@Suite struct SeismicInterruptTests {
    /// Fires on half a second of |a| well above the medium threshold at 100 Hz, and returns the
    /// detector still holding its `ended`.
    static func fired() -> (SeismicDetector, ShakeEvent?) {
        var detector = SeismicDetector(thresholdMetersPerSecondSquared: SeismicDetector.mediumThreshold)
        var began: ShakeEvent?
        for index in 0..<100 where began == nil {
            let time = 10 + Double(index) / 100
            began = detector.process(Sample(time: time, x: 20, y: 0, z: standardGravity))
        }
        return (detector, began)
    }

    @Test(arguments: [0, -Double.infinity, Double.nan])
    func anEarlierOrNonFiniteInterruptEndsTheShakeAtItsOwnTime(time: Double) throws {
        var (detector, began) = Self.fired()
        let shake = try #require(began)
        #expect(shake.phase == .began)
        let interrupted = detector.interrupt(at: time)
        let ended = try #require(interrupted)
        #expect(ended.phase == .ended)
        #expect(ended.time == shake.time)
    }

    @Test func aLaterInterruptEndsTheShakeThen() throws {
        var (detector, began) = Self.fired()
        #expect(began != nil)
        let interrupted = detector.interrupt(at: 12)
        let ended = try #require(interrupted)
        #expect(ended.phase == .ended && ended.time == 12)
    }
}
