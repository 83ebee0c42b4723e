import ShakeDetection
import ShakeUndo

/// `shake live --undo-demo`: the `shake demo` editing session driven by a live accelerometer.
///
/// The scripted user makes `DemoCommand.edits` 2, 4 and 6 s after the first sample; each shake
/// the detector reports is dispatched through the gesture registry to shake to undo, whose
/// Undo/Redo/Cancel prompt is answered from `choices` (then cancel). Printed on the same timeline
/// as `shake demo` (seconds from the first sample). Use it from one thread.
final class LiveUndoDemo {
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

    init(io: CommandIO, choices: [UndoChoice], ringsBell: Bool) throws {
        let timeline = DemoCommand.Timeline(io: io)
        self.timeline = timeline
        let contexts = UndoContextRegistry()
        undo = contexts.activate("note")
        let feedback = try FeedbackCenter(sinks: [
            TerminalFeedbackSink(ringsBell: ringsBell, logsPreparation: true) { timeline.note($0) },
        ])
        var pendingChoices = choices[...]
        // The presenter and the outcome read the document through this box: `self` is not
        // complete yet when they are made.
        let documentBox = DocumentBox()
        let presenter = ClosurePromptPresenter { prompt in
            let buttons = prompt.choices.compactMap(prompt.title(for:)).map { "[\($0)]" }.joined(separator: " ")
            timeline.note("prompt    \(buttons)")
            let choice = pendingChoices.popFirst() ?? .cancel
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
        timeline.line("Shake to undo on a live device: the gesture is owned by \"\(dispatcher.registry.currentOwner ?? "")\"; "
            + "the scripted user edits at 2, 4 and 6 s.")
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

    /// Routes a shake event to shake to undo.
    func handle(_ event: ShakeEvent) {
        _ = dispatcher.dispatch(event)
    }

    /// The closing line: the final document.
    func finish(at time: Double) {
        timeline.at(time, "end       \(promptCount) prompt\(promptCount == 1 ? "" : "s"); final document: \(document)")
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
