import ShakeDetection

/// One scripted stretch of motion for `Synthesizer`. A script is an array of segments played
/// one after the other; the recording lasts the sum of their `seconds`.
///
/// Orientation carries over from one segment to the next. A `rest` or `gait` segment that names
/// an orientation different from the current one turns the device there smoothly (minimum-jerk
/// profile) during its first second (or first half, when shorter), as a hand would.
public enum MotionSegment: Sendable, Hashable {
    /// Still for `seconds`. `held: false` is a device lying on a surface (only sensor noise);
    /// `held: true` is a steady hand: physiological tremor of about 0.005 g at 8–12 Hz and a slow
    /// drift of the wrist under 1°.
    case rest(seconds: Double, orientation: DeviceOrientation? = nil, held: Bool = false)
    /// A deliberate shake; the only segment labelled `shake=1`.
    case shake(ShakeMotion)
    /// Walking or running with the device in a hand, a pocket or a bag.
    case gait(GaitMotion)
    /// A single smooth lift off a surface over `seconds`: up by `liftMeters` and 40 % of that
    /// towards the user along a minimum-jerk path, turning to `to` on the way. Linear
    /// acceleration peaks at `5.77 · lift / seconds²` (must stay ≤ 0.5 g).
    case pickUp(seconds: Double = 1, to: DeviceOrientation = .handheld, liftMeters: Double = 0.25)
    /// The reverse of `pickUp`: down by `lowerMeters`, turning to `to`, and a soft landing bump
    /// (0.25 g for about 20 ms) at the end.
    case putDown(seconds: Double = 1, to: DeviceOrientation = .flat, lowerMeters: Double = 0.25)
    /// A sharp tap on the device lying on a table, then still.
    case tap(TapMotion)
    /// Held in a hand while the user types with a thumb: `tapsPerSecond` light taps
    /// (0.03–0.12 g, about 15 ms each) into the screen at irregular intervals, on top of `rest(held: true)`.
    case typing(seconds: Double, tapsPerSecond: Double = 4)

    /// A shake along one device axis lasting `cycles` periods.
    public static func shake(
        frequencyHertz: Double, amplitudeG: Double, axis: ShakeAxis, cycles: Double
    ) -> MotionSegment {
        .shake(ShakeMotion(frequencyHertz: frequencyHertz, amplitudeG: amplitudeG, axis: axis, cycles: cycles))
    }

    /// Walking with the device in `placement` for `seconds`, with that placement's defaults.
    public static func walk(seconds: Double, placement: GaitPlacement = .hand) -> MotionSegment {
        .gait(GaitMotion(kind: .walk, placement: placement, seconds: seconds))
    }

    /// Running with the device in `placement` for `seconds`, with that placement's defaults.
    public static func run(seconds: Double, placement: GaitPlacement = .hand) -> MotionSegment {
        .gait(GaitMotion(kind: .run, placement: placement, seconds: seconds))
    }

    /// How long the segment lasts, s.
    public var seconds: Double {
        switch self {
        case .rest(let seconds, _, _): seconds
        case .shake(let shake): shake.seconds
        case .gait(let gait): gait.seconds
        case .pickUp(let seconds, _, _): seconds
        case .putDown(let seconds, _, _): seconds
        case .tap(let tap): tap.seconds
        case .typing(let seconds, _): seconds
        }
    }

    /// Whether the segment's samples are labelled `shake=1`.
    public var isShake: Bool {
        if case .shake = self { return true }
        return false
    }

    /// The same motion lasting `seconds` instead (a shake ramps out over its last cycle within
    /// the new length; a pick-up or put-down keeps its path but takes the new time).
    public func withSeconds(_ seconds: Double) -> MotionSegment {
        switch self {
        case .rest(_, let orientation, let held): return .rest(seconds: seconds, orientation: orientation, held: held)
        case .shake(var shake):
            shake.seconds = seconds
            return .shake(shake)
        case .gait(var gait):
            gait.seconds = seconds
            return .gait(gait)
        case .pickUp(_, let orientation, let lift): return .pickUp(seconds: seconds, to: orientation, liftMeters: lift)
        case .putDown(_, let orientation, let lower):
            return .putDown(seconds: seconds, to: orientation, lowerMeters: lower)
        case .tap(var tap):
            tap.seconds = seconds
            tap.atSeconds = min(tap.atSeconds, seconds)
            return .tap(tap)
        case .typing(_, let rate): return .typing(seconds: seconds, tapsPerSecond: rate)
        }
    }

    /// A short name for messages: `rest`, `shake`, `walk`, `run`, `pickUp`, `putDown`, `tap`, `typing`.
    public var kindName: String {
        switch self {
        case .rest: "rest"
        case .shake: "shake"
        case .gait(let gait): gait.kind.rawValue
        case .pickUp: "pickUp"
        case .putDown: "putDown"
        case .tap: "tap"
        case .typing: "typing"
        }
    }

    /// The orientation a `rest` or `gait` segment turns to, if it names one.
    public var declaredOrientation: DeviceOrientation? {
        switch self {
        case .rest(_, let orientation, _): orientation
        case .gait(let gait): gait.orientation ?? gait.placement.orientation
        default: nil
        }
    }
}
