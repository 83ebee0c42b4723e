import ShakeDetection
import Testing
import ShakeUndo

/// The wiring snippet of the README, checked: it must compile and do what it says.
@Suite struct UsageSnippetTests {
    @Test func snippetUndoesANamedActionOnShake() throws {
        var output: [String] = []
        let events = [shakeEvent(.began, at: 3.1), shakeEvent(.ended, at: 3.9)]
        // README snippet begins
        let contexts = UndoContextRegistry()                  // one undo stack per document or screen
        let undo = contexts.activate("address-book")
        var name = "Ada Lovelace"
        name = ""                                             // the user deletes the name...
        undo.registerUndo { _ in name = "Ada Lovelace" }      // ...and the app registers its undo
        try undo.setActionName("delete name")                 // button: "Undo Delete Name"
        let feedback = try FeedbackCenter(sinks: [TerminalFeedbackSink { output.append($0) }])
        let presenter = ClosurePromptPresenter { prompt in
            output.append(prompt.choices.compactMap(prompt.title(for:)).joined(separator: " | "))
            return .undo                                      // or nil, then shakeToUndo.answer(_:at:)
        }
        let shakeToUndo = ShakeToUndo(contexts: contexts, presenter: presenter, feedback: feedback)
        let dispatcher = ShakeDispatcher()                    // the gesture has one owner at a time
        let ownership = try dispatcher.claim(owner: "address-book", handler: shakeToUndo)
        for event in events { dispatcher.dispatch(event) }    // events from ShakeDetector.process(_:)
        dispatcher.registry.release(ownership)                // when the screen goes away
        // README snippet ends
        #expect(name == "Ada Lovelace")
        #expect(output == [
            "[feedback] visual+audible: impact medium",
            "Undo Delete Name | Cancel",
            "[feedback] visual+audible: notification success",
        ])
        #expect(dispatcher.registry.currentOwner == nil)
        #expect(dispatcher.deliveredCount == 2)
    }
}
