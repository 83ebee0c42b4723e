import Foundation
import ShakeDetection
import ShakeRecording
import ShakeUndo

/// `shake demo`: shake to undo, end to end, on a recording of a scripted editing session.
enum DemoCommand: ShakeCommand {
    static let spec = CommandSpec(
        name: "demo",
        abstract: "Shake to undo, end to end: replay an editing session and undo with shakes.",
        discussion: """
            A scripted user edits a small document (types a note, deletes a name, changes an \
            address) while the recording plays; each shake the detector finds is routed through \
            the gesture registry to shake to undo, which shows an Undo/Redo/Cancel prompt; the \
            scripted user answers it; the document before and after and the feedback given are \
            printed on a timeline (seconds from the recording's start).

            Without RECORDING the bundled one is replayed: Fixtures/demo_session_50hz.csv, built \
            into the tool (two shakes after 8 s of typing; 'shake synth demo-session' makes it). \
            To use another recording, give its path: any CSV that 'shake replay' reads works \
            (use the import options below for foreign exports). The edits happen at 2, 4 and 6 s \
            after its first sample, so its shakes should come later than that; a shake that comes \
            earlier finds less to undo.
            """ + "\n" + ImportOptions.discussion,
        arguments: [ArgumentSpec("recording", help: "A recording with shakes (default: the bundled session).", optional: true)],
        options: [
            .option("choices", value: "list",
                    help: "The scripted user's answers to successive prompts, comma-separated; after the last, cancel.",
                    default: "undo,undo"),
            .flag("bell", help: "Ring the terminal bell for audible feedback."),
        ] + DetectorOptions.specs + ImportOptions.specs
    )

    /// The document the scripted user edits.
    struct Document: Equatable, CustomStringConvertible {
        var note = ""
        var name = "Ada Lovelace"
        var address = "12 Elm Street"
        var description: String { "note: \"\(note)\"  name: \"\(name)\"  address: \"\(address)\"" }
    }

    /// One scripted edit: when (seconds after the first sample), its undo action name, and the change.
    struct Edit: Sendable {
        var offset: Double
        var actionName: String
        var summary: String
        var apply: @Sendable (inout Document) -> Void
    }

    static let edits: [Edit] = [
        Edit(offset: 2, actionName: "typing", summary: "types the note \"Call the plumber\"") {
            $0.note = "Call the plumber"
        },
        Edit(offset: 4, actionName: "delete name", summary: "deletes the name") { $0.name = "" },
        Edit(offset: 6, actionName: "address change", summary: "changes the address to \"34 Oak Avenue\"") {
            $0.address = "34 Oak Avenue"
        },
    ]

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let configuration = try DetectorOptions.configuration(arguments)
        var choices: [UndoChoice] = []
        for word in (arguments.value("choices") ?? "undo,undo").split(separator: ",") {
            guard let choice = UndoChoice(rawValue: word.trimmingCharacters(in: .whitespaces).lowercased()) else {
                throw UsageError("The value '\(word)' is invalid for '--choices': use undo, redo or cancel")
            }
            choices.append(choice)
        }
        var reader: RecordingReader
        let source: String
        do {
            if let path = arguments.positionals.first {
                reader = try RecordingReader(path: path, options: ImportOptions.options(arguments))
                source = path
            } else {
                reader = try RecordingReader(bytes: Array(DemoRecording.csv.utf8), name: DemoRecording.name)
                source = "the bundled recording \(DemoRecording.name)"
            }
        } catch {
            throw recordingFailure(error)
        }
        let timeline = Timeline(io: io)
        timeline.line("ShakeKit demo: shake to undo, replaying \(source)")

        // The app: one document with its undo stack, shake to undo owning the gesture.
        let contexts = UndoContextRegistry()
        let undo = contexts.activate("note")
        var document = Document()
        var pendingChoices = choices[...]
        let feedback = try FeedbackCenter(sinks: [
            TerminalFeedbackSink(ringsBell: arguments.flag("bell"), logsPreparation: true) { timeline.note($0) },
        ])
        let presenter = ClosurePromptPresenter { prompt in
            let buttons = prompt.choices.compactMap(prompt.title(for:)).map { "[\($0)]" }.joined(separator: " ")
            timeline.note("prompt    \(buttons)")
            let choice = pendingChoices.popFirst() ?? .cancel
            let answer = prompt.title(for: choice) ?? choice.rawValue
            timeline.note("user taps [\(answer)]")
            timeline.note("before    \(document)")
            return choice
        }
        let shakeToUndo = ShakeToUndo(contexts: contexts, presenter: presenter, feedback: feedback)
        shakeToUndo.onOutcome = { _, _, outcome in
            timeline.note("\(outcome)")
            timeline.note("after     \(document)")
        }
        let dispatcher = ShakeDispatcher()
        let ownership = try dispatcher.claim(owner: "note editor", handler: shakeToUndo)
        timeline.line("The shake gesture is owned by \"\(dispatcher.registry.currentOwner ?? "")\"; times are seconds from the first sample.")

        // Undoing restores the state before the edit and registers the way back, so the step can
        // be redone (UndoManager's pattern); the stack carries the action name across.
        func registerRestore(_ state: Document, on stack: UndoStack) {
            stack.registerUndo { stack in
                let current = document
                document = state
                registerRestore(current, on: stack)
            }
        }

        var detector = ShakeDetector(configuration: configuration)
        var nextEdit = edits[...]
        var start: Double?
        var last = 0.0
        var shakes = 0
        do {
            while let labelled = try reader.next() {
                let sample = labelled.sample
                if start == nil {
                    start = sample.time
                    timeline.origin = sample.time
                    timeline.at(sample.time, "document  \(document)")
                }
                while let edit = nextEdit.first, sample.time - (start ?? 0) >= edit.offset {
                    nextEdit = nextEdit.dropFirst()
                    let before = document
                    edit.apply(&document)
                    registerRestore(before, on: undo)
                    try undo.setActionName(edit.actionName)
                    timeline.at(sample.time, "edit      the user \(edit.summary)  (undo title: \"\(undo.undoMenuItemTitle ?? "-")\")")
                }
                if let event = detector.process(sample) {
                    switch event.phase {
                    case .began:
                        shakes += 1
                        timeline.at(event.time, "shake     began: \(event.reversals) reversals, "
                            + "peak \(fixed(event.peakAcceleration, 1)) m/s², axis \(event.dominantAxis)")
                    case .ended:
                        timeline.at(event.time, "shake     ended after \(fixed(event.duration, 2)) s")
                    case .cancelled:
                        timeline.at(event.time, "shake     cancelled (\(event.cancellationReason?.rawValue ?? "?"))")
                    }
                    dispatcher.dispatch(event)
                }
                last = sample.time
            }
        } catch {
            throw recordingFailure(error)
        }
        if let event = detector.interrupt(at: last) { dispatcher.dispatch(event) }
        // The registry is local to this run; releasing shows the hand-back an app does on leaving.
        _ = dispatcher.registry.release(ownership)
        timeline.at(last, "end       \(shakes) shake\(shakes == 1 ? "" : "s"), \(shakeToUndo.promptCount) prompt\(shakeToUndo.promptCount == 1 ? "" : "s"); final document: \(document)")
        return ExitStatus.success
    }

    /// Prints `  12.34 s  what` lines, and indented notes under them.
    final class Timeline {
        let io: CommandIO
        var origin = 0.0
        init(io: CommandIO) { self.io = io }
        func line(_ text: String) { io.out(text + "\n") }
        func at(_ time: Double, _ text: String) { io.out(fixed(time - origin, 2).leftPadded(8) + " s  " + text + "\n") }
        func note(_ text: String) { io.out(String(repeating: " ", count: 12) + text + "\n") }
    }
}
