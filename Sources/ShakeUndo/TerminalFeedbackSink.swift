/// A feedback sink for a terminal: stands in for a device's cues by writing one line per
/// feedback, for example `[feedback] visual+audible: notification success`.
///
/// It reports the modes it is given (default visual and audible), as a device would. With
/// `ringsBell`, a delivery in audible mode also writes BEL (U+0007) at the end of its line, so
/// the terminal beeps; without it nothing but text is written.
public final class TerminalFeedbackSink: FeedbackSink {
    public let modes: Set<FeedbackMode>
    /// Whether audible deliveries end their line with BEL (U+0007).
    public let ringsBell: Bool
    /// Whether `prepare()` writes a line (`[feedback] prepare visual+audible`).
    public let logsPreparation: Bool
    private let output: (String) -> Void

    /// - Parameters:
    ///   - modes: the modes this sink represents; default visual and audible.
    ///   - ringsBell: write BEL after audible deliveries; default false.
    ///   - logsPreparation: write a line on `prepare()`; default false.
    ///   - output: receives each line, without a line terminator (for example `{ print($0) }`).
    public init(
        modes: Set<FeedbackMode> = [.visual, .audible], ringsBell: Bool = false,
        logsPreparation: Bool = false, output: @escaping (String) -> Void
    ) {
        self.modes = modes
        self.ringsBell = ringsBell
        self.logsPreparation = logsPreparation
        self.output = output
    }

    public func prepare() {
        if logsPreparation { output("[feedback] prepare \(FeedbackMode.describe(modes))") }
    }

    public func deliver(_ type: FeedbackType) {
        let bell = ringsBell && modes.contains(.audible) ? "\u{07}" : ""
        output("[feedback] \(FeedbackMode.describe(modes)): \(type)\(bell)")
    }
}
