import Foundation
import ShakeDetection
import Testing

@Suite struct SeismicDetectorTests {
    /// Device lying flat (gravity on z), with an oscillation of `amplitude` m/s² along x at
    /// `frequency` Hz from `start` for `duration` seconds; `total` seconds at `rate` Hz.
    static func samples(rate: Double, total: Double, start: Double, duration: Double, amplitude: Double,
                        frequency: Double = 4) -> [Sample] {
        (0..<Int(total * rate)).map { index in
            let time = Double(index) / rate
            let moving = time >= start && time < start + duration
            let x = moving ? amplitude * sin(2 * Double.pi * frequency * (time - start)) : 0
            return Sample(time: time, x: x, y: 0, z: standardGravity)
        }
    }

    static func events(_ samples: [Sample], threshold: Double = SeismicDetector.mediumThreshold) -> [ShakeEvent] {
        var detector = SeismicDetector(thresholdMetersPerSecondSquared: threshold)
        var events = samples.compactMap { detector.process($0) }
        if let last = samples.last, let event = detector.interrupt(at: last.time) { events.append(event) }
        return events
    }

    @Test(arguments: [25.0, 50, 100, 400])
    func firesOnSustainedStrongOscillation(rate: Double) {
        // |a| = √((30 sin)² + g²) exceeds 13 m/s² about 82 % of the time.
        let events = Self.events(Self.samples(rate: rate, total: 4, start: 1, duration: 2, amplitude: 30))
        let began = events.filter { $0.phase == .began }
        #expect(!began.isEmpty)
        // Needs at least 0.25 s of window, so never before 1.25 s; fires within the first half second.
        #expect(began.first.map { $0.time >= 1.25 - 1e-9 && $0.time <= 1.5 } == true)
        #expect(began.allSatisfy { $0.time <= 3 + 1 / rate })
        // Every began is followed by its ended, as the ShakeEvent contract requires.
        let phases = events.map(\.phase)
        #expect(phases.count == 2 * began.count)
        #expect(zip(phases, phases.dropFirst()).allSatisfy { $0 != $1 })
        #expect(began.first?.dominantAxis == .x)
    }

    @Test(arguments: [0.05, 0.1, 0.2])
    func ignoresShortSpike(duration: Double) {
        let spike = Self.samples(rate: 100, total: 3, start: 1, duration: duration, amplitude: 40, frequency: 1 / (2 * duration))
        #expect(Self.events(spike).isEmpty)
    }

    @Test func ignoresDeviceAtRest() {
        #expect(Self.events(Self.samples(rate: 100, total: 5, start: 0, duration: 0, amplitude: 0)).isEmpty)
    }

    @Test(arguments: [("light", 11.0), ("medium", 13.0), ("hard", 15.0)])
    func presetThresholds(name: String, threshold: Double) {
        #expect(SeismicDetector.threshold(preset: name) == threshold)
    }

    @Test func harderThresholdNeedsStrongerShaking() {
        // Amplitude 16: |a| exceeds 11 m/s² (light) about 80 % of the time, 15 m/s² (hard) about 50 %.
        let motion = Self.samples(rate: 100, total: 4, start: 1, duration: 2, amplitude: 16)
        #expect(!Self.events(motion, threshold: SeismicDetector.lightThreshold).isEmpty)
        #expect(Self.events(motion, threshold: SeismicDetector.hardThreshold).isEmpty)
    }
}
