import Foundation
import ShakeDetection
import ShakeRecording
import Testing

/// Distance from `sample` to `gravity`, m/s²: the linear acceleration while the device does not turn.
private func deviation(_ sample: Sample, from gravity: SIMD3<Double>) -> Double {
    let d = SIMD3(sample.x, sample.y, sample.z) - gravity
    return (d * d).sum().squareRoot()
}

private func vector(_ sample: Sample) -> SIMD3<Double> {
    SIMD3(sample.x, sample.y, sample.z)
}

/// |‖a‖ − g|, m/s²: how far the total acceleration is from a still device's, whatever the orientation.
private func magnitudeDeviation(_ sample: Sample) -> Double {
    abs(sample.magnitude - standardGravity)
}

@Suite struct SynthMotionTests {
    struct ShakeCase: Sendable, CustomTestStringConvertible {
        var hertz: Double
        var g: Double
        var direction: SIMD3<Double>
        var orientation: DeviceOrientation
        var testDescription: String { "\(hertz) Hz, \(g) g along \(direction)" }
    }

    static let shakeCases = [
        ShakeCase(hertz: 2, g: 1, direction: SIMD3(1, 0, 0), orientation: .handheld),
        ShakeCase(hertz: 4, g: 2, direction: SIMD3(0, 1, 0), orientation: .portrait),
        ShakeCase(hertz: 5, g: 3, direction: SIMD3(0, 0, 1), orientation: .flat),
        ShakeCase(hertz: 8, g: 4, direction: SIMD3(1, 1, 0.5), orientation: .landscape),
    ]

    /// A shake between rests lying still, so the rest's samples are exactly gravity.
    static func script(_ shake: ShakeMotion, _ orientation: DeviceOrientation) -> [MotionSegment] {
        [.rest(seconds: 1, orientation: orientation), .shake(shake), .rest(seconds: 1)]
    }

    /// Each named orientation, lying still, reads gravity as its documentation says (`.handheld`:
    /// the screen 40° back from upright, `(0, g sin 50°, g cos 50°)`).
    @Test(arguments: [
        (DeviceOrientation.flat, SIMD3<Double>(0, 0, 1)), (.faceDown, SIMD3(0, 0, -1)), (.portrait, SIMD3(0, 1, 0)),
        (.landscape, SIMD3(1, 0, 0)), (.handheld, SIMD3(0, sin(50 * Double.pi / 180), cos(50 * Double.pi / 180))),
    ])
    func namedOrientationsReadTheirDocumentedGravity(orientation: DeviceOrientation, gravityInG: SIMD3<Double>) throws {
        let samples = try Synthesizer(seed: 1).render(
            script: [.rest(seconds: 1, orientation: orientation)], sensor: synthIdealSensor(rateHertz: 10))
        #expect(samples.allSatisfy { deviation($0.sample, from: gravityInG * standardGravity) < 1e-9 }, "\(samples[0].sample)")
    }

    @Test(arguments: shakeCases)
    func shakePeaksAtTheRequestedAmplitude(shake: ShakeCase) throws {
        // Without wrist rotation gravity stays put, so the deviation from it is the linear acceleration.
        let motion = ShakeMotion(
            frequencyHertz: shake.hertz, amplitudeG: shake.g, direction: shake.direction, seconds: 3,
            rotationDegrees: 0)
        let samples = try Synthesizer(seed: 21).render(
            script: Self.script(motion, shake.orientation), sensor: synthIdealSensor(rateHertz: 2000))
        let gravity = vector(samples[0].sample)
        #expect(abs((gravity * gravity).sum().squareRoot() - standardGravity) < 1e-9)
        let peak = samples.filter { $0.isShake == true }.map { deviation($0.sample, from: gravity) }.max()!
        let peakG = peak / standardGravity
        #expect(peakG > 0.92 * shake.g && peakG < 1.1 * shake.g, "peak \(peakG) g")
        // Still before and after.
        let outside = samples.filter { $0.isShake == false }.map { deviation($0.sample, from: gravity) }.max()!
        #expect(outside < 1e-6)
    }

    @Test(arguments: shakeCases)
    func shakeOscillatesAtTheRequestedFrequency(shake: ShakeCase) throws {
        let motion = ShakeMotion(frequencyHertz: shake.hertz, amplitudeG: shake.g, direction: shake.direction, seconds: 3)
        let samples = try Synthesizer(seed: 22).render(
            script: Self.script(motion, shake.orientation), sensor: synthIdealSensor(rateHertz: 1000))
        let gravity = vector(samples[0].sample)
        let unit = shake.direction / (shake.direction * shake.direction).sum().squareRoot()
        // Count sign changes of the strong part of the motion along the shake direction.
        var crossings = 0
        var lastSign = 0.0
        for labeled in samples where labeled.isShake == true {
            let along = ((vector(labeled.sample) - gravity) * unit).sum()
            guard abs(along) > 0.3 * shake.g * standardGravity else { continue }
            let sign: Double = along > 0 ? 1 : -1
            if lastSign != 0, sign != lastSign { crossings += 1 }
            lastSign = sign
        }
        let cycles = Double(crossings) / 2
        // 3 s of shaking, less the ramps' weak half-waves; the frequency wobbles by ±6 %.
        #expect(cycles >= 3 * shake.hertz * 0.8 && cycles <= 3 * shake.hertz * 1.08, "\(cycles) cycles")
    }

    @Test func wristRotationTurnsGravityDuringAShake() throws {
        let motion = ShakeMotion(frequencyHertz: 4, amplitudeG: 2, direction: SIMD3(1, 0, 0), seconds: 2, rotationDegrees: 15)
        let samples = try Synthesizer(seed: 23).render(
            script: Self.script(motion, .portrait), sensor: synthIdealSensor(rateHertz: 500))
        // With the shake along x and the device upright, a turn shows up on z.
        let zDuringShake = samples.filter { $0.isShake == true }.map { abs($0.sample.z) }.max()!
        let tilt = asin(min(1, zDuringShake / standardGravity)) * 180 / Double.pi
        #expect(tilt > 3 && tilt < 20, "gravity tilted by about \(tilt)°")
    }

    @Test func walkingSteps() throws {
        for placement in GaitPlacement.allCases {
            let samples = try Synthesizer(seed: 24).render(
                script: [.walk(seconds: 20, placement: placement)], sensor: synthIdealSensor(rateHertz: 100))
            // Autocorrelation of |a| − g peaks at one step (0.5 s at the default 2 steps/s).
            let signal = samples.map { $0.sample.magnitude - standardGravity }
            let mean = signal.reduce(0, +) / Double(signal.count)
            let centred = signal.map { $0 - mean }
            func correlation(_ lag: Int) -> Double {
                zip(centred, centred.dropFirst(lag)).map { $0 * $1 }.reduce(0, +)
            }
            let best = (30...70).max { correlation($0) < correlation($1) }!
            #expect(abs(Double(best) / 100 - 0.5) <= 0.04, "\(placement): step period \(Double(best) / 100) s")
        }
    }

    @Test func pocketHitsHardestAndBagSoftensItsImpacts() throws {
        func walk(_ placement: GaitPlacement) throws -> [LabeledSample] {
            try Synthesizer(seed: 25).render(
                script: [.walk(seconds: 20, placement: placement)], sensor: synthIdealSensor(rateHertz: 400))
        }
        func peakDeviation(_ samples: [LabeledSample]) -> Double {
            samples.map { magnitudeDeviation($0.sample) }.max()! / standardGravity
        }
        /// How long |a| − g stays above half its peak, s (a step's impact is the peak).
        func impactWidth(_ samples: [LabeledSample]) -> Double {
            let peak = peakDeviation(samples) * standardGravity
            let above = samples.filter { magnitudeDeviation($0.sample) > peak / 2 }.count
            return Double(above) / 400 / 40  // about 40 steps in 20 s
        }
        let pocket = try walk(.pocket)
        let hand = try walk(.hand)
        let bag = try walk(.bag)
        // The order the corpus's walking recordings show: pocket 2.2 g, bag 1.8 g, hand 0.7 g.
        let (pocketPeak, bagPeak, handPeak) = (peakDeviation(pocket), peakDeviation(bag), peakDeviation(hand))
        #expect(pocketPeak > 1.2 * bagPeak && bagPeak > 1.2 * handPeak, "pocket \(pocketPeak) g, bag \(bagPeak) g, hand \(handPeak) g")
        #expect(handPeak > 0.3 && handPeak < 0.9)
        #expect(pocketPeak > 1.3 && pocketPeak < 2.5)
        #expect(impactWidth(bag) > 1.5 * impactWidth(pocket), "bag \(impactWidth(bag)) s, pocket \(impactWidth(pocket)) s")
    }

    /// In a pocket the device swings with the thigh, ±35° running against ±25° walking: with the
    /// bounce and impacts off and the same steps, running turns the reading 1.4 times as far from
    /// still gravity, a little less for the arc's own pull (which grows more slowly than the angle).
    @Test func runningSwingsAPocketFurtherThanWalking() throws {
        func farthestTurn(_ kind: GaitMotion.Kind) throws -> Double {
            let gait = GaitMotion(kind: kind, placement: .pocket, seconds: 8, stepHertz: 2.4, bounceG: 0, impactG: 0)
            let samples = try Synthesizer(seed: 25).render(script: [.gait(gait)], sensor: synthIdealSensor(rateHertz: 400))
            let still = vector(samples[0].sample)
            return samples.map { labeled in
                let reading = vector(labeled.sample)
                let cosine = (reading * still).sum() / (reading * reading).sum().squareRoot() / standardGravity
                return acos(min(1, cosine))
            }.max()!
        }
        let (walking, running) = (try farthestTurn(.walk), try farthestTurn(.run))
        #expect(running > 1.3 * walking && running < 1.4 * walking, "running \(running) rad, walking \(walking) rad")
    }

    /// Running with the device in a hand hits harder than walking so (same seed and sensor).
    @Test func runningHitsHarderThanWalking() throws {
        func peak(_ scenario: SynthScenario) throws -> Double {
            let samples = try Synthesizer(seed: 26).render(script: scenario.script(), sensor: synthIdealSensor(rateHertz: 400))
            return samples.map { magnitudeDeviation($0.sample) }.max()! / standardGravity
        }
        let (running, walking) = (try peak(.running), try peak(.walking(.hand)))
        #expect(running > 1 && running < 3, "running peak \(running) g")
        #expect(running > 1.2 * walking, "running \(running) g, walking \(walking) g")
    }

    @Test func pickingUpAndPuttingDownStaysGentle() throws {
        let samples = try Synthesizer(seed: 27).render(
            script: SynthScenario.pickUpPutDown.script(), sensor: synthIdealSensor(rateHertz: 400))
        let peak = samples.map { magnitudeDeviation($0.sample) }.max()! / standardGravity
        #expect(peak <= 0.5)
        #expect(peak >= 0.1, "the moves are visible")
        #expect(samples.allSatisfy { $0.isShake == false })
        // Back on the table face up at the end.
        let last = samples.last!.sample
        #expect(abs(last.z - standardGravity) < 1e-6 && abs(last.x) < 1e-6 && abs(last.y) < 1e-6)
    }

    @Test func tooQuickAPickUpIsRejected() {
        #expect(throws: SynthesisError.self) {
            try Synthesizer(seed: 1).render(script: [.pickUp(seconds: 0.3, to: .portrait, liftMeters: 0.3)])
        }
    }

    @Test(arguments: [2.0, 3, 5])
    func tapIsOneSharpSpike(peakG: Double) throws {
        let samples = try Synthesizer(seed: 28).render(
            script: [.rest(seconds: 0.5, orientation: .flat), .tap(TapMotion(peakG: peakG, seconds: 1))],
            sensor: synthIdealSensor(rateHertz: 4000))
        let gravity = SIMD3(0, 0, standardGravity)
        let deviations = samples.map { deviation($0.sample, from: gravity) }
        let peak = deviations.max()! / standardGravity
        #expect(abs(peak - peakG) < 0.03 * peakG, "peak \(peak) g")
        let moving = samples.indices.filter { deviations[$0] > 0.1 * standardGravity }
        let span = samples[moving.last!].sample.time - samples[moving.first!].sample.time
        #expect(span < 0.04, "spike lasts \(span) s")
        #expect(samples[moving.first!].sample.time >= 0.7 - 1e-9, "tap 0.2 s into its segment")
    }

    @Test func typingIsLightTapsOnAHeldDevice() throws {
        let samples = try Synthesizer(seed: 29).render(
            script: [.typing(seconds: 6)], sensor: synthIdealSensor(rateHertz: 400))
        let peak = samples.map { magnitudeDeviation($0.sample) }.max()! / standardGravity
        #expect(peak > 0.02 && peak < 0.15, "typing peak \(peak) g")
    }

    /// Typing at no taps per second is holding still in a hand (`rest(held: true)`): the same
    /// samples, and the same shake after it.
    @Test func typingWithoutTapsIsAHeldRest() throws {
        let shake = MotionSegment.shake(frequencyHertz: 4, amplitudeG: 2, axis: .x, cycles: 8)
        let sensor = synthIdealSensor(rateHertz: 100)
        let typing = try Synthesizer(seed: 29).render(script: [.typing(seconds: 2, tapsPerSecond: 0), shake], sensor: sensor)
        let held = try Synthesizer(seed: 29).render(script: [.rest(seconds: 2, held: true), shake], sensor: sensor)
        #expect(typing.count == 400)
        #expect(typing == held)
    }

    /// A script that starts by walking starts in the placement's orientation (a gait names one),
    /// not turning into it from lying flat: its first sample reads gravity as the device lying
    /// still in that orientation does.
    @Test(arguments: GaitPlacement.allCases)
    func aScriptStartingWithAWalkStartsInThePlacement(placement: GaitPlacement) throws {
        let sensor = synthIdealSensor(rateHertz: 100)
        let walking = try Synthesizer(seed: 24).render(script: [.walk(seconds: 4, placement: placement)], sensor: sensor)
        let still = try Synthesizer(seed: 24).render(
            script: [.rest(seconds: 1, orientation: placement.orientation)], sensor: sensor)
        let gravity = vector(still[0].sample)
        #expect(deviation(walking[0].sample, from: gravity) < 1e-9, "\(walking[0].sample), still \(gravity)")
        #expect(deviation(walking[0].sample, from: SIMD3(0, 0, standardGravity)) > 1, "not lying flat")
    }
}
