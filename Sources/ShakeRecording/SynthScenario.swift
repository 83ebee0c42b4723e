/// Named motion scripts for `Synthesizer` and `shake synth`, each with the sensor it is usually
/// read through.
public enum SynthScenario: Sendable, Hashable, CaseIterable {
    /// Five shakes of different frequency (3–7.5 Hz), amplitude (1.5–3.5 g) and direction,
    /// one after turning the device to landscape, separated by 2.5 s of holding still. 23.8 s.
    case shakes
    /// Standing 2 s, walking, standing 2 s, with the device in `placement`. 30 s.
    case walking(GaitPlacement)
    /// Standing 2 s, running with the device in a hand, standing 2 s. 24 s.
    case running
    /// Three times: lying on a table, picked up (0.7–1.2 s), held, put down. 21.1 s.
    case pickUpPutDown
    /// Taps of 2–5 g (one a double tap) on a device lying on a table. 8.3 s.
    case tableTap
    /// One 6 s shake at 5 Hz, 2.5 g, between 2 s of holding still. 10 s.
    case longShake
    /// Two hard shakes (3.5 g along x, 3 g along y) meant to be read through a ±2 g sensor. 12.5 s.
    case clippedShake
    /// Three short shakes (4 Hz 2 g along x, 6 Hz 3 g diagonal, 3 Hz 2.5 g along z): the script
    /// to render at several rates. 13 s.
    case sameMotion
    /// The shake-to-undo demo: holding the device while typing for 6 s, a clear shake, rest, a
    /// second shake, rest. 19 s.
    case demoSession
    /// A bit of everything: picked up, typing, walking, a shake, walking with the device in a
    /// pocket, taken out, a shake, put down, a tap. 42 s.
    case mixed

    public static let allCases: [SynthScenario] = [
        .shakes, .walking(.hand), .walking(.pocket), .walking(.bag), .running, .pickUpPutDown,
        .tableTap, .longShake, .clippedShake, .sameMotion, .demoSession, .mixed,
    ]

    /// The scenario's command-line name, e.g. `walking-pocket`.
    public var name: String {
        switch self {
        case .shakes: "shakes"
        case .walking(let placement): "walking-\(placement.rawValue)"
        case .running: "running"
        case .pickUpPutDown: "pickup-putdown"
        case .tableTap: "table-tap"
        case .longShake: "long-shake"
        case .clippedShake: "clipped-shake"
        case .sameMotion: "same-motion"
        case .demoSession: "demo-session"
        case .mixed: "mixed"
        }
    }

    /// The scenario called `name` (as in `name`), or `nil`.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = match
    }

    /// One line for `--help`.
    public var summary: String {
        switch self {
        case .shakes: "5 shakes (3-7.5 Hz, 1.5-3.5 g, several directions) between rests"
        case .walking(.hand): "walking with the device held in a hand"
        case .walking(.pocket): "walking with the device in a trouser pocket"
        case .walking(.bag): "walking with the device in a bag"
        case .running: "running with the device in a hand"
        case .pickUpPutDown: "picked up from a table, held, put down; three times"
        case .tableTap: "taps of 2-5 g on a device lying on a table"
        case .longShake: "one 6 s shake at 5 Hz, 2.5 g"
        case .clippedShake: "two hard shakes (3-3.5 g), for a +/-2 g sensor"
        case .sameMotion: "three short shakes, to render at several rates"
        case .demoSession: "typing for 6 s, a clear shake, rest, a second shake (the shake-to-undo demo)"
        case .mixed: "pick-up, typing, walking, pocket, shakes, put-down, tap"
        }
    }

    /// The sensor the scenario's fixture is read through: 100 Hz (400 Hz for `tableTap`,
    /// 50 Hz with a ±2 g range for `clippedShake`, 50 Hz for `demoSession`), 5 % jitter,
    /// 0.03 m/s² noise.
    public var defaultSensor: SensorModel {
        switch self {
        case .tableTap: SensorModel(rateHertz: 400, jitterFraction: 0.05)
        case .clippedShake: SensorModel(rateHertz: 50, jitterFraction: 0.05, clipG: 2)
        case .demoSession: SensorModel(rateHertz: 50, jitterFraction: 0.05)
        default: SensorModel(rateHertz: 100, jitterFraction: 0.05)
        }
    }

    /// The scenario's script. With `seconds`, the recording lasts that long: walking and running
    /// stretch or shorten the gait (standing 2 s at each end, or a quarter of `seconds` when shorter);
    /// every other scenario is cut at `seconds` (a cut shake ramps out within what remains) or
    /// padded with rest.
    public func script(seconds: Double? = nil) -> [MotionSegment] {
        switch self {
        case .walking(let placement):
            let total = seconds ?? 30
            let stand = MotionSegment.rest(
                seconds: min(2, total / 4), orientation: placement.orientation, held: placement != .bag)
            return [stand, .walk(seconds: total - 2 * stand.seconds, placement: placement), stand]
        case .running:
            let total = seconds ?? 24
            let stand = MotionSegment.rest(seconds: min(2, total / 4), orientation: .handheld, held: true)
            return [stand, .run(seconds: total - 2 * stand.seconds), stand]
        default:
            let script = baseScript
            guard let seconds else { return script }
            return Self.fitted(script, to: seconds)
        }
    }

    private var baseScript: [MotionSegment] {
        func hold(_ seconds: Double, _ orientation: DeviceOrientation? = nil) -> MotionSegment {
            .rest(seconds: seconds, orientation: orientation, held: true)
        }
        func shake(_ hertz: Double, _ g: Double, _ direction: SIMD3<Double>, cycles: Double) -> MotionSegment {
            .shake(ShakeMotion(frequencyHertz: hertz, amplitudeG: g, direction: direction, seconds: cycles / hertz))
        }
        let x = SIMD3<Double>(1, 0, 0)
        let y = SIMD3<Double>(0, 1, 0)
        let z = SIMD3<Double>(0, 0, 1)
        switch self {
        case .shakes:
            return [
                hold(1.5, .handheld), shake(4, 2, x, cycles: 8),
                hold(2.5), shake(6, 3, y, cycles: 12),
                hold(2.5), shake(3, 1.5, z, cycles: 7),
                hold(2.5, .landscape), shake(7.5, 3.5, SIMD3(1, 1, 0), cycles: 15),
                hold(2.5, .handheld), shake(5, 2.5, SIMD3(0.3, 1, 0.5), cycles: 10),
                hold(2),
            ]
        case .pickUpPutDown:
            return [
                .rest(seconds: 2, orientation: .flat), .pickUp(seconds: 1, to: .handheld), hold(3),
                .putDown(seconds: 1, to: .flat), .rest(seconds: 2),
                .pickUp(seconds: 0.7, to: .portrait, liftMeters: 0.2), hold(2),
                .putDown(seconds: 0.8, to: .flat, lowerMeters: 0.2), .rest(seconds: 2),
                .pickUp(seconds: 1.2, to: .landscape, liftMeters: 0.3), hold(2.4),
                .putDown(seconds: 1, to: .flat), .rest(seconds: 2),
            ]
        case .tableTap:
            return [
                .rest(seconds: 1, orientation: .flat),
                .tap(TapMotion(peakG: 3, seconds: 1.5)), .tap(TapMotion(peakG: 5, seconds: 1.5)),
                .tap(TapMotion(peakG: 2, seconds: 1.5)),
                .tap(TapMotion(peakG: 4, atSeconds: 0.2, seconds: 0.35)),
                .tap(TapMotion(peakG: 4, atSeconds: 0, seconds: 1.45)),
                .rest(seconds: 1),
            ]
        case .longShake:
            return [hold(2, .handheld), shake(5, 2.5, x, cycles: 30), hold(2)]
        case .clippedShake:
            return [hold(2, .handheld), shake(4, 3.5, x, cycles: 10), hold(2.5), shake(6, 3, y, cycles: 12), hold(3.5)]
        case .sameMotion:
            return [
                hold(1.5, .handheld), shake(4, 2, x, cycles: 8),
                hold(2), shake(6, 3, SIMD3(0.5, 1, 0), cycles: 12),
                hold(2), shake(3, 2.5, z, cycles: 6),
                hold(1.5),
            ]
        case .demoSession:
            return [hold(1, .handheld), .typing(seconds: 6), hold(1), shake(5, 2.5, x, cycles: 10), hold(4),
                    shake(4, 2.5, y, cycles: 8), hold(3)]
        case .mixed:
            return [
                .rest(seconds: 2, orientation: .flat), .pickUp(seconds: 1, to: .handheld), .typing(seconds: 4),
                .walk(seconds: 10, placement: .hand), hold(1.5), shake(5, 2.5, x, cycles: 10), hold(2),
                .walk(seconds: 10, placement: .pocket), hold(2, .handheld), shake(4, 3, y, cycles: 8), hold(2),
                .putDown(seconds: 1, to: .flat), .tap(TapMotion(peakG: 3, seconds: 1.5)), .rest(seconds: 1),
            ]
        case .walking, .running:
            return script()
        }
    }

    /// The fewest back-and-forth cycles a cut shake keeps, 2: the four half-waves every preset
    /// needs (`minimumHalfWaves`).
    static let shortestCutShakeCycles = 2.0

    /// `script` cut or padded with rest to last `seconds`. A shake cut to fewer than
    /// `shortestCutShakeCycles` cycles becomes rest, so that no sliver of motion is labelled a
    /// shake.
    static func fitted(_ script: [MotionSegment], to seconds: Double) -> [MotionSegment] {
        var result: [MotionSegment] = []
        var elapsed = 0.0
        for segment in script {
            let remaining = seconds - elapsed
            guard remaining > 1e-9 else { break }
            if segment.seconds <= remaining {
                result.append(segment)
            } else if case .shake(let shake) = segment, remaining * shake.frequencyHertz < Self.shortestCutShakeCycles {
                // A sliver of a shake, labelled shake=1, would count a miss that the presets
                // could not avoid (they need four half-waves): it is held still instead.
                result.append(.rest(seconds: remaining, held: true))
            } else {
                result.append(segment.withSeconds(remaining))
            }
            elapsed += min(segment.seconds, remaining)
        }
        if seconds - elapsed > 1e-9 {
            let held: Bool
            if case .rest(_, _, let wasHeld) = result.last { held = wasHeld } else { held = false }
            result.append(.rest(seconds: seconds - elapsed, held: held))
        }
        return result
    }
}
