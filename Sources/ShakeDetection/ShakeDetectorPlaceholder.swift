// TEMPORARY: a simple detector so the CLI and other modules build and run while the real
// algorithm is developed on branch `algo`. Deleted when that lands.

public struct ShakeConfiguration: Sendable, Hashable, Codable {
    public var gravityTimeConstantSeconds: Double = 0.5
    public var thresholdMetersPerSecondSquared: Double = 10
    public var reversalWindowSeconds: Double = 0.3
    public var minimumHalfWaves: Int = 4
    public var quietSeconds: Double = 0.5
    public var refractorySeconds: Double = 0.5
    public var maximumGapSeconds: Double = 0.5
    public var maximumShakeSeconds: Double = 10

    public static let medium = ShakeConfiguration()
    public static let light: ShakeConfiguration = {
        var c = ShakeConfiguration(); c.thresholdMetersPerSecondSquared = 8; return c
    }()
    public static let hard: ShakeConfiguration = {
        var c = ShakeConfiguration(); c.thresholdMetersPerSecondSquared = 14; return c
    }()
    public static let `default` = medium
    public static let presetNames = ["light", "medium", "hard"]

    public static func preset(named name: String) -> ShakeConfiguration? {
        switch name {
        case "light": light
        case "medium": medium
        case "hard": hard
        default: nil
        }
    }
}

public struct ShakeDetector: Sendable {
    public let configuration: ShakeConfiguration
    private var gravity = (x: 0.0, y: 0.0, z: 0.0)
    private var lastTime: Double?
    private var inExcursion = false
    private var excursion = (x: 0.0, y: 0.0, z: 0.0, m: 0.0)
    private var lastDirection: (x: Double, y: Double, z: Double)?
    private var lastExcursionEnd = -Double.infinity
    private var halfWaves = 0
    private var firstStart = 0.0
    private var peak = 0.0
    private var axisEnergy = (x: 0.0, y: 0.0, z: 0.0)
    private var began = false
    private var silentUntil = -Double.infinity

    public init(configuration: ShakeConfiguration = .default) {
        self.configuration = configuration
    }

    public var isShaking: Bool { began }

    public mutating func reset() { self = ShakeDetector(configuration: configuration) }

    private var dominantAxis: ShakeAxis {
        axisEnergy.x >= axisEnergy.y && axisEnergy.x >= axisEnergy.z ? .x : (axisEnergy.y >= axisEnergy.z ? .y : .z)
    }

    private func event(_ phase: ShakeEvent.Phase, at time: Double, reason: ShakeEvent.CancellationReason? = nil) -> ShakeEvent {
        ShakeEvent(phase: phase, time: time, startTime: firstStart, endTime: lastExcursionEnd,
                   peakAcceleration: peak, reversals: max(0, halfWaves - 1), dominantAxis: dominantAxis,
                   cancellationReason: reason)
    }

    public mutating func interrupt(at time: Double) -> ShakeEvent? {
        let wasShaking = began
        let result = wasShaking ? event(.cancelled, at: time, reason: .interrupted) : nil
        reset()
        return result
    }

    public mutating func process(_ s: Sample) -> ShakeEvent? {
        guard s.time.isFinite, s.x.isFinite, s.y.isFinite, s.z.isFinite else { return nil }
        guard let last = lastTime else {
            lastTime = s.time
            gravity = (s.x, s.y, s.z)
            return nil
        }
        let dt = s.time - last
        if dt > configuration.maximumGapSeconds || dt < 0 {
            let wasShaking = began
            let e = wasShaking ? event(.cancelled, at: s.time, reason: .gap) : nil
            reset()
            lastTime = s.time
            gravity = (s.x, s.y, s.z)
            return e
        }
        lastTime = s.time
        let a = 1 - 1 / (1 + dt / configuration.gravityTimeConstantSeconds)
        gravity.x += a * (s.x - gravity.x)
        gravity.y += a * (s.y - gravity.y)
        gravity.z += a * (s.z - gravity.z)
        let lx = s.x - gravity.x, ly = s.y - gravity.y, lz = s.z - gravity.z
        let m = (lx * lx + ly * ly + lz * lz).squareRoot()
        var result: ShakeEvent?
        if m > configuration.thresholdMetersPerSecondSquared {
            if !inExcursion {
                inExcursion = true
                excursion = (lx, ly, lz, m)
            } else if m > excursion.m {
                excursion = (lx, ly, lz, m)
            }
            if halfWaves > 0 { lastExcursionEnd = s.time }
        } else if inExcursion {
            inExcursion = false
            let d = (x: excursion.x / excursion.m, y: excursion.y / excursion.m, z: excursion.z / excursion.m)
            if s.time >= silentUntil {
                if let p = lastDirection, s.time - lastExcursionEnd <= configuration.reversalWindowSeconds + 0.2,
                   p.x * d.x + p.y * d.y + p.z * d.z < -0.5 {
                    halfWaves += 1
                } else if !began {
                    halfWaves = 1
                    firstStart = s.time
                    peak = 0
                    axisEnergy = (0, 0, 0)
                }
                lastDirection = d
                lastExcursionEnd = s.time
                peak = max(peak, excursion.m)
                axisEnergy.x += excursion.x * excursion.x
                axisEnergy.y += excursion.y * excursion.y
                axisEnergy.z += excursion.z * excursion.z
                if !began && halfWaves >= configuration.minimumHalfWaves {
                    began = true
                    result = event(.began, at: s.time)
                }
            }
        }
        if began {
            if s.time - firstStart > configuration.maximumShakeSeconds {
                result = event(.cancelled, at: s.time, reason: .tooLong)
                began = false
                halfWaves = 0
                lastDirection = nil
                silentUntil = s.time + configuration.refractorySeconds
            } else if !inExcursion && s.time - lastExcursionEnd > configuration.quietSeconds {
                result = event(.ended, at: s.time)
                began = false
                halfWaves = 0
                lastDirection = nil
                silentUntil = s.time + configuration.refractorySeconds
            }
        } else if halfWaves > 0 && s.time - lastExcursionEnd > configuration.quietSeconds {
            halfWaves = 0
            lastDirection = nil
        }
        return result
    }
}
