import Testing
import ShakeDetection

/// Real shakes, recorded by someone outside the project, fed to the detector as sensors at other
/// rates, with a sensor's noise and with timing faults would deliver them: the README promises
/// that one configuration behaves the same from 25 Hz to 1.6 kHz and under jitter, which
/// `RateInvarianceTests` checks on synthesized shakes. Here the same shake must begin within
/// 40 ms (one 25 Hz sample) of where it begins at its own rate.
///
/// The recordings: two excerpts of the dev corpus's micro:bit sessions (not in the repository;
/// from microbit-foundation/ml-trainer@d59c186764c173f7ec3f91b5bcfa8da03418c208
/// src/test-fixtures/shake-still-circle-{data-samples-legacy,legacy-test-data}.json, MIT license,
/// Copyright (c) 2023 Center for Computational Thinking and Design at Aarhus University and
/// contributors): a BBC micro:bit at 51 Hz, ±2 g (it saturates at 2.04 g), held still, then
/// shaken. Each sample is the excerpt's time origin plus i/51 s. `Scripts/resample` makes the
/// same variants of whole recordings (see its `--help`); the README gives their scores.
@Suite struct RealShakeRateTests {
    static let nativeRate = 51.0

    /// `microbit_mltrainer_session02.csv` from 0 to 4.5 s, x, y, z in mg (the micro:bit reports
    /// steps of 4 mg): still for 1.4 s, then a hard shake along x. It begins at 1.941 s.
    static let session02: [Int] = [
        -1004,20,-188, -976,8,-172, -980,0,-172, -1024,16,-192, -1040,20,-216, -1020,32,-204, -992,20,-200,
        -980,16,-188, -1008,16,-176, -1032,32,-172, -1024,40,-200, -1012,56,-192, -1004,56,-164, -1008,36,-156,
        -1016,24,-184, -1040,12,-236, -1012,4,-232, -984,4,-224, -988,4,-208, -1008,8,-200, -1004,12,-184,
        -996,16,-196, -1012,20,-208, -988,20,-192, -976,20,-196, -996,20,-196, -1004,16,-212, -1016,8,-204,
        -984,8,-196, -972,0,-192, -984,0,-204, -1008,16,-208, -1032,36,-196, -1036,32,-196, -1000,24,-164,
        -992,20,-140, -1032,28,-160, -1036,28,-176, -1036,28,-204, -996,12,-196, -984,20,-168, -996,32,-144,
        -1008,12,-156, -1032,8,-220, -1024,12,-212, -984,16,-184, -984,4,-168, -1008,12,-204, -1024,32,-204,
        -1036,28,-200, -1012,32,-184, -992,8,-164, -1024,8,-196, -1008,12,-184, -976,4,-172, -1016,-4,-192,
        -984,12,-176, -984,8,-152, -1012,12,-160, -1036,20,-204, -1016,28,-192, -1016,16,-204, -1000,20,-180,
        -1016,4,-188, -1036,20,-208, -1004,36,-204, -996,48,-172, -988,36,-144, -1004,12,-160, -1016,24,-172,
        -1012,32,-184, -1008,28,-180, -984,12,-180, -1000,0,-200, 2040,1236,2040, 2040,976,2024, 2008,700,1264,
        1516,580,560, 1152,496,44, 612,316,-340, 56,176,-664, -528,4,-1004, -1224,-152,-1416, -1716,-248,-1656,
        -1632,-312,-1488, -1072,-372,-916, -512,-356,-496, 408,-24,-200, 1400,372,276, 2040,816,928,
        2040,1240,1888, 2040,1416,2040, 2040,1416,2040, 2040,1216,2040, 2040,932,1448, 1680,688,712,
        1304,552,192, 836,388,-200, 248,208,-576, -412,-28,-888, -1152,-188,-1384, -1776,-292,-1700,
        -1868,-388,-1568, -1384,-464,-1144, -744,-504,-636, 232,-268,-208, 1376,248,288, 2040,780,952,
        2040,1280,1824, 2040,1520,2040, 2040,1492,2040, 2040,1260,2040, 2040,924,1416, 1584,628,680,
        1156,480,112, 656,332,-328, 96,164,-676, -600,-32,-1000, -1352,-172,-1424, -1792,-288,-1568,
        -1644,-428,-1324, -996,-416,-852, -316,-340,-404, 612,-36,104, 1648,500,492, 2040,996,1204,
        2040,1296,1948, 2040,1520,2040, 2040,1420,2040, 2040,1168,1980, 2040,804,1352, 1500,600,632,
        1096,484,124, 600,344,-352, -12,164,-744, -656,-28,-988, -1272,-168,-1328, -1596,-264,-1368,
        -1408,-304,-1192, -872,-300,-812, -220,-180,-388, 544,84,-4, 1488,512,368, 2036,832,892,
        2040,1080,1448, 2040,1228,1944, 2040,1300,2040, 2040,1268,2036, 2040,1064,1696, 1948,764,1100,
        1420,620,380, 928,452,-32, 428,312,-400, -216,120,-732, -788,-88,-844, -1272,-184,-1196,
        -1604,-324,-1332, -1396,-404,-1120, -856,-392,-764, -268,-308,-428, 544,-24,-68, 1488,408,400,
        2040,844,708, 2040,1252,1248, 2040,1536,1852, -64,-16,980, -36,-12,1028, -32,-32,1040, -48,-36,1020,
        -44,-36,1032, -52,-32,1012, -40,-8,1020, -32,-16,1016, -52,-24,1012, -64,-20,1016, -52,-20,1044,
        -40,-28,1016, -44,-20,1020, -56,-20,972, -52,-28,1004, -40,-20,1036, -48,-32,1048, -64,-28,1004,
        -48,-32,1008, -52,-28,1004, -40,-28,1000, -56,-20,988, -48,-16,1012, -56,-24,1032, -48,-24,1016,
        -80,-28,1032, -40,-28,1008, 40,-72,920, -36,-44,1036, -36,-40,1016, -44,-40,1032, -44,-24,1024,
        -40,-24,1036, -44,-24,1012, -48,-44,1008, -44,-24,1024, -48,-20,1012, -36,-28,1024, -44,-40,1012,
        -52,-40,1000, -44,-44,1000, -44,-28,1008, -32,-28,1056, -48,-32,1032, -60,-40,988, -44,-40,1008,
        -36,-20,1032, -48,-16,1020, -60,-24,1024, -56,-36,1004, -52,-32,1004, -40,-36,1012, -40,-36,1044,
        -48,-40,1028, -56,-40,1016, -64,-32,1036, -60,-28,1020, -44,-28,1024, -48,-40,1028, -76,-32,1008,
        -52,-40,1020, -44,-36,1004, -48,-36,1008, -56,-40,1012, -64,-32,1004
    ]

    /// `microbit_mltrainer_session01.csv` from 46.51 s (made 0 here) for 6 s, as `session02`: a
    /// shake along y whose first half-wave is weak (12 m/s², the onset is 10). It begins at
    /// 3.529 s (50.039 s in the session), on its fifth half-wave.
    static let session01: [Int] = [
        1108,20,-992, 1224,-44,-916, 1232,-104,-844, 1220,-136,-796, 1212,-152,-724, 1228,64,-672,
        1012,-228,-576, 944,-192,-496, 860,-224,-552, 804,-200,-448, 788,-216,-472, 760,-200,-452,
        732,-188,-380, 680,-184,-312, 640,-164,-280, 676,-80,-180, 496,-44,-248, 356,-4,-324, 204,68,-428,
        44,176,-468, -20,236,-464, -8,240,-432, -28,232,-480, -72,244,-524, -184,308,-580, -324,360,-660,
        -488,396,-780, -536,424,-808, -488,400,-784, -404,368,-732, -400,348,-760, -448,388,-744,
        -316,360,-744, -340,328,-800, -516,300,-904, -652,332,-1032, -548,344,-1076, -376,244,-1140,
        -444,68,-1300, -496,-96,-1504, -496,-92,-1620, -428,-60,-1652, -344,-20,-1604, -724,452,-1556,
        -196,-112,-1520, 44,-112,-1432, 112,-32,-1252, 248,56,-1080, 328,152,-1064, 392,96,-1100, 372,60,-1100,
        340,72,-1048, 296,72,-1044, 220,180,-1064, 192,236,-1132, 212,212,-1184, 228,136,-1240, 320,100,-1332,
        332,92,-1292, 380,108,-1268, 416,108,-1232, 456,76,-1224, 500,40,-1180, 516,28,-1140, 508,52,-1088,
        496,96,-1016, 460,124,-892, 448,88,-832, 444,64,-812, 424,56,-836, 340,148,-820, 324,260,-792,
        344,304,-748, 252,272,-708, 228,260,-764, 180,308,-736, 88,340,-712, 16,416,-680, 12,452,-668,
        16,404,-680, 4,428,-660, -24,456,-672, -108,520,-656, -160,536,-636, -212,528,-640, -316,552,-692,
        -412,604,-724, -420,648,-752, -380,696,-768, -296,640,-772, -244,596,-792, 412,-812,408, 404,-824,380,
        412,-824,368, 416,-824,364, 428,-812,388, 436,-812,400, 412,-820,392, 412,-824,400, 396,-836,380,
        420,-840,376, 436,-816,392, 420,-812,404, 416,-816,400, 408,-812,400, 400,-804,372, 388,-804,372,
        404,-804,380, 428,-836,388, 408,-824,372, 404,-824,376, 408,-828,380, 420,-824,392, 440,-828,404,
        420,-816,404, 400,-816,400, 396,-828,376, 432,-824,384, 424,-816,400, 396,-804,380, 400,-800,388,
        392,-804,372, 392,-812,380, 424,-816,400, 416,-820,396, 408,-816,400, 412,-824,392, 412,-824,396,
        412,-824,392, 408,-820,376, 404,-824,384, 420,-820,404, 424,-828,408, 404,-824,392, 400,-828,384,
        416,-836,388, 412,-816,388, 408,-836,404, 388,-812,396, 396,-816,408, 408,-820,396, 392,-816,388,
        396,-812,388, 404,-816,408, 416,-816,404, 396,-828,400, -732,-1640,-536, -276,-936,-372, 12,-288,-476,
        188,332,-588, 368,1160,-716, 704,2040,-540, 1132,2040,-4, 1320,2040,384, 1360,2040,452, 1184,2040,280,
        884,2040,-72, 628,2040,-480, 396,1276,-680, 156,536,-752, -36,-84,-636, -388,-608,-740,
        -748,-1136,-876, -1092,-1700,-952, -984,-1756,-732, -592,-1372,-408, -212,-900,-192, 56,-376,-224,
        348,520,-340, 612,1464,-292, 892,2040,-120, 1228,2040,292, 1304,2040,460, 1272,2040,464, 1040,2040,156,
        792,2040,-100, 628,1840,-376, 452,1208,-652, 168,460,-844, -140,-220,-932, -500,-972,-868,
        -900,-1644,-864, -1008,-1968,-696, -736,-1796,-424, -308,-1296,-152, 64,-660,-156, 284,92,-420,
        532,1008,-512, 840,2040,-488, 1216,2040,-40, 1420,2040,272, 1384,2040,384, 1148,2040,160, 928,2040,-76,
        736,2036,-376, 536,1344,-604, 328,704,-668, 92,104,-616, -156,-516,-508, -504,-1112,-540,
        -872,-1672,-688, -1112,-2036,-748, -776,-1672,-548, -324,-1064,-404, 36,-416,-392, 292,460,-560,
        472,1224,-616, 772,2040,-372, 1248,2040,196, 1452,2040,584, 1488,2040,764, 1300,2040,624, 996,2040,160,
        736,2000,-240, 492,1332,-540, 268,704,-696, 32,156,-780, -268,-512,-756, -672,-1228,-792,
        -1088,-1816,-904, -1100,-1864,-800, -700,-1424,-500, -228,-768,-264, 116,-80,-352, 440,832,-348,
        644,1788,-312, 928,2040,24, 1196,2040,396, 1392,2040,696, 1328,2040,736, 1088,2040,476, 808,2040,136,
        584,1700,-236, 368,1140,-516, 144,524,-620, -108,-60,-660, -480,-744,-684, -40,-20,1016, -48,-24,1020,
        -76,-16,1020, -64,-16,980, -36,-12,1028, -32,-32,1040, -48,-36,1020, -44,-36,1032, -52,-32,1012,
        -40,-8,1020, -32,-16,1016, -52,-24,1012, -64,-20,1016, -52,-20,1044, -40,-28,1016, -44,-20,1020,
        -56,-20,972, -52,-28,1004, -40,-20,1036, -48,-32,1048, -64,-28,1004, -48,-32,1008, -52,-28,1004,
        -40,-28,1000, -56,-20,988, -48,-16,1012, -56,-24,1032, -48,-24,1016, -80,-28,1032, -40,-28,1008,
        40,-72,920, -36,-44,1036, -36,-40,1016, -44,-40,1032, -44,-24,1024, -40,-24,1036, -44,-24,1012,
        -48,-44,1008, -44,-24,1024, -48,-20,1012, -36,-28,1024, -44,-40,1012, -52,-40,1000, -44,-44,1000,
        -44,-28,1008, -32,-28,1056, -48,-32,1032, -60,-40,988, -44,-40,1008, -36,-20,1032, -48,-16,1020,
        -60,-24,1024, -56,-36,1004, -52,-32,1004, -40,-36,1012, -40,-36,1044, -48,-40,1028, -56,-40,1016,
        -64,-32,1036, -60,-28,1020, -44,-28,1024, -48,-40,1028, -76,-32,1008, -52,-40,1020, -44,-36,1004,
        -48,-36,1008, -56,-40,1012, -804,-480,-560, -836,-472,-592
    ]

    /// An excerpt's samples as recorded: m/s² (9.80665 per 1000 mg), one every 1/51 s from 0.
    static func samples(_ milliG: [Int]) -> [Sample] {
        (0..<milliG.count / 3).map { i in
            let k = 9.806_65 / 1000
            return Sample(time: Double(i) / nativeRate, x: Double(milliG[3 * i]) * k,
                          y: Double(milliG[3 * i + 1]) * k, z: Double(milliG[3 * i + 2]) * k)
        }
    }

    /// What a sensor at `rate` reads of the motion `native` recorded: `native` joined by
    /// straight lines, averaged over each period of 1/`rate` s (the first ending `phase`
    /// periods after time 0), as `Scripts/resample --rate` does; from `switchTime` on, at
    /// `switchRate` instead.
    static func read(_ native: [Sample], at rate: Double, phase: Double = 0, switchTime: Double = .infinity,
                     switchRate: Double = 1) -> [Sample] {
        let end = native.last!.time
        let head = (0...Int((min(end, switchTime) * rate - phase).rounded(.down))).map { (Double($0) + phase) / rate }
        let from = head.last!
        let tail = switchTime < end ? (0..<Int(((end - from) * switchRate).rounded(.down))).map { from + Double($0 + 1) / switchRate } : []
        return averaged(native, at: head + tail)
    }

    /// `native` joined by straight lines (held before its first sample), averaged over the
    /// interval ending at each of `times` since the one before (the first: as long as the next).
    static func averaged(_ native: [Sample], at times: [Double]) -> [Sample] {
        // Running integral of each axis at the samples (trapezoids).
        var integral = [(0.0, 0.0, 0.0)]
        for (a, b) in zip(native, native.dropFirst()) {
            let h = b.time - a.time, last = integral.last!
            integral.append((last.0 + h * (a.x + b.x) / 2, last.1 + h * (a.y + b.y) / 2, last.2 + h * (a.z + b.z) / 2))
        }
        func integralAt(_ t: Double) -> (Double, Double, Double) {
            if t <= 0 { return (t * native[0].x, t * native[0].y, t * native[0].z) }
            let i = min(Int(t * nativeRate), native.count - 2)
            let a = native[i], b = native[i + 1], h = b.time - a.time, u = t - a.time
            func part(_ v0: Double, _ v1: Double) -> Double { u * v0 + (v1 - v0) * u * u / (2 * h) }
            return (integral[i].0 + part(a.x, b.x), integral[i].1 + part(a.y, b.y), integral[i].2 + part(a.z, b.z))
        }
        return times.indices.map { k in
            let t = times[k]
            let start = k > 0 ? times[k - 1] : t - (times[1] - t)
            let (x1, y1, z1) = integralAt(t), (x0, y0, z0) = integralAt(start)
            let p = t - start
            return Sample(time: t, x: (x1 - x0) / p, y: (y1 - y0) / p, z: (z1 - z0) / p)
        }
    }

    /// `samples` as a real sensor's: white noise of `rms` m/s² per axis (the sum of three uniform
    /// draws, near enough Gaussian), each axis then rounded to a multiple of `step` m/s² (0.0192:
    /// a ±4 g 12-bit sensor's).
    static func noisy(_ samples: [Sample], rms: Double = 0.03, step: Double = 0.0192, seed: UInt64) -> [Sample] {
        var random = SplitMix(seed: seed)
        func noise() -> Double { rms * (random.uniform() + random.uniform() + random.uniform()) }
        func quantised(_ v: Double) -> Double { (v / step).rounded() * step }
        return samples.map {
            Sample(time: $0.time, x: quantised($0.x + noise()), y: quantised($0.y + noise()), z: quantised($0.z + noise()))
        }
    }

    /// `samples` with each time moved by a uniform fraction of up to ±`fraction` of the shorter
    /// interval beside it (the values stay those of the on-time samples).
    static func jittered(_ samples: [Sample], _ fraction: Double, seed: UInt64) -> [Sample] {
        var random = SplitMix(seed: seed)
        return samples.indices.map { k in
            var s = samples[k]
            guard k > 0 else { return s }
            let after = k + 1 < samples.count ? samples[k + 1].time - s.time : .infinity
            s.time += fraction * random.uniform() * min(s.time - samples[k - 1].time, after)
            return s
        }
    }

    /// `samples` with runs of 1 to `longest` dropped, each starting with probability `p`.
    static func dropped(_ samples: [Sample], _ p: Double, longest: Int, seed: UInt64) -> [Sample] {
        var random = SplitMix(seed: seed)
        var kept = [samples[0]], i = 1
        while i < samples.count {
            if (random.uniform() + 1) / 2 < p {
                i += 1 + Int((random.uniform() + 1) / 2 * Double(longest - 1) + 0.5)
                if i >= samples.count { break }
            }
            kept.append(samples[i])
            i += 1
        }
        return kept
    }

    /// `samples` in FIFO batches of `n`, each sample stamped at its batch's arrival (the time of
    /// its last sample) plus `spacing` seconds per sample: 0 for one time per batch, a few
    /// microseconds for a driver that stamps each as it reads it out of the FIFO.
    static func batched(_ samples: [Sample], _ n: Int, spacing: Double) -> [Sample] {
        samples.indices.map { k in
            let last = min(k - k % n + n - 1, samples.count - 1)
            var s = samples[k]
            s.time = samples[last].time + Double(k % n) * spacing
            return s
        }
    }

    /// The times of the `began` events, and how many shakes ended.
    static func outcome(_ samples: [Sample]) -> (began: [Double], ended: Int) {
        let all = events(samples)
        return (all.filter { $0.phase == .began }.map(\.time), all.filter { $0.phase == .ended }.count)
    }

    static let rates: [Double] = [25, 50, 100, 200, 400, 800, 1600]
    static let phases: [Double] = [0, 0.33, 0.67]

    /// The one shake of `samples` begins within `tolerance` of `time` and ends, once each.
    static func expectOneShake(_ samples: [Sample], beginsAt time: Double, within tolerance: Double = 0.04,
                               _ label: String) {
        let (began, ended) = outcome(samples)
        #expect(began.count == 1 && ended == 1, "\(label): began at \(began), \(ended) ended")
        #expect(began.allSatisfy { abs($0 - time) <= tolerance }, "\(label): began at \(began), at 51 Hz \(time)")
    }

    /// session02 read at 25 Hz to 1.6 kHz, at three sampling phases, with a ±4 g 12-bit sensor's
    /// noise (0.03 m/s² rms) and steps: the shake begins within 40 ms of its 51 Hz time from
    /// 50 Hz on, and within 50 ms at 25 Hz, where a shake can only begin on a sample, 40 ms apart
    /// (when this was written: up to 46 ms later at 25 Hz, 25 ms at 50 Hz, 16 ms from 100 Hz on).
    @Test(arguments: rates)
    func realShakeBeginsAlikeAtEveryRate(rate: Double) {
        let native = Self.samples(Self.session02)
        let want = try! #require(Self.outcome(native).began.first)
        #expect(abs(want - 1.941) < 0.001)
        for (n, phase) in Self.phases.enumerated() {
            let samples = Self.noisy(Self.read(native, at: rate, phase: phase), seed: UInt64(rate) * 10 + UInt64(n))
            Self.expectOneShake(samples, beginsAt: want, within: rate < 50 ? 0.05 : 0.04, "\(rate) Hz, phase \(phase)")
        }
    }

    /// session02 with a realistic sensor's timing faults, at its own 51 Hz and read at 400 Hz:
    /// 20 % timestamp jitter, dropped samples (isolated at 51 Hz, runs of up to 8 at 400 Hz), a
    /// rate that switches midway through the shake (100 to 400 Hz and back), and a clock 3 % fast
    /// or slow (the shake then begins 3 % later or earlier on the samples' clock).
    @Test func realShakeBeginsWithin40msUnderTimingFaults() {
        let native = Self.samples(Self.session02)
        let want = try! #require(Self.outcome(native).began.first)
        let r400 = Self.noisy(Self.read(native, at: 400), seed: 4)
        for seed in UInt64(1)...3 {
            Self.expectOneShake(Self.jittered(native, 0.2, seed: seed), beginsAt: want, "51 Hz, 20 % jitter, seed \(seed)")
            Self.expectOneShake(Self.jittered(r400, 0.2, seed: seed), beginsAt: want, "400 Hz, 20 % jitter, seed \(seed)")
            Self.expectOneShake(Self.dropped(native, 0.02, longest: 1, seed: seed), beginsAt: want,
                                "51 Hz, 2 % dropped, seed \(seed)")
            Self.expectOneShake(Self.dropped(r400, 0.02, longest: 8, seed: seed), beginsAt: want,
                                "400 Hz, runs of up to 8 dropped, seed \(seed)")
        }
        for (from, to) in [(100.0, 400.0), (400, 100), (25, 1600)] {
            let samples = Self.noisy(Self.read(native, at: from, switchTime: 1.6, switchRate: to), seed: 5)
            Self.expectOneShake(samples, beginsAt: want, "\(from) Hz, then \(to) Hz from 1.6 s")
        }
        for drift in [0.03, -0.03] {
            let samples = native.map { Sample(time: $0.time * (1 + drift), x: $0.x, y: $0.y, z: $0.z) }
            Self.expectOneShake(samples, beginsAt: want * (1 + drift), "clock \(drift * 100) % fast")
        }
    }

    /// session01's shake opens with a weak half-wave (12 m/s², just over the 10 m/s² onset) whose
    /// direction then swings round by about 120° into the first full stroke while `|l|` stays
    /// over the release threshold. At 51 Hz the first sample over the weak peak's size has
    /// already turned more than 90° from it (cosine −0.07): the weak half-wave closes, the stroke
    /// opens its own, the chain has five half-waves when the fifth opens, and the shake begins
    /// there (3.529 s). From 100 Hz on, a sample part-way round (88°, cosine 0.03) is the first
    /// over the weak peak's size: it becomes the peak, the peak's direction turns with the
    /// motion, and the two make one half-wave. The chain then has four when that half-wave
    /// opens; a four-half-wave chain must be quick (≤ 0.2 s between peaks; it has 0.22) or
    /// straight (linearity ≤ 0.3; 0.35 and falling), so the shake begins when linearity reaches
    /// 0.3, 44 to 51 ms later (at 25 and 50 Hz 4 to 57 ms, as the samples fall either way).
    /// Found once at every rate and phase all the same.
    @Test func realShakeWithAWeakLeadInBeginsAlikeAtEveryRate() {
        let native = Self.samples(Self.session01)
        let want = try! #require(Self.outcome(native).began.first)
        #expect(abs(want - 3.529) < 0.001)
        for rate in Self.rates {
            for phase in Self.phases {
                Self.expectOneShake(Self.read(native, at: rate, phase: phase), beginsAt: want, within: 0.06,
                                    "\(rate) Hz, phase \(phase)")
            }
        }
        // Each rate and phase on its own: one that came within the usual tolerance would fail
        // (its known issue not recorded) instead of passing unseen among the others.
        for rate in [100.0, 400, 1600] {
            for phase in Self.phases {
                withKnownIssue("a weak lead-in half-wave merges into the first stroke above 51 Hz, and the shake begins up to 51 ms later") {
                    Self.expectOneShake(Self.read(native, at: rate, phase: phase), beginsAt: want, "\(rate) Hz, phase \(phase)")
                }
            }
        }
    }

    /// A FIFO read out in batches with one time per batch: the detector keeps one sample of each
    /// batch (the others repeat its time), here a 51 Hz stream seen at 12.75 Hz, and the shake
    /// begins 78 ms late; `SampleStreamCheck` says so (`timesRepeat`). A driver that stamps each
    /// sample as it reads it out (the batch's arrival plus 10 µs a sample) does the same harm (the
    /// first sample of a batch stands for the whole batch's period, the others for 10 µs each:
    /// the same began time), and `SampleStreamCheck` says so too (`timesBunched`: the median of
    /// the first intervals under a tenth of their mean: 0.0003 to 0.004 for batches of 4 and 8, at
    /// least 0.29 on every recording of dev and Fixtures). It was not flagged before.
    @Test func fifoBatchesStampedInABurstAreFlagged() {
        let native = Self.samples(Self.session02)
        let r400 = Self.noisy(Self.read(native, at: 400), seed: 4)
        for (samples, n) in [(native, 4), (r400, 8)] {
            let once = Self.batched(samples, n, spacing: 0), burst = Self.batched(samples, n, spacing: 1e-5)
            var onceCheck = SampleStreamCheck(), burstCheck = SampleStreamCheck()
            for sample in once { _ = onceCheck.add(sample) }
            for sample in burst { _ = burstCheck.add(sample) }
            #expect(onceCheck.problem == .timesRepeat(samplesPerTime: Double(n)), "\(onceCheck.problem.map { "\($0)" } ?? "-")")
            let (onceBegan, burstBegan) = (Self.outcome(once).began, Self.outcome(burst).began)
            #expect(onceBegan.count == 1 && burstBegan.count == 1, "\(onceBegan) \(burstBegan)")
            #expect(zip(onceBegan, burstBegan).allSatisfy { abs($0 - $1) < 0.001 }, "\(onceBegan) \(burstBegan)")
            #expect(burstCheck.problem == .timesBunched(samplesPerBurst: Double(n)),
                    "batches of \(n) stamped 10 µs apart: \(burstCheck.problem.map { "\($0)" } ?? "-")")
        }
    }
}
