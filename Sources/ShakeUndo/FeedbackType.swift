/// The fixed set of feedback types. Use each as intended; never stand one in for another
/// (success is `notificationSuccess`, not an impact).
public enum FeedbackType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A task succeeded: an undo or redo was applied.
    case notificationSuccess
    /// A task produced a warning.
    case notificationWarning
    /// A task failed: the chosen undo or redo could not be applied.
    case notificationError
    /// A small physical event: something light snapped or collided.
    case impactLight
    /// A medium physical event: a deliberate gesture was recognised, such as the shake that
    /// brings up the undo prompt.
    case impactMedium
    /// A heavy physical event.
    case impactHeavy
    /// The selection changed (a picker moved to another value).
    case selection

    /// Words for logs and terminals: "notification success", "impact medium", "selection".
    public var description: String {
        switch self {
        case .notificationSuccess: "notification success"
        case .notificationWarning: "notification warning"
        case .notificationError: "notification error"
        case .impactLight: "impact light"
        case .impactMedium: "impact medium"
        case .impactHeavy: "impact heavy"
        case .selection: "selection"
        }
    }
}

/// How a feedback reaches the user.
public enum FeedbackMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Seen: an animation, a light, a line on a screen.
    case visual
    /// Heard: a sound, a beep.
    case audible
    /// Felt: a vibration motor or actuator.
    case haptic

    public var description: String { rawValue }

    /// Modes joined with "+" in the fixed order visual, audible, haptic: "visual+audible".
    public static func describe(_ modes: Set<FeedbackMode>) -> String {
        allCases.filter(modes.contains).map(\.rawValue).joined(separator: "+")
    }
}
