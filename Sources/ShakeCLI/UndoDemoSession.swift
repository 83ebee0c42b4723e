import ShakeDetection
import ShakeUndo

/// The editing session of `shake demo` (driven by a recording) and `shake live --undo-demo`
/// (driven by a live accelerometer).
///
/// The scripted user makes `DemoCommand.edits` 2, 4 and 6 s after the first sample; each shake
/// the detector reports is dispatched through the gesture registry to shake to undo, whose
/// Undo/Redo/Cancel prompt is answered from `choices` (then cancel). Printed on the same timeline
/// as `shake demo` (seconds from the first sample). Use it from one thread.
final class UndoDemoSession {
    private let timeline: DemoCommand.Timeline
    private let undo: UndoStack
    private let dispatcher = ShakeDispatcher()
    private let shakeToUndo: ShakeToUndo
    private var document = DemoCommand.Document()
    private var nextEdit = DemoCommand.edits[...]
    private var start: Double?
    /// Held for the demo's lifetime: releasing it hands the gesture back.
    private let ownership: GestureOwnership

    /// Prompts shown so far.
    var promptCount: UInt64 { shakeToUndo.promptCount }

    /// - Parameter introduction: the first line printed, before the gesture's owner is named.
    init(io: CommandIO, choices: [UndoChoice], ringsBell: Bool, introduction: String) throws {
        let timeline = DemoCommand.Timeline(io: io)
        self.timeline = timeline
        let contexts = UndoContextRegistry()
        undo = contexts.activate("note")
        let feedback = try FeedbackCenter(sinks: [
            // Audible only when it is: without --bell the terminal shows the cues and makes no sound.
            TerminalFeedbackSink(
                modes: ringsBell ? [.visual, .audible] : [.visual], ringsBell: ringsBell, logsPreparation: true
            ) { timeline.note($0) },
        ])
        var pendingChoices = choices[...]
        // The presenter and the outcome read the document through this box: `self` is not
        // complete yet when they are made.
        let documentBox = DocumentBox()
        let presenter = ClosurePromptPresenter { prompt in
            let buttons = prompt.choices.compactMap(prompt.title(for:)).map { "[\($0)]" }.joined(separator: " ")
            timeline.note("prompt    \(buttons)")
            var choice = pendingChoices.popFirst() ?? .cancel
            if prompt.title(for: choice) == nil {
                // No button for it: the user can only cancel (the script's answer is used up).
                timeline.note("user would \(choice.rawValue), but the prompt has no such button")
                choice = .cancel
            }
            timeline.note("user taps [\(prompt.title(for: choice) ?? choice.rawValue)]")
            timeline.note("before    \(documentBox.document())")
            return choice
        }
        shakeToUndo = ShakeToUndo(contexts: contexts, presenter: presenter, feedback: feedback)
        shakeToUndo.onOutcome = { _, _, outcome in
            timeline.note("\(outcome)")
            timeline.note("after     \(documentBox.document())")
        }
        ownership = try dispatcher.claim(owner: "note editor", handler: shakeToUndo)
        documentBox.document = { [unowned self] in self.document }
        timeline.line(introduction)
        let owner = dispatcher.registry.currentOwner ?? ""
        timeline.line("The shake gesture is owned by \"\(owner)\"; times are seconds from the first sample.")
    }

    private final class DocumentBox {
        var document: () -> DemoCommand.Document = { DemoCommand.Document() }
    }

    /// Applies the scripted edits due by `sample`'s time.
    func advance(to sample: Sample) throws {
        if start == nil {
            start = sample.time
            timeline.origin = sample.time
            timeline.at(sample.time, "document  \(document)")
        }
        while let edit = nextEdit.first, sample.time - (start ?? 0) >= edit.offset {
            nextEdit = nextEdit.dropFirst()
            let before = document
            edit.apply(&document)
            registerRestore(before)
            try undo.setActionName(edit.actionName)
            timeline.at(sample.time, "edit      the user \(edit.summary)  (undo title: \"\(undo.undoMenuItemTitle ?? "-")\")")
        }
    }

    /// Prints a shake event on the timeline.
    func show(_ event: ShakeEvent) {
        switch event.phase {
        case .began:
            let peak = fixed(event.peakAcceleration, 1)
            timeline.at(event.time, "shake     began: \(event.reversals) reversals, peak \(peak) m/s², axis \(event.dominantAxis)")
        case .ended:
            // The motion's own span, which ends before the `ended` line (it waits for the quiet).
            let from = fixed(event.startTime - timeline.origin, 2)
            let to = fixed(event.endTime - timeline.origin, 2)
            timeline.at(event.time, "shake     ended: shaking from \(from) to \(to) s (\(fixed(event.duration, 2)) s)")
        case .cancelled:
            timeline.at(event.time, "shake     cancelled (\(event.cancellationReason?.rawValue ?? "?"))")
        }
    }

    /// Routes a shake event to shake to undo.
    func handle(_ event: ShakeEvent) {
        _ = dispatcher.dispatch(event)
    }

    /// The closing line: the final document.
    func finish(at time: Double, shakes: Int) {
        let shakeText = shakes == 1 ? "1 shake" : "\(shakes) shakes"
        let promptText = promptCount == 1 ? "1 prompt" : "\(promptCount) prompts"
        timeline.at(time, "end       \(shakeText), \(promptText); final document: \(document)")
    }

    /// Undo restores `state` and registers the way back, so the step can be redone.
    private func registerRestore(_ state: DemoCommand.Document) {
        registerRestoreOn(undo, state)
    }

    private func registerRestoreOn(_ stack: UndoStack, _ state: DemoCommand.Document) {
        stack.registerUndo { [unowned self] stack in
            let current = self.document
            self.document = state
            self.registerRestoreOn(stack, current)
        }
    }
}
