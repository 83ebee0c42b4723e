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
            """ + "\n\n" + ImportOptions.discussion,
        arguments: [ArgumentSpec("recording", help: "A recording with shakes (default: the bundled session).", optional: true)],
        options: [
            .option("choices", value: "list",
                    help: "The scripted user's answers to successive prompts, comma-separated (undo, redo, cancel); "
                        + "after the last, cancel; an answer the prompt has no button for is a cancel.",
                    default: "undo,undo", allowsEmpty: true),
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

    /// `--choices` (default `undo,undo`): each comma-separated word undo, redo or cancel, in any
    /// case, spaces around it allowed; an empty one (`undo,,redo`) is refused, not skipped (the
    /// answers after it would shift to the wrong prompts); an empty value is no answer at all.
    static func choices(_ arguments: ParsedArguments) throws(UsageError) -> [UndoChoice] {
        var choices: [UndoChoice] = []
        // No answers at all: every prompt is cancelled.
        if arguments.value("choices")?.trimmingWhitespace().isEmpty == true { return [] }
        for word in (arguments.value("choices") ?? "undo,undo").split(separator: ",", omittingEmptySubsequences: false) {
            guard let choice = UndoChoice(rawValue: word.trimmingWhitespace().lowercased()) else {
                throw UsageError("The value '\(word)' is invalid for '--choices': use undo, redo or cancel"
                    + (word.trimmingWhitespace().isEmpty ? " (an empty answer, between two commas or at an end)" : ""))
            }
            choices.append(choice)
        }
        return choices
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let configuration = try DetectorOptions.configuration(arguments)
        let choices = try Self.choices(arguments)
        var reader: RecordingReader
        let source: String
        if arguments.positionals.isEmpty,
           let given = ImportOptions.specs.first(where: { arguments.value($0.name) != nil || arguments.flag($0.name) }) {
            throw UsageError("'--\(given.name)' is for a recording given as an argument; the bundled recording is read as it is")
        }
        do {
            if let path = arguments.positionals.first {
                reader = try RecordingReader(path: path, options: ImportOptions.options(arguments))
                source = RecordingError.displayName(ofPath: path)
            } else {
                reader = try RecordingReader(bytes: Array(DemoRecording.csv.utf8), name: DemoRecording.name)
                source = "the bundled recording \(DemoRecording.name)"
            }
        } catch {
            throw recordingFailure(error)
        }
        let session = try UndoDemoSession(io: io, choices: choices, ringsBell: arguments.flag("bell"),
                                       introduction: "ShakeKit demo: shake to undo, replaying \(source)")
        var detector = ShakeDetector(configuration: configuration)
        var last: Double?
        var shakes = 0
        do {
            while let labelled = try reader.next() {
                try session.advance(to: labelled.sample)
                if let event = detector.process(labelled.sample) {
                    if event.phase == .began { shakes += 1 }
                    session.show(event)
                    session.handle(event)
                }
                last = labelled.sample.time
            }
        } catch let error as RecordingError {
            throw recordingFailure(error)
        }
        guard let last else {
            throw CommandFailure("\(source): the recording holds no samples", exitStatus: ExitStatus.dataError)
        }
        if let event = detector.interrupt(at: last) {
            session.show(event)
            session.handle(event)
        }
        session.finish(at: last, shakes: shakes)
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
