#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ShakeDetection

// The continuous motion of each kind of segment, with every random choice drawn up front.
// Each model answers `reading(at:)`: what an ideal accelerometer reads (device frame, m/s²,
// gravity included) at `τ` seconds into the segment.

/// Gravity as world-frame specific force: a still device is pushed up at 1 g.
let synthGravityUp = SIMD3<Double>(0, 0, standardGravity)

/// Minimum-jerk position profile `10u³ − 15u⁴ + 6u⁵` for `u` in 0…1 (clamped).
func synthMinimumJerk(_ u: Double) -> Double {
    let u = min(max(u, 0), 1)
    return u * u * u * (10 + u * (-15 + 6 * u))
}

/// Second derivative of `synthMinimumJerk` with respect to `u`: `60u − 180u² + 120u³`
/// (0 outside 0…1). Its largest magnitude is 5.77 at `u ≈ 0.21` and `0.79`.
func synthMinimumJerkAcceleration(_ u: Double) -> Double {
    guard u > 0, u < 1 else { return 0 }
    return u * (60 + u * (-180 + 120 * u))
}

/// Raised-cosine ramp: 0 at `τ ≤ 0`, 1 at `τ ≥ width`.
func synthRamp(_ τ: Double, width: Double) -> Double {
    guard width > 0 else { return τ >= 0 ? 1 : 0 }
    if τ <= 0 { return 0 }
    if τ >= width { return 1 }
    return 0.5 * (1 - cos(Double.pi * τ / width))
}

/// `v` turned by `radians` about the unit vector `axis` (Rodrigues' formula).
func synthRotate(_ v: SIMD3<Double>, about axis: SIMD3<Double>, radians: Double) -> SIMD3<Double> {
    let c = cos(radians)
    let s = sin(radians)
    return v * c + SynthVector.cross(axis, v) * s + axis * (SynthVector.dot(axis, v) * (1 - c))
}

/// A damped pulse `sin(2π x) · e^(−1.5 x)` for `x = t / width` in [0, 4), 0 elsewhere,
/// normalised to a peak of 1.
func synthPulse(_ t: Double, width: Double) -> Double {
    let x = t / width
    guard x >= 0, x < 4 else { return 0 }
    // The peak of sin(2πx)·e^(−1.5x) is at x = atan(2π / 1.5) / 2π.
    let xPeak = atan(2 * Double.pi / 1.5) / (2 * Double.pi)
    let peak = sin(2 * Double.pi * xPeak) * exp(-1.5 * xPeak)
    return sin(2 * Double.pi * x) * exp(-1.5 * x) / peak
}

/// A smooth turn from one orientation to another over the first `seconds` of a segment.
struct SynthTurn: Sendable {
    let from: DeviceOrientation
    let to: DeviceOrientation
    let seconds: Double
    private let fixedRotation: SynthMatrix?

    /// Turning during the first second (or the first half of `segmentSeconds`, when shorter).
    init(from: DeviceOrientation, to: DeviceOrientation?, segmentSeconds: Double) {
        self.from = from
        self.to = to ?? from
        seconds = self.from == self.to ? 0 : min(1, segmentSeconds / 2)
        fixedRotation = seconds == 0 ? self.to.rotation : nil
    }

    func rotation(at τ: Double) -> SynthMatrix {
        if let fixedRotation { return fixedRotation }
        return from.interpolated(to: to, fraction: synthMinimumJerk(τ / seconds)).rotation
    }
}

/// A steady hand: physiological tremor and a slow wrist drift.
struct SynthTremor: Sendable {
    private let frequencies: (Double, Double)
    private let phases: (Double, Double)
    private let directions: (SIMD3<Double>, SIMD3<Double>)
    private let driftAxes: (SIMD3<Double>, SIMD3<Double>)
    private let driftFrequencies: (Double, Double)
    private let driftPhases: (Double, Double)

    /// Tremor amplitude, m/s² (0.005 g).
    static let amplitude = 0.005 * standardGravity
    /// Drift amplitude, radians (0.6°).
    static let driftRadians = 0.6 * Double.pi / 180

    init(random: inout SynthRandom) {
        frequencies = (random.uniform(8, 12), random.uniform(8, 12))
        phases = (random.uniform(0, 2 * .pi), random.uniform(0, 2 * .pi))
        let d1 = SIMD3(random.gaussian(), random.gaussian(), random.gaussian())
        let unit = d1 / max(SynthVector.length(d1), 1e-9)
        let (p1, p2) = SynthVector.perpendiculars(of: unit)
        directions = (unit, p1)
        driftAxes = (p1, p2)
        driftFrequencies = (random.uniform(0.1, 0.25), random.uniform(0.1, 0.25))
        driftPhases = (random.uniform(0, 2 * .pi), random.uniform(0, 2 * .pi))
    }

    /// Tremor linear acceleration in the device frame, m/s².
    func linear(at τ: Double) -> SIMD3<Double> {
        let a = sin(2 * .pi * frequencies.0 * τ + phases.0)
        let b = 0.6 * sin(2 * .pi * frequencies.1 * τ + phases.1)
        return (directions.0 * a + directions.1 * b) * Self.amplitude
    }

    /// `gravity` (device frame) as seen after the wrist's slow drift.
    func drifted(_ gravity: SIMD3<Double>, at τ: Double) -> SIMD3<Double> {
        let a = Self.driftRadians * sin(2 * .pi * driftFrequencies.0 * τ + driftPhases.0)
        let b = Self.driftRadians * sin(2 * .pi * driftFrequencies.1 * τ + driftPhases.1)
        return synthRotate(synthRotate(gravity, about: driftAxes.0, radians: a), about: driftAxes.1, radians: b)
    }
}

/// `MotionSegment.rest` and `.typing`.
struct SynthRestModel: Sendable {
    let turn: SynthTurn
    let tremor: SynthTremor?
    /// Thumb taps while typing: (time s, peak m/s²).
    let taps: [(time: Double, peak: Double)]
    static let tapWidth = 0.015

    func reading(at τ: Double) -> SIMD3<Double> {
        let rotation = turn.rotation(at: τ)
        var gravity = rotation.transposeApplied(to: synthGravityUp)
        var linear = SIMD3<Double>(0, 0, 0)
        if let tremor {
            gravity = tremor.drifted(gravity, at: τ)
            linear += tremor.linear(at: τ)
        }
        if !taps.isEmpty {
            // Taps are sparse and short: only the nearest few can be under way.
            var index = taps.synthPartitionIndex { $0.time > τ }
            var pressed = 0.0
            while index > 0, τ - taps[index - 1].time < 4 * Self.tapWidth {
                index -= 1
                pressed += taps[index].peak * synthPulse(τ - taps[index].time, width: Self.tapWidth)
            }
            linear.z -= pressed  // into the screen
        }
        return gravity + linear
    }
}

/// `MotionSegment.shake`; see `ShakeMotion` for the formula.
struct SynthShakeModel: Sendable {
    let seconds: Double
    let frequency: Double
    let amplitude: Double  // m/s²
    let direction: SIMD3<Double>
    let leakDirections: (SIMD3<Double>, SIMD3<Double>)
    let leakAmounts: (Double, Double)
    let leakPhases: (Double, Double)
    let harmonics: (second: Double, secondPhase: Double, third: Double, thirdPhase: Double)
    let waveformPeak: Double
    let wobble: (amount: Double, frequency: Double, phase: Double)
    let swell: (frequency: Double, phase: Double)
    let startPhase: Double
    let rotationAxis: SIMD3<Double>
    let rotationRadians: Double
    let rotationPhase: Double
    let ramp: Double
    let gravity: SIMD3<Double>  // device frame, at the start orientation
    let tremor: SynthTremor

    init(_ shake: ShakeMotion, orientation: DeviceOrientation, random: inout SynthRandom) {
        seconds = shake.seconds
        frequency = shake.frequencyHertz
        amplitude = shake.amplitudeG * standardGravity
        direction = shake.direction / SynthVector.length(shake.direction)
        let (p1, p2) = SynthVector.perpendiculars(of: direction)
        leakDirections = (p1, p2)
        leakAmounts = (
            shake.crossAxisLeakage * random.uniform(0.4, 1), shake.crossAxisLeakage * random.uniform(0.2, 0.7)
        )
        leakPhases = (random.uniform(0, 2 * .pi), random.uniform(0, 2 * .pi))
        harmonics = (
            random.uniform(0.04, 0.12), random.uniform(0, 2 * .pi), random.uniform(0.06, 0.16),
            random.uniform(0, 2 * .pi))
        var peak = 0.0
        for i in 0..<2048 {
            let φ = 2 * Double.pi * Double(i) / 2048
            let w = sin(φ) + harmonics.second * sin(2 * φ + harmonics.secondPhase)
                + harmonics.third * sin(3 * φ + harmonics.thirdPhase)
            peak = max(peak, abs(w))
        }
        waveformPeak = peak
        wobble = (shake.frequencyWobble, random.uniform(0.4, 0.9), random.uniform(0, 2 * .pi))
        swell = (random.uniform(0.2, 0.5), random.uniform(0, 2 * .pi))
        startPhase = random.uniform(0, 2 * .pi)
        let axisAngle = random.uniform(0, 2 * .pi)
        rotationAxis = p1 * cos(axisAngle) + p2 * sin(axisAngle)
        rotationRadians = shake.rotationDegrees * Double.pi / 180
        rotationPhase = random.uniform(-0.5, 0.5)
        ramp = min(1 / frequency, seconds / 2)
        gravity = orientation.rotation.transposeApplied(to: synthGravityUp)
        tremor = SynthTremor(random: &random)
    }

    func reading(at τ: Double) -> SIMD3<Double> {
        let envelope = synthRamp(τ, width: ramp) * synthRamp(seconds - τ, width: ramp)
            * (1 + 0.05 * sin(2 * .pi * swell.frequency * τ + swell.phase))
        let φ = startPhase + 2 * .pi * frequency * τ
            + frequency * wobble.amount / wobble.frequency * sin(2 * .pi * wobble.frequency * τ + wobble.phase)
        let waveform = (sin(φ) + harmonics.second * sin(2 * φ + harmonics.secondPhase)
            + harmonics.third * sin(3 * φ + harmonics.thirdPhase)) / waveformPeak
        var linear = direction * waveform
        linear += leakDirections.0 * (leakAmounts.0 * sin(φ + leakPhases.0))
        linear += leakDirections.1 * (leakAmounts.1 * sin(φ + leakPhases.1))
        linear *= amplitude * envelope
        let angle = rotationRadians * envelope * sin(φ + rotationPhase)
        // Turning the device by +angle turns gravity, seen from the device, by −angle.
        let turned = synthRotate(tremor.drifted(gravity, at: τ), about: rotationAxis, radians: -angle)
        return turned + linear + tremor.linear(at: τ)
    }
}

/// `MotionSegment.gait`; see `GaitMotion` for the formula.
struct SynthGaitModel: Sendable {
    let seconds: Double
    let stepHertz: Double
    let turn: SynthTurn
    /// Start of each step, s; runs past `seconds`.
    let stepTimes: [Double]
    let bounceScale: [Double]
    let impactScale: [Double]
    let bounce: Double  // m/s²
    let impact: Double  // m/s²
    let spikeWidth: Double  // s
    let spikeMean: Double  // mean of the impact pulses per unit impact
    /// World axis the device swings about, peak angle (radians), and whether the swing follows
    /// the stride (half the step rate) or each step.
    let swingAxis: SIMD3<Double>
    let swingRadians: Double
    let swingsWithStride: Bool
    /// Distance from the hip for the pocket's arc, m (0 when not in a pocket).
    let swingRadius: Double

    init(_ gait: GaitMotion, from orientation: DeviceOrientation, random: inout SynthRandom) {
        seconds = gait.seconds
        stepHertz = gait.stepHertz
        turn = SynthTurn(
            from: orientation, to: gait.orientation ?? gait.placement.orientation, segmentSeconds: gait.seconds)
        var times: [Double] = []
        var bounces: [Double] = []
        var impacts: [Double] = []
        var t = random.uniform(0, 0.3) / gait.stepHertz
        while times.count < 3 || times[times.count - 2] <= gait.seconds {
            times.append(t)
            bounces.append(random.uniform(0.9, 1.1))
            impacts.append(random.uniform(0.9, 1.1))
            t += (1 + 0.04 * max(-2.5, min(2.5, random.gaussian()))) / gait.stepHertz
        }
        stepTimes = times
        bounceScale = bounces
        impactScale = impacts
        bounce = gait.bounceG * standardGravity
        impact = gait.impactG * standardGravity
        spikeWidth =
            switch gait.placement {
            case .pocket: 0.012
            case .hand: 0.025
            case .bag: 0.035
            }
        spikeMean = spikeWidth * (2 * Double.pi).squareRoot() * gait.stepHertz
        let degrees = Double.pi / 180
        switch gait.placement {
        case .hand:
            swingAxis = SIMD3(0, 1, 0)
            swingRadians = (gait.kind == .walk ? 3 : 8) * degrees
            swingsWithStride = false
            swingRadius = 0
        case .pocket:
            swingAxis = SIMD3(0, 1, 0)
            swingRadians = (gait.kind == .walk ? 25 : 35) * degrees
            swingsWithStride = true
            swingRadius = 0.15
        case .bag:
            swingAxis = SIMD3(1, 0, 0)
            swingRadians = 6 * degrees
            swingsWithStride = true
            swingRadius = 0
        }
    }

    func reading(at τ: Double) -> SIMD3<Double> {
        let stepSeconds = 1 / stepHertz
        let envelope = synthRamp(τ, width: stepSeconds) * synthRamp(seconds - τ, width: stepSeconds)
        let k = max(0, stepTimes.synthPartitionIndex { $0 > τ } - 1)
        let stepStart = stepTimes[k]
        let stepEnd = stepTimes[min(k + 1, stepTimes.count - 1)]
        let u = τ >= stepStart ? (τ - stepStart) / max(stepEnd - stepStart, 1e-6) : 0
        var spikes = -spikeMean
        for j in max(0, k - 1)...min(k + 1, stepTimes.count - 1) {
            let dt = τ - stepTimes[j] - 2 * spikeWidth
            spikes += impactScale[j] * exp(-dt * dt / (2 * spikeWidth * spikeWidth))
        }
        let stride = Double.pi * (Double(k) + u)
        let swingPhase = swingsWithStride ? sin(stride) : sin(2 * .pi * u)
        let swing = swingRadians * envelope * swingPhase
        let swingFrequency = swingsWithStride ? stepHertz / 2 : stepHertz
        let tangential = -swingRadius * swing * pow(2 * .pi * swingFrequency, 2)
        let vertical = bounce * bounceScale[k] * cos(2 * .pi * u) + impact * spikes
        let forward = 0.5 * bounce * bounceScale[k] * sin(2 * .pi * u - 0.6) - 0.3 * impact * spikes + tangential
        let lateral = 0.3 * bounce * sin(stride)
        let linear = SIMD3(forward, lateral, vertical) * envelope
        let world = synthRotate(linear + synthGravityUp, about: swingAxis, radians: -swing)
        return turn.rotation(at: τ).transposeApplied(to: world)
    }
}

/// `MotionSegment.pickUp` and `.putDown`.
struct SynthPoseModel: Sendable {
    let seconds: Double
    let from: DeviceOrientation
    let to: DeviceOrientation
    /// World-frame displacement, m.
    let displacement: SIMD3<Double>
    let landing: Bool
    static let landingWidth = 0.02
    static let landingPeak = 0.25 * standardGravity

    /// Peak linear acceleration of a move by `meters` (with its 40 % sideways part) over
    /// `seconds`, m/s².
    static func peakAcceleration(meters: Double, seconds: Double) -> Double {
        5.7735 * abs(meters) * (1 + 0.4 * 0.4).squareRoot() / (seconds * seconds)
    }

    func reading(at τ: Double) -> SIMD3<Double> {
        let u = τ / seconds
        let rotation = from.interpolated(to: to, fraction: synthMinimumJerk(u)).rotation
        var linear = displacement * (synthMinimumJerkAcceleration(u) / (seconds * seconds))
        if landing {
            let start = seconds - 4 * Self.landingWidth
            linear.z += Self.landingPeak * synthPulse(τ - start, width: Self.landingWidth)
        }
        return rotation.transposeApplied(to: linear + synthGravityUp)
    }
}

/// `MotionSegment.tap`.
struct SynthTapModel: Sendable {
    let tap: TapMotion
    let rotation: SynthMatrix

    func reading(at τ: Double) -> SIMD3<Double> {
        // Knocked down into the table first, then the rebound.
        let knock = -tap.peakG * standardGravity * synthPulse(τ - tap.atSeconds, width: tap.widthSeconds)
        return rotation.transposeApplied(to: synthGravityUp + SIMD3(0, 0, knock))
    }
}

extension Array {
    /// The first index whose element satisfies `belongs`, assuming all elements that satisfy it
    /// come after all that do not (binary search). `endIndex` when none does.
    func synthPartitionIndex(where belongs: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if belongs(self[middle]) {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return low
    }
}
