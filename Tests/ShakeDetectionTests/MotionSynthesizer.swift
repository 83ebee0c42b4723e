import ShakeDetection

/// Deterministic synthetic motion for the detector tests: gravity in a chosen orientation plus
/// sinusoidal shakes, a walking bounce, single moves and noise, sampled at any rate with jitter.
struct Motion {
    /// A sinusoidal shake: `amplitude · sin(2π f (t − start)) · direction` for `duration` seconds.
    struct Shake {
        var start: Double
        var duration: Double
        var frequency: Double          // Hz
        var amplitude: Double          // m/s²
        var direction: (Double, Double, Double)
    }

    var gravity: (Double, Double, Double) = (0, 0, standardGravity)
    var shakes: [Shake] = []
    /// Vertical bounce of walking: `amplitude · sin(2π f t)` along gravity, from `walkingStart`
    /// (the start of the motion unless set) until `walkingEnd`.
    var walking: (frequency: Double, amplitude: Double)? = nil
    var walkingStart = 0.0
    var walkingEnd = Double.infinity
    /// Single quick moves: one period of `amplitude · sin` (accelerate, then brake) along `direction`.
    var moves: [(start: Double, duration: Double, amplitude: Double, direction: (Double, Double, Double))] = []
    /// Half-sine pulses (a heel strike, a knock): `amplitude · sin(π (t − time)/width)` along
    /// `direction` for `width` seconds; amplitude may be negative.
    var pulses: [(time: Double, width: Double, amplitude: Double, direction: (Double, Double, Double))] = []
    /// Peak of uniform noise added to every axis, m/s².
    var noise = 0.0
    /// Each axis is clamped to ±this (a saturating sensor), m/s².
    var clip = Double.infinity

    func acceleration(at t: Double, noiseSource: inout SplitMix) -> (Double, Double, Double) {
        var (x, y, z) = gravity
        for s in shakes where t >= s.start && t < s.start + s.duration {
            let a = s.amplitude * sin2pi(s.frequency * (t - s.start))
            x += a * s.direction.0; y += a * s.direction.1; z += a * s.direction.2
        }
        if let w = walking, t >= walkingStart && t < walkingEnd {
            let g = standardGravity
            let a = w.amplitude * sin2pi(w.frequency * t)
            x += a * gravity.0 / g; y += a * gravity.1 / g; z += a * gravity.2 / g
        }
        for m in moves where t >= m.start && t < m.start + m.duration {
            let a = m.amplitude * sin2pi((t - m.start) / m.duration)
            x += a * m.direction.0; y += a * m.direction.1; z += a * m.direction.2
        }
        for p in pulses where t >= p.time && t < p.time + p.width {
            let a = p.amplitude * sin2pi((t - p.time) / (2 * p.width))
            x += a * p.direction.0; y += a * p.direction.1; z += a * p.direction.2
        }
        if noise > 0 {
            x += noise * noiseSource.uniform(); y += noise * noiseSource.uniform(); z += noise * noiseSource.uniform()
        }
        return (min(max(x, -clip), clip), min(max(y, -clip), clip), min(max(z, -clip), clip))
    }

    /// Samples from 0 to `duration` s at `rate` Hz; `jitter` moves each timestamp by up to
    /// ±jitter/2 sample intervals (timestamps stay increasing).
    func samples(duration: Double, rate: Double, jitter: Double = 0, seed: UInt64 = 1) -> [Sample] {
        var random = SplitMix(seed: seed)
        var noiseSource = SplitMix(seed: seed &+ 99)
        let count = Int(duration * rate)
        var result: [Sample] = []
        result.reserveCapacity(count)
        for i in 0..<count {
            let t = (Double(i) + jitter * 0.5 * random.uniform()) / rate
            let (x, y, z) = acceleration(at: t, noiseSource: &noiseSource)
            result.append(Sample(time: t, x: x, y: y, z: z))
        }
        return result
    }
}

extension Motion {
    /// Samples at `rate` Hz from a sensor that averages the motion over each sample interval
    /// (the interval before the sample's time, 16 points), as real accelerometers do.
    func averagedSamples(duration: Double, rate: Double) -> [Sample] {
        var noiseSource = SplitMix(seed: 7)
        let points = 16
        return (1..<Int(duration * rate)).map { i in
            let t = Double(i) / rate
            var (x, y, z) = (0.0, 0.0, 0.0)
            for k in 0..<points {
                let a = acceleration(at: t - (Double(k) + 0.5) / Double(points) / rate, noiseSource: &noiseSource)
                x += a.0; y += a.1; z += a.2
            }
            let n = Double(points)
            return Sample(time: t, x: x / n, y: y / n, z: z / n)
        }
    }
}

/// Runs a detector over samples and collects its events.
func events(_ samples: [Sample], configuration: ShakeConfiguration = .default) -> [ShakeEvent] {
    var detector = ShakeDetector(configuration: configuration)
    var result: [ShakeEvent] = []
    for sample in samples {
        if let event = detector.process(sample) { result.append(event) }
    }
    return result
}

/// A small deterministic random source (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [−1, 1].
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 52) - 1 }
}

/// sin(2π·x) without Foundation: reduce to [−½, ½] turns, then a Taylor series.
func sin2pi(_ turns: Double) -> Double {
    let r = turns - turns.rounded()
    let x = 2 * Double.pi * r
    var term = x, sum = x, n = 1.0
    for _ in 0..<12 {
        term *= -x * x / ((n + 1) * (n + 2)); n += 2; sum += term
    }
    return sum
}

/// Unit vector along (x, y, z).
func unit(_ x: Double, _ y: Double, _ z: Double) -> (Double, Double, Double) {
    let n = (x * x + y * y + z * z).squareRoot()
    return (x / n, y / n, z / n)
}

/// Gravity reading when the device points `up` upwards (m/s²).
func gravityReading(up: (Double, Double, Double)) -> (Double, Double, Double) {
    let u = unit(up.0, up.1, up.2)
    return (u.0 * standardGravity, u.1 * standardGravity, u.2 * standardGravity)
}
