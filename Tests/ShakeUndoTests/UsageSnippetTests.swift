import Foundation
import ShakeDetection
import Testing
import ShakeUndo

/// The wiring snippet of the README, checked: it must compile and do what it says.
@Suite struct UsageSnippetTests {
    /// 100 Hz: 1 s lying still, a firm 3 Hz shake of ±25 m/s² along x for 1.5 s (a triangle wave),
    /// then 2.5 s still; with `shakes` 2, the same shake again from 4 s, then 2.5 s still.
    /// Gravity on z.
    func shakeRecording(shakes: Int) -> [Sample] {
        (0..<(200 + 300 * shakes)).map { index in
            let time = Double(index) / 100
            var x = 0.0
            let start = time >= 4 && shakes > 1 ? 4.0 : 1.0
            if time >= start, time < start + 1.5 {
                let phase = (time - start) * 3 - ((time - start) * 3).rounded(.down)  // 0..<1 per period
                x = 25 * (phase < 0.5 ? 4 * phase - 1 : 3 - 4 * phase)    // -1 ... 1 ... -1
            }
            return Sample(time: time, x: x, y: 0, z: standardGravity)
        }
    }

    /// One shake undoes the deletion; a second offers only Redo (nothing is left to undo), and
    /// the snippet's presenter takes it.
    @Test(arguments: [1, 2])
    func snippetUndoesANamedActionOnShake(shakes: Int) throws {
        var output: [String] = []
        let samples = shakeRecording(shakes: shakes)
        func show(_ line: String) { output.append(line) }
        // README snippet begins
        let contexts = UndoContextRegistry()                  // one undo stack per document or screen
        let undo = contexts.activate("address-book")
        var name = "Ada Lovelace"
        func setName(_ new: String) {                         // every edit registers its inverse,
            let old = name                                    // so an undone edit can be redone
            name = new
            undo.registerUndo { _ in setName(old) }
        }
        setName("")                                           // the user deletes the name
        try undo.setActionName("delete name")                 // button: "Undo Delete Name"
        let feedback = try FeedbackCenter(sinks: [TerminalFeedbackSink { show($0) }])
        let presenter = ClosurePromptPresenter { prompt in
            show("\(prompt)")                                 // "Undo Delete Name | Cancel"
            return prompt.choices.first                       // the user's tap (Undo, or Redo if none);
        }                                                     // or nil, then shakeToUndo.answer(_:at:)
        let shakeToUndo = ShakeToUndo(contexts: contexts, presenter: presenter, feedback: feedback)
        let dispatcher = ShakeDispatcher()                    // the gesture has one owner at a time
        let ownership = try dispatcher.claim(owner: "address-book", handler: shakeToUndo)
        var detector = ShakeDetector()                        // ShakeDetection, default configuration
        for sample in samples {
            if let event = detector.process(sample) { dispatcher.dispatch(event) }
        }
        dispatcher.release(ownership)                         // when the screen goes away
        show("name: \(name)")                                 // "name: Ada Lovelace": undone
        // README snippet ends
        #expect(dispatcher.registry.currentOwner == nil)
        #expect(dispatcher.deliveredCount == 2 * shakes)
        let undone = [
            "[feedback] visual+audible: impact medium",
            "Undo Delete Name | Cancel",
            "[feedback] visual+audible: notification success",
        ]
        if shakes == 1 {
            #expect(name == "Ada Lovelace")
            #expect(output == undone + ["name: Ada Lovelace"])
            // The undone edit can be redone: its undo registered the inverse.
            #expect(undo.redoMenuItemTitle == "Redo Delete Name")
            #expect(undo.redo() && name == "")
        } else {
            #expect(name == "")
            #expect(output == undone + [
                "[feedback] visual+audible: impact medium",
                "Redo Delete Name | Cancel",
                "[feedback] visual+audible: notification success",
                "name: ",
            ])
            #expect(undo.undoMenuItemTitle == "Undo Delete Name")
        }
    }

    /// The README (and the module's documentation) shows the snippet above exactly, as the body of a function (top-level code
    /// could not consume the ownership token: a global noncopyable value cannot be consumed).
    @Test func readmeShowsTheSnippetInAFunction() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let lines = source.components(separatedBy: "\n")
        let begin = try #require(lines.firstIndex { $0.hasSuffix("// README snippet begins") })
        let end = try #require(lines.firstIndex { $0.hasSuffix("// README snippet ends") })
        // The test's body is indented by 8, the README function's by 4.
        let body = lines[(begin + 1)..<end].map { $0.isEmpty ? $0 : String($0.dropFirst(4)) }
        let snippet = (["func addressBookScreen(samples: [Sample], show: @escaping (String) -> Void) throws {"]
            + body + ["}"]).joined(separator: "\n")
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(snippet), "README's shake-to-undo snippet differs from the code tested here")
        let docc = try String(contentsOf: root.appendingPathComponent("Sources/ShakeUndo/ShakeUndo.docc/ShakeUndo.md"),
                              encoding: .utf8)
        #expect(docc.contains(snippet), "the module documentation's snippet differs from the code tested here")
    }
}
