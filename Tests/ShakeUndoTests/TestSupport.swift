import ShakeDetection
import ShakeUndo

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator, so random sequences repeat.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A shake event with the given phase at `time` seconds (the other fields are plausible values).
func shakeEvent(_ phase: ShakeEvent.Phase, at time: Double) -> ShakeEvent {
    ShakeEvent(
        phase: phase, time: time, startTime: time - 0.6, endTime: time,
        peakAcceleration: 18, reversals: 4, dominantAxis: .x,
        cancellationReason: phase == .cancelled ? .interrupted : nil)
}

/// A feedback sink that records what it is asked to do, into a log shared between sinks.
final class RecordingSink: FeedbackSink {
    final class Log {
        var entries: [String] = []
    }

    let name: String
    let modes: Set<FeedbackMode>
    let log: Log

    init(_ name: String, modes: Set<FeedbackMode>, log: Log = Log()) {
        self.name = name
        self.modes = modes
        self.log = log
    }

    func prepare() { log.entries.append("\(name) prepare") }
    func deliver(_ type: FeedbackType) { log.entries.append("\(name) \(type)") }
}

/// A text document whose edits register their own undo, as an app would.
final class TextDocument {
    var text: String
    let stack: UndoStack

    init(_ text: String, stack: UndoStack) {
        self.text = text
        self.stack = stack
    }

    /// An edit with no action name (also how undo and redo put the text back).
    func setText(_ new: String) {
        let old = text
        text = new
        stack.registerUndo { [unowned self] _ in self.setText(old) }
    }

    /// An edit named `name`; throws what `UndoStack.setActionName(_:)` throws (the edit is
    /// made and registered either way, as an app's would be).
    func setText(_ new: String, name: String) throws {
        setText(new)
        try stack.setActionName(name)
    }
}
