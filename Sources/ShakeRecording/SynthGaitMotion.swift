/// Where the device is carried while walking or running.
public enum GaitPlacement: String, Sendable, Hashable, Codable, CaseIterable {
    /// Held in front of the user: moderate bounce, impacts softened by the arm, small sway.
    case hand
    /// In a front trouser pocket: stronger, sharper heel-strike impacts; the device is upside
    /// down and tilted and swings with the thigh (±25° walking, ±35° running) at stride rate.
    case pocket
    /// In a bag: impacts damped into wider, softer bumps (35 ms against the pocket's 12 ms),
    /// slow swaying.
    case bag

    /// The orientation the device takes in this placement.
    public var orientation: DeviceOrientation {
        switch self {
        case .hand: .handheld
        case .pocket: .pocket
        case .bag: .bag
        }
    }
}

/// Walking or running for `MotionSegment.gait`.
///
/// Per step `k` (start `t_k`, interval drawn ±4 % around `1 / stepHertz`), with `u` the phase
/// within the step, the world-frame linear acceleration is
/// vertical `B · cos 2πu + H · spike(t − t_k)`, forward `0.5 B · sin(2πu − 0.6) − 0.3 H · spike`,
/// lateral `0.3 B · sin π(k + u)` (sway at stride rate), where `spike` is a Gaussian pulse of
/// width σ (12 ms pocket, 25 ms hand, 35 ms bag) with its mean removed, `B = bounceG · g` and
/// `H = impactG · g`, each varied ±10 % per step. The gait ramps in over the first step and out
/// over the last. The device rotates with the placement (see `GaitPlacement`).
public struct GaitMotion: Sendable, Hashable {
    /// Walking or running.
    public enum Kind: String, Sendable, Hashable, Codable {
        case walk, run
    }

    public var kind: Kind
    public var placement: GaitPlacement
    /// Length of the segment, s.
    public var seconds: Double
    /// Steps per second (one foot then the other is two steps), Hz. Default 2.0 walking, 2.75 running.
    public var stepHertz: Double
    /// Amplitude of the vertical bounce, g. Defaults: walking 0.3 hand, 0.45 pocket, 0.3 bag;
    /// running 0.8, 0.9, 0.5.
    public var bounceG: Double
    /// Peak of the heel-strike impact, g. Defaults: walking 0.3 hand, 1.4 pocket, 0.6 bag;
    /// running 1.2, 1.8, 0.6.
    ///
    /// The walking defaults follow the Oxford step-counter recordings in the corpus (user 1, dev
    /// split), where |a| − g reaches about 0.7 g in a hand, 2.2 g in a front pocket and 1.8 g in
    /// a bag (99th percentiles 0.5, 1.65 and 1.1 g).
    public var impactG: Double
    /// Device orientation during the gait; `nil` takes `placement.orientation`.
    public var orientation: DeviceOrientation?

    public init(
        kind: Kind, placement: GaitPlacement, seconds: Double, stepHertz: Double? = nil,
        bounceG: Double? = nil, impactG: Double? = nil, orientation: DeviceOrientation? = nil
    ) {
        self.kind = kind
        self.placement = placement
        self.seconds = seconds
        self.stepHertz = stepHertz ?? (kind == .walk ? 2.0 : 2.75)
        let defaults: (bounce: Double, impact: Double) =
            switch (kind, placement) {
            case (.walk, .hand): (0.3, 0.3)
            case (.walk, .pocket): (0.45, 1.4)
            case (.walk, .bag): (0.3, 0.6)
            case (.run, .hand): (0.8, 1.2)
            case (.run, .pocket): (0.9, 1.8)
            case (.run, .bag): (0.5, 0.6)
            }
        self.bounceG = bounceG ?? defaults.bounce
        self.impactG = impactG ?? defaults.impact
        self.orientation = orientation
    }
}
