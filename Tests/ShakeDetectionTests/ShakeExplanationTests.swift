import Foundation
import Testing
import ShakeDetection

/// `ShakeDetector.process(_:explanation:)`: the half-waves it reports and the began rules that
/// refuse a long enough chain, each with what it measured; and the same events as `process(_:)`.
@Suite struct ShakeExplanationTests {
    struct Explained {
        var events: [ShakeEvent] = []
        var halfWaves: [ShakeExplanation.HalfWave] = []
        var refusals: [ShakeExplanation.Refusal] = []
        var began: [ShakeExplanation.Began] = []
    }

    static func explain(_ samples: [Sample], configuration: ShakeConfiguration = .medium) -> Explained {
        var detector = ShakeDetector(configuration: configuration)
        var result = Explained()
        for sample in samples {
            var explanation = ShakeExplanation()
            if let event = detector.process(sample, explanation: &explanation) { result.events.append(event) }
            if let halfWave = explanation.halfWave { result.halfWaves.append(halfWave) }
            if let refusal = explanation.refusal { result.refusals.append(refusal) }
            if let began = explanation.began { result.began.append(began) }
        }
        if let last = samples.last, let event = detector.interrupt(at: last.time) { result.events.append(event) }
        return result
    }

    static func shake(at start: Double, seconds: Double, hertz: Double, g: Double,
                      direction: (Double, Double, Double) = unit(1, 0.2, 0)) -> Motion.Shake {
        Motion.Shake(start: start, duration: seconds, frequency: hertz, amplitude: g * standardGravity,
                     direction: direction)
    }

    /// An elongated ellipse (3 Hz, 2 g along x and 1.6 g along y): its peaks alternate along x
    /// and link, but the motion is not along a line.
    static var ellipse: Motion {
        var m = Motion(noise: 0.05)
        m.shakes = [shake(at: 2, seconds: 1.5, hertz: 3, g: 2, direction: (1, 0, 0))]
        // The y component, a quarter period later: sin(2π f (t − s) + π/2).
        m.shakes.append(shake(at: 2 - 1.0 / 12, seconds: 1.5, hertz: 3, g: 1.6, direction: (0, 1, 0)))
        return m
    }

    @Test(arguments: [25.0, 100, 400])
    func explainingChangesNoEvent(_ rate: Double) {
        var shakes = Motion(noise: 0.1)
        shakes.shakes = [Self.shake(at: 1, seconds: 1.2, hertz: 4, g: 2), Self.shake(at: 4, seconds: 12, hertz: 5, g: 2.5)]
        var walk = OngoingMotionTests.walking()
        walk.shakes = [Self.shake(at: 8, seconds: 1, hertz: 4, g: 1.5), Self.shake(at: 12, seconds: 1, hertz: 4, g: 3)]
        for (name, motion, seconds) in [("shakes", shakes, 18.0), ("walk", walk, 15), ("ellipse", Self.ellipse, 5)] {
            let samples = motion.samples(duration: seconds, rate: rate, jitter: 0.05)
            let explained = Self.explain(samples)
            #expect(explained.events == events(samples), "\(name) at \(rate) Hz")
            #expect(!explained.events.isEmpty || name == "ellipse", "\(name) at \(rate) Hz should have events")
        }
    }

    /// A 3 Hz, 2 g shake after a rest: every half-wave after the first links to the one before
    /// (opposite peaks a sixth of a second apart), the chain grows by one each time, and nothing
    /// is refused: it begins on the fourth.
    @Test(arguments: [25.0, 100, 1600])
    func halfWavesOfAShakeLinkIntoOneChain(_ rate: Double) {
        var m = Motion(noise: 0.05)
        m.shakes = [Self.shake(at: 2, seconds: 1.5, hertz: 3, g: 2)]
        let explained = Self.explain(m.samples(duration: 4, rate: rate, jitter: 0.05))
        #expect(explained.events.map(\.phase) == [.began, .ended], "at \(rate) Hz")
        #expect(explained.refusals.isEmpty, "at \(rate) Hz: \(explained.refusals)")
        // What the rules measured as it began, on the sample of the `began` event: a straight,
        // steady shake (intervals of a sixth of a second), not in ongoing motion.
        #expect(explained.began.count == 1, "at \(rate) Hz")
        if let began = explained.began.first {
            #expect(began.time == explained.events.first?.time)
            #expect(began.chainStartTime == explained.events.first?.startTime)
            #expect(began.chainHalfWaves == 4)
            #expect(began.linearity < 0.1, "at \(rate) Hz: \(began.linearity)")
            #expect(began.intervalRatio >= 1 && began.intervalRatio < 2.5, "at \(rate) Hz: \(began.intervalRatio)")
            #expect(abs(began.longestIntervalSeconds - 1.0 / 6) < 0.03, "at \(rate) Hz: \(began.longestIntervalSeconds) s")
            #expect(!began.ongoingMotion)
        }
        let halfWaves = explained.halfWaves
        #expect(halfWaves.count >= 8, "at \(rate) Hz: \(halfWaves.count) half-waves")
        #expect(halfWaves.first?.link == .nothingBefore, "at \(rate) Hz")
        for (index, halfWave) in halfWaves.enumerated() {
            #expect(halfWave.chainHalfWaves == index + 1, "at \(rate) Hz, half-wave \(index)")
            #expect(halfWave.peakAcceleration > 15 && halfWave.peakAcceleration < 22,
                    "at \(rate) Hz, half-wave \(index): \(halfWave.peakAcceleration) m/s²")
            #expect(halfWave.startTime <= halfWave.peakTime, "at \(rate) Hz, half-wave \(index)")
            guard index > 0 else { continue }
            guard case .linked(let cosine, let interval) = halfWave.link else {
                Issue.record("at \(rate) Hz, half-wave \(index): \(halfWave.link)")
                continue
            }
            #expect(cosine < -0.9, "at \(rate) Hz, half-wave \(index): cosine \(cosine)")
            #expect(abs(interval - 1.0 / 6) < 0.03, "at \(rate) Hz, half-wave \(index): \(interval) s")
        }
    }

    /// The ellipse links enough half-waves, but is refused as not straight, with its linearity
    /// (about 0.8, the ratio of its axes) against the limit.
    @Test(arguments: [25.0, 100, 400])
    func ellipseIsRefusedAsNotStraight(_ rate: Double) {
        let explained = Self.explain(Self.ellipse.samples(duration: 5, rate: rate, jitter: 0.05))
        #expect(explained.events.isEmpty, "at \(rate) Hz: \(explained.events.map(\.phase))")
        #expect(!explained.refusals.isEmpty, "at \(rate) Hz")
        for refusal in explained.refusals {
            #expect(refusal.chainHalfWaves >= ShakeConfiguration.medium.minimumHalfWaves)
            #expect(refusal.chainStartTime < refusal.time && refusal.chainStartTime >= 1.9)
            guard case .notStraight(let linearity, let limit) = refusal.reason else {
                Issue.record("at \(rate) Hz: \(refusal.reason)")
                continue
            }
            #expect(limit == 0.5)
            #expect(linearity > 0.6 && linearity <= 1, "at \(rate) Hz: linearity \(linearity)")
        }
    }

    /// A gentle shake (1.5 g) during a walk is refused for want of strong half-waves, naming how
    /// many of the last four reached 25 m/s² and how many are needed.
    @Test(arguments: [50.0, 400])
    func gentleShakeDuringAWalkIsRefusedAsWeak(_ rate: Double) {
        var m = OngoingMotionTests.walking()
        m.shakes = [Self.shake(at: 8, seconds: 1, hertz: 4, g: 1.5)]
        let explained = Self.explain(m.samples(duration: 11, rate: rate, jitter: 0.05))
        #expect(explained.events.isEmpty, "at \(rate) Hz")
        #expect(explained.began.isEmpty)
        let reasons = explained.refusals.map(\.reason)
        #expect(!reasons.isEmpty, "at \(rate) Hz")
        for reason in reasons {
            #expect(reason == .weakDuringOngoingMotion(strongHalfWaves: 0, needed: 2), "at \(rate) Hz: \(reason)")
        }
    }

    /// A vigorous shake (3 g) during a walk begins in ongoing motion with strong half-waves, and
    /// the report says so.
    @Test(arguments: [50.0, 400])
    func vigorousShakeDuringAWalkBeganInOngoingMotion(_ rate: Double) {
        var m = OngoingMotionTests.walking()
        m.shakes = [Self.shake(at: 8, seconds: 1, hertz: 4, g: 3)]
        let explained = Self.explain(m.samples(duration: 11, rate: rate, jitter: 0.05))
        #expect(explained.began.count == 1, "at \(rate) Hz")
        #expect(explained.began.first?.ongoingMotion == true)
        #expect((explained.began.first?.strongHalfWaves ?? 0) >= ShakeConfiguration.medium.ongoingMotionStrongHalfWaves)
    }

    /// A second shake that starts as the first one ends is refused as refractory until 0.3 s
    /// after the `ended`, and begins after that.
    @Test(arguments: [50.0, 400])
    func shakeRightAfterAnotherIsRefusedUntilTheRefractoryEnds(_ rate: Double) {
        var m = Motion(noise: 0.05)
        // The first shake ends with its last half-wave at about 2.95 s, so `ended` comes about
        // 0.4 s later, before the second starts; at 8 Hz that one has four half-waves 0.2 s in.
        m.shakes = [Self.shake(at: 2, seconds: 1, hertz: 4, g: 2), Self.shake(at: 3.45, seconds: 1, hertz: 8, g: 2)]
        let explained = Self.explain(m.samples(duration: 6, rate: rate, jitter: 0.05))
        let ended = explained.events.first { $0.phase == .ended }
        let began = explained.events.filter { $0.phase == .began }.map(\.time)
        #expect(began.count == 2, "at \(rate) Hz: \(explained.events.map { ($0.phase, $0.time) })")
        let refractory = explained.refusals.filter {
            if case .refractory = $0.reason { return true } else { return false }
        }
        #expect(!refractory.isEmpty, "at \(rate) Hz: \(explained.refusals)")
        for refusal in refractory {
            let expected = (ended?.time ?? 0) + ShakeConfiguration.medium.refractorySeconds
            #expect(refusal.reason == .refractory(until: expected), "at \(rate) Hz")
            #expect(refusal.time < expected)
            #expect(began.last.map { $0 >= expected } == true, "at \(rate) Hz: began \(began)")
        }
    }

    /// Shaking on after a shake is cancelled as too long is refused until the motion pauses.
    @Test func shakingOnAfterTooLongIsRefusedUntilAPause() {
        var m = Motion(noise: 0.05)
        m.shakes = [Self.shake(at: 1, seconds: 13, hertz: 4, g: 2)]
        let explained = Self.explain(m.samples(duration: 15, rate: 100, jitter: 0.05))
        let cancelled = explained.events.first { $0.phase == .cancelled }
        #expect(cancelled?.cancellationReason == .tooLong)
        let afterwards = explained.refusals.filter { $0.time > (cancelled?.time ?? .infinity) }
        #expect(!afterwards.isEmpty)
        #expect(afterwards.allSatisfy { $0.reason == .pauseNeeded }, "\(afterwards.map(\.reason))")
        #expect(explained.events.filter { $0.phase == .began }.count == 1)
    }

    /// Two pushes the same way a fifth of a second apart do not link (cosine near 1); a push a
    /// second after a chain is outside the reversal interval.
    @Test(arguments: [50.0, 400])
    func unlinkedHalfWavesSayWhy(_ rate: Double) {
        var m = Motion(noise: 0.05)
        let direction = unit(1, 0, 0.2)
        m.pulses = [(2, 0.08, 20, direction), (2.2, 0.08, 20, direction), (3.2, 0.08, -20, direction)]
        let halfWaves = Self.explain(m.samples(duration: 4, rate: rate, jitter: 0.05)).halfWaves
        #expect(halfWaves.count == 3, "at \(rate) Hz: \(halfWaves)")
        guard halfWaves.count == 3 else { return }
        #expect(halfWaves[0].link == .nothingBefore)
        guard case .notOpposite(let cosine, let interval) = halfWaves[1].link else {
            Issue.record("at \(rate) Hz: \(halfWaves[1].link)")
            return
        }
        #expect(cosine > 0.9 && abs(interval - 0.2) < 0.02, "at \(rate) Hz: \(cosine), \(interval) s")
        guard case .outsideInterval(let late) = halfWaves[2].link else {
            Issue.record("at \(rate) Hz: \(halfWaves[2].link)")
            return
        }
        #expect(abs(late - 1) < 0.02, "at \(rate) Hz: \(late) s")
        #expect(halfWaves.allSatisfy { $0.chainHalfWaves == 1 })
    }

    /// `linearAcceleration` is zero before the first sample, near zero at rest, and during a 2 g
    /// shake along x reaches about 2 g along x: what the onset is compared with.
    @Test(arguments: [25.0, 100, 400])
    func linearAccelerationIsWhatTheThresholdsSee(_ rate: Double) {
        var detector = ShakeDetector()
        #expect(detector.linearAcceleration == (0, 0, 0))
        var m = Motion(noise: 0)
        m.gravity = (0, 3, 9.33)
        m.shakes = [Self.shake(at: 2, seconds: 1, hertz: 3, g: 2, direction: (1, 0, 0))]
        var restLargest = 0.0, shakeLargest = 0.0, shakeLargestX = 0.0
        for sample in m.samples(duration: 3, rate: rate, jitter: 0.05) {
            _ = detector.process(sample)
            let l = detector.linearAcceleration
            let magnitude = (l.x * l.x + l.y * l.y + l.z * l.z).squareRoot()
            if sample.time < 2 {
                restLargest = max(restLargest, magnitude)
            } else if magnitude > shakeLargest {
                shakeLargest = magnitude
                shakeLargestX = abs(l.x)
            }
        }
        #expect(restLargest < 0.01, "at \(rate) Hz: \(restLargest) m/s² at rest")
        let twoG = 2 * standardGravity
        #expect(shakeLargest > 0.8 * twoG && shakeLargest < 1.1 * twoG, "at \(rate) Hz: \(shakeLargest) m/s²")
        #expect(shakeLargestX > 0.95 * shakeLargest, "at \(rate) Hz: along x \(shakeLargestX) of \(shakeLargest)")
    }

    /// The README's explanation snippet compiles, reports the ellipse's refusal and fills a
    /// level meter; the README shows exactly this code.
    @Test func readmeSnippetExplainsTheEllipse() throws {
        let samples = Self.ellipse.samples(duration: 5, rate: 100)
        var events: [ShakeEvent] = []
        var logged: [String] = []
        func handle(_ event: ShakeEvent) { events.append(event) }
        func log(_ text: String) { logged.append(text) }
        final class Meter {
            var levels: [Double] = []
            var level = 0.0 { didSet { levels.append(level) } }
        }
        let meter = Meter()
        // README snippet begins
        var detector = ShakeDetector()
        var explanation = ShakeExplanation()
        for sample in samples {
            if let event = detector.process(sample, explanation: &explanation) { handle(event) }
            if let refusal = explanation.refusal {                      // enough half-waves, no shake
                log("no shake at \(refusal.time) s: \(refusal.reason)")  // notStraight(linearity: 0.8, limit: 0.5)
            }
            let l = detector.linearAcceleration                         // m/s², what the onset is compared with
            meter.level = (l.x * l.x + l.y * l.y + l.z * l.z).squareRoot()
        }
        // README snippet ends
        #expect(events.isEmpty)
        #expect(!logged.isEmpty && logged.allSatisfy { $0.contains(": notStraight(linearity: 0.") }, "\(logged)")
        #expect(meter.levels.count == samples.count && (meter.levels.max() ?? 0) > 15)
        // The README must show the code run above, not a copy of it kept by hand: the lines
        // between the markers, indented as the README's block is (by 8 less).
        let source = try String(contentsOfFile: #filePath, encoding: .utf8).components(separatedBy: "\n")
        let begin = try #require(source.firstIndex { $0.hasSuffix("// README snippet begins") })
        let end = try #require(source.firstIndex { $0.hasSuffix("// README snippet ends") })
        let snippet = source[(begin + 1)..<end].map { $0.isEmpty ? $0 : String($0.dropFirst(8)) }.joined(separator: "\n")
        #expect(snippet.hasPrefix("var detector = ShakeDetector()\n"), "\(snippet)")
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let readme = try String(contentsOf: url.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + snippet + "\n```"), "README's snippet differs from the code run here")
    }
}
