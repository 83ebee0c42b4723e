import ShakeDetection
import Testing

/// The Seismic baseline's rule, sample by sample: a window of the last 0.5 s (its ends
/// included), at least 0.25 s long, and ⌊n/2⌋ + ⌊n/4⌋ of its `n` samples over the threshold.
/// Samples at 64 Hz, so that every time and every window edge is exact.
@Suite struct SeismicRuleTests {
    /// One sample every 1/64 s from 0: |a| `strong` where `pattern` has "A", gravity alone
    /// where it has "." (along z only, so that |a| is exact).
    static func samples(_ pattern: String, strong: Double = 20) -> [Sample] {
        pattern.enumerated().map { index, mark in
            Sample(time: Double(index) / 64, x: 0, y: 0, z: mark == "A" ? strong : standardGravity)
        }
    }

    static func events(_ samples: [Sample]) -> [ShakeEvent] {
        var detector = SeismicDetector()
        return samples.compactMap { detector.process($0) }
    }

    /// Every sample over 13 m/s² from the first: `began` on the sample that makes the window
    /// 0.25 s long, dated from the first sample, with the peak |a| − g; `ended` on the next.
    @Test func aShakeFiresTheMomentTheWindowIsAQuarterSecondLong() throws {
        let got = Self.events(Self.samples(String(repeating: "A", count: 20)))
        #expect(got.map(\.phase) == [.began, .ended])
        let began = try #require(got.first)
        #expect(began.time == 0.25)
        #expect(began.startTime == 0)
        #expect(began.endTime == 0.25)
        #expect(abs(began.peakAcceleration - (20 - standardGravity)) < 1e-9)
        #expect(began.dominantAxis == .z)
        #expect(got.last?.time == 17.0 / 64)
    }

    /// At 0.25 s the window holds 17 samples: 12 over the threshold (⌊17/2⌋ + ⌊17/4⌋) fire, 11
    /// do not (it fires two samples later, 13 of 19).
    @Test func threeQuartersIsCountedInWholeSamples() {
        let twelve = Self.events(Self.samples("....." + String(repeating: "A", count: 15)))
        #expect(twelve.first?.time == 0.25)
        let eleven = Self.events(Self.samples("......" + String(repeating: "A", count: 14)))
        #expect(eleven.first?.time == 18.0 / 64)
    }

    /// The window keeps a sample exactly 0.5 s old: at 33/64 s the strong sample at 1/64 s makes
    /// the 24 of 33 that fire, dated from it (dropped, 23 of 32 would not).
    @Test func theWindowIncludesASampleExactlyHalfASecondOld() throws {
        let got = Self.events(Self.samples(".A........." + String(repeating: "A", count: 23)))
        let began = try #require(got.first)
        #expect(began.time == 33.0 / 64)
        #expect(began.startTime == 1.0 / 64)
    }

    /// "Over" the threshold: |a| of exactly 13 m/s² is not accelerating, a little over it is.
    @Test func aSampleAtTheThresholdIsNotAccelerating() {
        #expect(Self.events(Self.samples(String(repeating: "A", count: 64), strong: 13)).isEmpty)
        #expect(Self.events(Self.samples(String(repeating: "A", count: 64), strong: 13.001)).first?.time == 0.25)
    }

    /// A clock that goes back (a device restarted, its times from 0 again) starts a new window:
    /// a shake right after fires as on a fresh detector, not held back by the samples of before.
    @Test func aClockThatGoesBackStartsANewWindow() throws {
        let shake = Self.samples(String(repeating: "A", count: 20))
        let before = Self.samples(String(repeating: ".", count: 20)).map {
            Sample(time: $0.time + 1, x: $0.x, y: $0.y, z: $0.z)
        }
        let got = Self.events(before + shake)
        #expect(got.map(\.phase) == Self.events(shake).map(\.phase))
        let began = try #require(got.first)
        #expect(began.time == 0.25)
        #expect(began.startTime == 0)
    }
}
