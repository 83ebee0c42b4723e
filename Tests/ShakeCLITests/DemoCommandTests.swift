import Foundation
import Testing
@testable import ShakeCLI

@Suite struct DemoCommandTests {
    @Test func bundledDemoUndoesTheLastNamedActionOnAShake() {
        let run = runShake("demo")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.isEmpty)
        let lines = run.out.split(separator: "\n").map(String.init)
        func index(_ text: String) -> Int? { lines.firstIndex { $0.contains(text) } }
        // Edits, then the shake, then the prompt naming the last edit, then the undo applied.
        let edit = index("changes the address")
        let began = index("shake     began")
        let prepare = index("[feedback] prepare")
        let ended = index("shake     ended")
        let prompt = index("prompt    [Undo Address Change] [Cancel]")
        let undone = index("undone Address Change")
        #expect(edit != nil && began != nil && prepare != nil && ended != nil && prompt != nil && undone != nil,
                "\(run.out)")
        if let edit, let began, let prepare, let ended, let prompt, let undone {
            #expect(edit < began && began < prepare && prepare < ended && ended < prompt && prompt < undone)
            #expect(lines[undone + 1].contains("address: \"12 Elm Street\""), "the address is back")
        }
        // No --bell: the terminal makes no sound, so the cues are visual only, and no BEL is written.
        #expect(lines.contains { $0.contains("[feedback] visual: notification success") }, "\(run.out)")
        #expect(!run.out.contains("audible") && !run.out.contains("\u{07}"))
    }

    @Test func bellMakesTheCuesAudible() {
        let run = runShake("demo", "--bell")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("[feedback] visual+audible: notification success\u{07}\n"), "\(run.out)")
        #expect(run.out.contains("[feedback] prepare visual+audible\n"))
    }

    /// The `ended` line names the span the shake's motion took, which ends before the line's own
    /// time (it waits for the quiet after the last stroke) and starts before `began`.
    @Test func endedLineGivesTheShakesSpanOnTheTimelinesClock() throws {
        let run = runShake("demo")
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        let began = try #require(lines.first { $0.contains("shake     began") })
        let ended = try #require(lines.first { $0.contains("shake     ended") })
        func leadingTime(_ line: String) -> Double? { Double(line.split(separator: " ").first ?? "") }
        let beganAt = try #require(leadingTime(began))
        let endedAt = try #require(leadingTime(ended))
        // "ended: shaking from A to B s (D s)"
        let numbers = ended.split(whereSeparator: { " ()".contains($0) }).compactMap { Double($0) }
        #expect(numbers.count == 4, "\(ended)")
        guard numbers.count == 4 else { return }
        let (from, to, span) = (numbers[1], numbers[2], numbers[3])
        #expect(from <= beganAt && beganAt <= to && to < endedAt, "\(began)\n\(ended)")
        #expect(abs(to - from - span) <= 0.011, "\(ended)")
    }

    /// The README's quick start shows what `shake demo` prints; it must stay true when the
    /// detector changes (peaks and times move with it).
    @Test func readmeShowsTheDemoTimelineAsPrinted() throws {
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        let start = try #require(readme.range(of: "ShakeKit demo: "), "README has no demo timeline")
        let end = try #require(readme.range(of: "\n```", range: start.lowerBound..<readme.endIndex))
        let shown = String(readme[start.lowerBound..<end.lowerBound])
        let run = runShake("demo")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasPrefix(shown + "\n"), "README:\n\(shown)\n\nshake demo:\n\(run.out)")
    }

    /// `Scripts/embed-demo-recording` builds only a recording with rows into the tool: a missing
    /// fixture (exit 66) or an empty one (65) is an error, and the generated source is left as it
    /// was, with no `.tmp` beside it. Run on a copy of the script in a scratch tree.
    @Test func embeddingRefusesAMissingOrEmptyFixture() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        for sub in ["Scripts", "Fixtures", "Sources/ShakeCLI"] {
            try FileManager.default.createDirectory(atPath: folder.file(sub), withIntermediateDirectories: true)
        }
        let script = folder.file("Scripts/embed-demo-recording")
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Scripts/embed-demo-recording", toPath: script)
        let generated = try folder.write("Sources/ShakeCLI/DemoRecording.swift", "// as it was\n")
        let missing = try runProcess(script, [])
        #expect(missing.status == 66 && missing.err.contains("Fixtures/demo_session_50hz.csv: no such file"), "\(missing.err)")
        _ = try folder.write("Fixtures/demo_session_50hz.csv", "")
        let empty = try runProcess(script, [])
        #expect(empty.status == 65 && empty.err.contains("not a recording with samples"), "\(empty.err)")
        #expect(try String(contentsOfFile: generated, encoding: .utf8) == "// as it was\n")
        #expect(listing(folder.file("Sources/ShakeCLI")) == ["DemoRecording.swift"])
        _ = try folder.write("Fixtures/demo_session_50hz.csv", "time_s,x,y,z\n0,0,0,9.8\n0.02,0,0,9.8\n")
        let good = try runProcess(script, [])
        #expect(good.status == 0, "\(good.err)")
        #expect(try String(contentsOfFile: generated, encoding: .utf8).contains("0.02,0,0,9.8\n"))
    }

    @Test func choicesAreFollowedAndCancelLeavesTheDocument() throws {
        let run = runShake("demo", "--choices", "cancel")
        #expect(run.status == 0)
        #expect(run.out.contains("user taps [Cancel]"))
        #expect(run.out.contains("cancelled"))
        #expect(run.out.contains("final document: note: \"Call the plumber\"  name: \"\"  address: \"34 Oak Avenue\""))
    }

    @Test func badChoiceIsAUsageError() {
        let run = runShake("demo", "--choices", "undo,maybe")
        #expect(run.status == 64)
        #expect(run.err.contains("The value 'maybe' is invalid for '--choices'"))
        // An empty answer is refused, not skipped (the next answers went to the wrong prompts).
        for choices in ["undo,,redo", ",", "undo,"] {
            let empty = runShake("demo", "--choices", choices)
            #expect(empty.status == 64, "\(choices)")
            #expect(empty.err.contains("The value '' is invalid for '--choices': use undo, redo or cancel (an empty answer"), "\(empty.err)")
            #expect(empty.out.isEmpty)
        }
    }

    /// An empty value is no answer at all: every prompt is cancelled.
    @Test func noChoicesCancelEveryPrompt() {
        let run = runShake("demo", "--choices", "")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.components(separatedBy: "user taps [Cancel]").count == 3, "\(run.out)")
        #expect(run.out.contains("final document: note: \"Call the plumber\"  name: \"\"  address: \"34 Oak Avenue\""))
    }

    /// The first prompt offers only undo: a scripted redo cannot be tapped, so the user cancels
    /// (it was "tapped" and reported unavailable, with error feedback).
    @Test func anAnswerThePromptHasNoButtonForIsACancel() {
        let run = runShake("demo", "--choices", "redo,undo")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("""
                        prompt    [Undo Address Change] [Cancel]
                        user would redo, but the prompt has no such button
                        user taps [Cancel]
            """), "\(run.out)")
        #expect(!run.out.contains("unavailable") && !run.out.contains("notification error"), "\(run.out)")
        // The second answer goes to the second prompt: it undoes the address change.
        #expect(run.out.contains("final document: note: \"Call the plumber\"  name: \"\"  address: \"12 Elm Street\""), "\(run.out)")
    }

    @Test(arguments: [["--units", "g"], ["--time-column", "0"], ["--decimal-comma"]])
    func importOptionsWithoutARecordingAreAUsageError(options: [String]) {
        // They would be ignored: the bundled recording is canonical.
        let run = runShake(["demo"] + options)
        #expect(run.status == 64)
        #expect(run.err.contains("Error: '\(options[0])' is for a recording given as an argument; "
            + "the bundled recording is read as it is"), "\(run.err)")
        #expect(run.out.isEmpty)
    }

    @Test func anotherRecordingCanBeGiven() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        // Shakes at 10 s and 16 s, after the scripted edits at 2, 4 and 6 s.
        let path = try folder.write("session.csv", labelledShakeCSV(shakes: 2, shakeSeconds: 1.5, restSeconds: 10).text)
        let run = runShake("demo", path, "--choices", "undo,redo")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("replaying \(path)"))
        #expect(run.out.contains("prompt    [Undo Address Change] [Cancel]"))
        #expect(run.out.contains("prompt    [Undo Delete Name] [Redo Address Change] [Cancel]"))
        #expect(run.out.contains("redone Address Change"))
    }

    @Test func builtInRecordingIsTheFixture() throws {
        let fixture = try String(contentsOfFile: repositoryRoot + "/Fixtures/demo_session_50hz.csv", encoding: .utf8)
        #expect(DemoRecording.csv == fixture, "run Scripts/embed-demo-recording after regenerating the fixture")
    }

    @Test func helpSaysHowToUseAnotherRecording() {
        let run = runShake("demo", "--help")
        #expect(run.status == 0)
        #expect(run.out.contains("USAGE: shake demo [<options>] [<recording>]"))
        #expect(run.out.replacingOccurrences(of: "\n", with: " ").contains("To use another recording, give its path"))
    }

    /// `labelledShakeCSV`'s recording with its times moved `by` seconds, cut after `cutAfter`
    /// (seconds from its start; nil keeps it whole).
    static func recording(shakes: Int, movedBy offset: Double, cutAfter end: Double? = nil) -> String {
        labelledShakeCSV(shakes: shakes, restSeconds: 10).text.split(separator: "\n").compactMap { line in
            guard let comma = line.firstIndex(of: ","), let time = Double(line[..<comma]) else { return String(line) }
            if let end, time > end { return nil }
            return String(format: "%.6f", time + offset) + line[comma...]
        }.joined(separator: "\n") + "\n"
    }

    /// The timeline counts from the recording's first sample, whatever its clock (the edits come
    /// 2, 4 and 6 s after it); a recording that ends while shaking has its shake cancelled on the
    /// timeline, and nothing undone.
    @Test func theTimelineCountsFromTheFirstSampleAndAShakeCutShortIsCancelled() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        // A shake from 10 s, cut 0.75 s into it; the clock reads 1000 s at the first sample.
        let path = try folder.write("cut.csv", Self.recording(shakes: 1, movedBy: 1000, cutAfter: 10.75))
        let run = runShake("demo", path)
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("edit      the user") }.map { String($0.prefix(12)) }
            == ["    2.00 s  ", "    4.00 s  ", "    6.00 s  "], "\(run.out)")
        #expect(lines.contains("    0.00 s  document  note: \"\"  name: \"Ada Lovelace\"  address: \"12 Elm Street\""),
                "\(run.out)")
        #expect(lines.contains { $0.hasPrefix("   10.") && $0.contains("shake     began") }, "\(run.out)")
        #expect(lines.contains("   10.75 s  shake     cancelled (interrupted)"), "\(run.out)")
        #expect(!run.out.contains("prompt    "), "\(run.out)")
        #expect(lines.last == "   10.75 s  end       1 shake, 0 prompts; final document: note: \"Call the plumber\"  "
            + "name: \"\"  address: \"34 Oak Avenue\"", "\(run.out)")
    }

    /// One shake, one prompt, said in the singular; an answer is read in any case, spaces
    /// around it allowed.
    @Test func oneShakeAndAnAnswerInCapitals() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("one.csv", Self.recording(shakes: 1, movedBy: 0))
        let run = runShake("demo", path, "--choices", " UNDO ")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("user taps [Undo Address Change]"), "\(run.out)")
        #expect(run.out.hasSuffix("end       1 shake, 1 prompt; final document: note: \"Call the plumber\"  name: \"\"  "
            + "address: \"12 Elm Street\"\n"), "\(run.out)")
    }

    /// A recording with a header and no sample: a data error naming it, exit 65.
    @Test func aRecordingWithoutSamplesIsADataError() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("empty.csv", "time_s,x,y,z\n")
        let run = runShake("demo", path)
        #expect(run.status == 65)
        #expect(run.err == "Error: \(path): the recording holds no samples\n")
    }
}

