import Foundation
import ShakeDetection
import Testing
import ShakeUndo

@Suite struct ShakeDispatcherTests {
    final class Recorder: ShakeHandler {
        var phases: [ShakeEvent.Phase] = []
        func handleShake(_ event: ShakeEvent) { phases.append(event.phase) }
    }

    @Test func withoutAnOwnerNothingHappensAndTheEventIsCounted() {
        let dispatcher = ShakeDispatcher()
        #expect(dispatcher.dispatch(shakeEvent(.began, at: 1)) == false)
        #expect(dispatcher.dispatch(shakeEvent(.ended, at: 2)) == false)
        #expect(dispatcher.unhandledCount == 2)
        #expect(dispatcher.deliveredCount == 0)
    }

    @Test func onlyTheCurrentOwnerReceivesEvents() throws {
        let dispatcher = ShakeDispatcher()
        let editor = Recorder()
        let map = Recorder()
        let editorToken = try dispatcher.claim(owner: "editor", handler: editor)
        #expect(throws: GestureRegistryError.alreadyOwned(by: "editor")) {
            _ = try dispatcher.claim(owner: "map", handler: map)
        }
        dispatcher.dispatch(shakeEvent(.began, at: 1))
        dispatcher.dispatch(shakeEvent(.ended, at: 2))
        #expect(editor.phases == [.began, .ended])
        #expect(map.phases.isEmpty)

        dispatcher.registry.release(editorToken)
        let mapToken = try dispatcher.claim(owner: "map", handler: map)
        dispatcher.dispatch(shakeEvent(.began, at: 3))
        dispatcher.dispatch(shakeEvent(.cancelled, at: 4))
        #expect(editor.phases == [.began, .ended])
        #expect(map.phases == [.began, .cancelled])
        #expect(dispatcher.deliveredCount == 4)
        #expect(dispatcher.unhandledCount == 0)
        dispatcher.registry.release(mapToken)
    }

    @Test func ownerWithoutHandlerAndStaleHandlersGetNothing() throws {
        let dispatcher = ShakeDispatcher()
        let editor = Recorder()
        let token = try dispatcher.registry.claim(owner: "editor")
        #expect(dispatcher.dispatch(shakeEvent(.ended, at: 1)) == false)  // owned, no handler yet
        let installed = dispatcher.setHandler(editor, for: token)
        #expect(installed)
        #expect(dispatcher.dispatch(shakeEvent(.ended, at: 2)))

        let viewer = try dispatcher.registry.transfer(token, to: "viewer")
        #expect(dispatcher.dispatch(shakeEvent(.ended, at: 3)) == false)  // the editor no longer owns it
        #expect(editor.phases == [.ended])

        dispatcher.registry.reset()
        let refused = dispatcher.setHandler(Recorder(), for: viewer)  // stale token
        #expect(refused == false)
        #expect(dispatcher.dispatch(shakeEvent(.ended, at: 4)) == false)
        #expect(dispatcher.unhandledCount == 3)
        #expect(dispatcher.deliveredCount == 1)
    }

    final class EventRecorder: ShakeHandler {
        var events: [ShakeEvent] = []
        var phases: [ShakeEvent.Phase] { events.map(\.phase) }
        func handleShake(_ event: ShakeEvent) { events.append(event) }
    }

    @Test func whenTheGestureChangesHandsDuringAShakeNeitherOwnerAnswersIt() throws {
        let dispatcher = ShakeDispatcher()
        let editor = EventRecorder()
        let map = EventRecorder()
        let editorToken = try dispatcher.claim(owner: "editor", handler: editor)
        #expect(dispatcher.dispatch(shakeEvent(.began, at: 1)))
        dispatcher.registry.release(editorToken)
        let mapToken = try dispatcher.claim(owner: "map", handler: map)
        #expect(dispatcher.dispatch(shakeEvent(.ended, at: 2)) == false)
        // The editor saw the shake begin: it hears that it was cancelled, at the end's time.
        #expect(editor.phases == [.began, .cancelled])
        #expect(editor.events.last?.cancellationReason == .interrupted)
        #expect(editor.events.last?.time == 2)
        #expect(map.events.isEmpty)  // no end of a shake it never saw begin

        dispatcher.dispatch(shakeEvent(.began, at: 3))
        dispatcher.dispatch(shakeEvent(.ended, at: 4))
        #expect(map.phases == [.began, .ended])
        #expect(editor.phases == [.began, .cancelled])
        #expect(dispatcher.deliveredCount == 3)
        #expect(dispatcher.unhandledCount == 1)
        dispatcher.registry.release(mapToken)
    }

    /// A shake dropped without an event (its detector reset or replaced mid-shake) and a new one
    /// begun: the handler that saw the first begin hears it cancelled before the next `began`,
    /// whether it gave the gesture up meanwhile or still owns it (until stop 50 the first
    /// shake never ended for it). The detector is a real one, reset halfway through a shake.
    @Test(arguments: [false, true])
    func aShakeDroppedWithoutAnEventEndsForItsHandlerWhenTheNextBegins(handedOn: Bool) throws {
        let dispatcher = ShakeDispatcher()
        let editor = EventRecorder(), map = EventRecorder()
        var editorToken: GestureOwnership? = try dispatcher.claim(owner: "editor", handler: editor)
        var mapToken: GestureOwnership?
        var detector = ShakeDetector()
        var time = 0.0
        func feed(seconds: Double, shaking: Bool) {
            let end = time + seconds
            while time < end {
                let x = shaking ? 25 * sin(2 * Double.pi * 4 * time) : 0
                if let event = detector.process(Sample(time: time, x: x, y: 0, z: 9.81)) { dispatcher.dispatch(event) }
                time += 0.01
            }
        }
        feed(seconds: 1, shaking: false)
        feed(seconds: 1.5, shaking: true)
        #expect(editor.phases == [.began])
        let firstBegan = try #require(editor.events.first)
        detector.reset()  // drops the shake: no event
        if handedOn {
            dispatcher.release(editorToken.take()!)
            mapToken = try dispatcher.claim(owner: "map", handler: map)
        }
        feed(seconds: 1.5, shaking: false)
        feed(seconds: 1.5, shaking: true)
        feed(seconds: 2, shaking: false)
        let secondBegan = try #require((handedOn ? map : editor).events.last { $0.phase == .began })
        #expect(secondBegan.time > firstBegan.time)
        // The editor: began, cancelled (at the next began's time, of the shake it saw), and the
        // next shake's began and ended when it still owns the gesture.
        #expect(editor.phases == (handedOn ? [.began, .cancelled] : [.began, .cancelled, .began, .ended]))
        let cancelled = editor.events[1]
        #expect(cancelled.cancellationReason == .interrupted)
        #expect(cancelled.time == secondBegan.time && cancelled.startTime == firstBegan.startTime)
        #expect(map.phases == (handedOn ? [.began, .ended] : []))
        _ = editorToken; _ = mapToken
    }

    @Test func aShakeHandedOnOrBegunWithoutAnOwnerIsAnsweredByNobody() throws {
        let dispatcher = ShakeDispatcher()
        let editor = EventRecorder()
        let viewer = EventRecorder()
        let editorToken = try dispatcher.claim(owner: "editor", handler: editor)
        dispatcher.dispatch(shakeEvent(.began, at: 1))
        let viewerToken = try dispatcher.registry.transfer(editorToken, to: "viewer")
        dispatcher.setHandler(viewer, for: viewerToken)
        #expect(dispatcher.dispatch(shakeEvent(.cancelled, at: 2)) == false)
        #expect(editor.phases == [.began, .cancelled])
        #expect(viewer.events.isEmpty)
        dispatcher.registry.release(viewerToken)

        // Begun while nobody owned the gesture, claimed before it ended: not the claimer's.
        #expect(dispatcher.dispatch(shakeEvent(.began, at: 3)) == false)
        let mapToken = try dispatcher.claim(owner: "map", handler: viewer)
        #expect(dispatcher.dispatch(shakeEvent(.ended, at: 4)) == false)
        #expect(viewer.events.isEmpty)
        #expect(editor.phases == [.began, .cancelled])
        dispatcher.registry.release(mapToken)
    }

    final class WeakBox {
        weak var handler: EventRecorder?
    }

    @Test func releasingThroughTheDispatcherLetsGoOfTheHandlerAtOnce() throws {
        let dispatcher = ShakeDispatcher()
        let box = WeakBox()
        let token = try { () throws -> GestureOwnership in
            let handler = EventRecorder()
            box.handler = handler
            return try dispatcher.claim(owner: "editor", handler: handler)
        }()
        #expect(box.handler != nil)  // the dispatcher holds it
        let released = dispatcher.release(token)
        #expect(released)
        #expect(box.handler == nil)
        #expect(dispatcher.registry.currentOwner == nil)
        #expect(dispatcher.dispatch(shakeEvent(.began, at: 1)) == false)

        // Released during a shake: the handler is kept only until the shake ends for it.
        let log = EventRecorder()
        weak var kept: Screen?
        let second = try { () throws -> GestureOwnership in
            let screen = Screen(log: log)
            kept = screen
            return try dispatcher.claim(owner: "editor", handler: screen)
        }()
        dispatcher.dispatch(shakeEvent(.began, at: 2))  // the one begun at 1 never ended: no matter
        let releasedDuringTheShake = dispatcher.release(second)
        #expect(releasedDuringTheShake)
        #expect(kept != nil, "let go of before the shake ended for it")
        dispatcher.dispatch(shakeEvent(.ended, at: 3))
        #expect(log.phases == [.began, .cancelled])
        #expect(kept == nil, "kept after the shake ended for it")
    }

    @Test func anotherHandlerInstalledDuringAShakeHearsNothingOfItAndTheFirstHearsItCancelled() throws {
        let dispatcher = ShakeDispatcher()
        let first = EventRecorder()
        let second = EventRecorder()
        let token = try dispatcher.claim(owner: "editor", handler: first)
        dispatcher.dispatch(shakeEvent(.began, at: 1))
        let installed = dispatcher.setHandler(second, for: token)
        #expect(installed)
        #expect(dispatcher.dispatch(shakeEvent(.ended, at: 2)) == false)
        #expect(first.phases == [.began, .cancelled])
        #expect(first.events.last?.cancellationReason == .interrupted)
        #expect(second.events.isEmpty)

        dispatcher.dispatch(shakeEvent(.began, at: 3))
        dispatcher.dispatch(shakeEvent(.ended, at: 4))
        #expect(second.phases == [.began, .ended])
        #expect(first.phases == [.began, .cancelled])
        dispatcher.release(token)
    }

    /// A screen that answers shakes itself and keeps its own token, as the documentation shows.
    final class Screen: ShakeHandler {
        var ownership: GestureOwnership?
        let log: EventRecorder
        init(log: EventRecorder) { self.log = log }
        func handleShake(_ event: ShakeEvent) { log.handleShake(event) }
    }

    @Test func aScreenKeepingItsOwnTokenGoesAndFreesTheGestureWhenInstalledWeakly() throws {
        let dispatcher = ShakeDispatcher()
        let log = EventRecorder()
        let box = WeakBox()
        var screen: Screen? = Screen(log: log)
        screen!.ownership = try dispatcher.claim(owner: "map", handler: WeakShakeHandler(screen!))
        dispatcher.dispatch(shakeEvent(.began, at: 1))
        dispatcher.dispatch(shakeEvent(.ended, at: 2))
        #expect(log.phases == [.began, .ended])

        screen = nil  // the app closes the screen
        #expect(dispatcher.registry.currentOwner == nil)
        #expect(dispatcher.dispatch(shakeEvent(.began, at: 3)) == false)
        #expect(dispatcher.dispatch(shakeEvent(.ended, at: 4)) == false)
        #expect(log.phases == [.began, .ended])
        let editor = EventRecorder()
        box.handler = editor
        let token = try dispatcher.claim(owner: "editor", handler: editor)
        dispatcher.dispatch(shakeEvent(.began, at: 5))
        dispatcher.dispatch(shakeEvent(.ended, at: 6))
        #expect(editor.phases == [.began, .ended])
        dispatcher.release(token)
    }

    /// A screen that installs itself afresh (a new `WeakShakeHandler`) during a shake is still the
    /// handler that saw it begin: it hears the end (it heard `cancelled`, as if another had come).
    @Test func aScreenInstallingItselfAgainDuringAShakeHearsItsEnd() throws {
        let dispatcher = ShakeDispatcher()
        let log = EventRecorder()
        let screen = Screen(log: log)
        screen.ownership = try dispatcher.claim(owner: "map", handler: WeakShakeHandler(screen))
        dispatcher.dispatch(shakeEvent(.began, at: 1))
        if let token = screen.ownership.take() {
            let installed = dispatcher.setHandler(WeakShakeHandler(screen), for: token)
            #expect(installed)
            screen.ownership = consume token
        }
        #expect(dispatcher.dispatch(shakeEvent(.ended, at: 2)))
        #expect(log.phases == [.began, .ended])
    }

    @Test func aScreenKeepingItsOwnTokenInstalledDirectlyKeepsTheGestureUntilReleased() throws {
        // Why WeakShakeHandler exists: the dispatcher keeps its handler alive, and with it the
        // screen's token.
        let dispatcher = ShakeDispatcher()
        let log = EventRecorder()
        var screen: Screen? = Screen(log: log)
        screen!.ownership = try dispatcher.claim(owner: "map", handler: screen!)
        screen = nil
        #expect(dispatcher.registry.currentOwner == "map")
        dispatcher.dispatch(shakeEvent(.ended, at: 1))
        #expect(log.phases == [.ended])
        #expect(throws: GestureRegistryError.alreadyOwned(by: "map")) {
            _ = try dispatcher.registry.claim(owner: "editor")
        }
        dispatcher.registry.reset()  // what frees it now (or release(_:) with the screen's token)
        #expect(dispatcher.dispatch(shakeEvent(.ended, at: 2)) == false)
        #expect(log.phases == [.ended])
    }

    /// An end with no `began` before it goes to the owner (a detector attached mid-shake), also
    /// when an earlier shake began and ended before it: that shake's end closed it.
    @Test func anEndWithoutItsBeganAfterAFinishedShakeGoesToTheOwner() throws {
        let dispatcher = ShakeDispatcher()
        let editor = EventRecorder()
        let token = try dispatcher.claim(owner: "editor", handler: editor)
        dispatcher.dispatch(shakeEvent(.began, at: 1))
        dispatcher.dispatch(shakeEvent(.ended, at: 2))
        #expect(dispatcher.dispatch(shakeEvent(.ended, at: 5)))  // the detector was replaced mid-shake
        #expect(editor.phases == [.began, .ended, .ended])
        #expect(dispatcher.deliveredCount == 3)
        #expect(dispatcher.unhandledCount == 0)
        dispatcher.release(token)
    }

    /// The gesture handed on during a shake has changed hands even when the new owner installs
    /// the same handler (one handler serving two screens): the shake ends for it as `cancelled`,
    /// and the next shake is answered.
    @Test func aShakeHandedOnToAnOwnerWithTheSameHandlerEndsCancelled() throws {
        let dispatcher = ShakeDispatcher()
        let handler = EventRecorder()
        let editorToken = try dispatcher.claim(owner: "editor", handler: handler)
        dispatcher.dispatch(shakeEvent(.began, at: 1))
        let viewerToken = try dispatcher.registry.transfer(editorToken, to: "viewer")
        let installed = dispatcher.setHandler(handler, for: viewerToken)
        #expect(installed)
        #expect(dispatcher.dispatch(shakeEvent(.ended, at: 2)) == false)
        #expect(handler.phases == [.began, .cancelled])
        #expect(handler.events.last?.cancellationReason == .interrupted)
        #expect(handler.events.last?.time == 2)

        dispatcher.dispatch(shakeEvent(.began, at: 3))
        #expect(dispatcher.dispatch(shakeEvent(.ended, at: 4)))
        #expect(handler.phases == [.began, .cancelled, .began, .ended])
        dispatcher.release(viewerToken)
    }
}

@Suite struct ShakeToUndoTests {
    /// A host: two documents in two contexts, a presenter that records prompts and answers with
    /// the scripted choice (or later, when `answer` is nil), and recorded feedback.
    final class Host {
        let contexts = UndoContextRegistry()
        let letter: TextDocument
        let invoice: TextDocument
        let log = RecordingSink.Log()
        let feedback: FeedbackCenter
        let shakeToUndo: ShakeToUndo
        let dispatcher = ShakeDispatcher()
        var prompts: [UndoPrompt] = []
        var ignored: [ShakeToUndo.IgnoreReason] = []
        var answer: UndoChoice? = .undo
        var ownership: GestureOwnership?

        init() throws {
            invoice = TextDocument("", stack: contexts.stack(for: "invoice"))
            letter = TextDocument("", stack: contexts.activate("letter"))
            feedback = try FeedbackCenter(sinks: [
                RecordingSink("screen", modes: [.visual], log: log),
                RecordingSink("speaker", modes: [.audible], log: log),
                RecordingSink("motor", modes: [.haptic], log: log),
            ])
            var record: (UndoPrompt) -> UndoChoice? = { _ in nil }
            shakeToUndo = ShakeToUndo(
                contexts: contexts, presenter: ClosurePromptPresenter { record($0) }, feedback: feedback)
            record = { [unowned self] prompt in
                self.prompts.append(prompt)
                return self.answer
            }
            shakeToUndo.onIgnoredShake = { [unowned self] event, reason in
                #expect(event.phase == .ended)
                self.ignored.append(reason)
            }
            ownership = try dispatcher.claim(owner: "shake-to-undo", handler: shakeToUndo)
        }

        func shake(endingAt time: Double) {
            dispatcher.dispatch(shakeEvent(.began, at: time - 0.5))
            dispatcher.dispatch(shakeEvent(.ended, at: time))
        }
    }

    @Test func shakeOffersUndoAndRedoAndAppliesTheChoice() throws {
        let host = try Host()
        try host.letter.setText("Dear Ada,", name: "type text")
        try host.letter.setText("Dear ,", name: "delete name")
        host.letter.stack.undo()
        host.letter.stack.redo()
        host.letter.stack.undo()  // letter reads "Dear Ada,"; redo offers the deletion again
        try host.letter.setText("Dear Ada, London", name: "address change")
        host.letter.stack.undo()
        #expect(host.letter.text == "Dear Ada,")

        host.answer = .redo
        host.shake(endingAt: 10)
        let prompt = try #require(host.prompts.first)
        #expect(prompt.undoTitle == "Undo Type Text")
        #expect(prompt.redoTitle == "Redo Address Change")
        #expect(prompt.cancelTitle == "Cancel")
        #expect(prompt.choices == [.undo, .redo, .cancel])
        #expect(prompt.contextID == "letter")
        #expect(prompt.time == 10)
        #expect(prompt.description == "Undo Type Text | Redo Address Change | Cancel")
        #expect(host.letter.text == "Dear Ada, London")
        #expect(host.shakeToUndo.pendingPrompt == nil)

        host.answer = .undo
        host.shake(endingAt: 20)
        #expect(host.prompts.last?.undoTitle == "Undo Address Change")
        #expect(host.prompts.last?.redoTitle == nil)
        #expect(host.prompts.last?.choices == [.undo, .cancel])
        #expect(host.letter.text == "Dear Ada,")
    }

    @Test func noPromptWhenThereIsNothingToUndoOrRedo() throws {
        let host = try Host()
        host.shake(endingAt: 5)
        #expect(host.prompts.isEmpty)
        #expect(host.shakeToUndo.pendingPrompt == nil)
        host.contexts.deactivate()
        host.letter.setText("x")
        host.shake(endingAt: 10)
        #expect(host.prompts.isEmpty)  // no active context
        // Prepared as each shake began, nothing given.
        #expect(host.log.entries == Array(repeating: ["screen prepare", "speaker prepare", "motor prepare"], count: 2).flatMap { $0 })
        #expect(host.ignored == [.nothingToUndoOrRedo, .noActiveContext])
        #expect(host.ignored.map(\.description) == ["nothing to undo or redo", "no active undo context"])
    }

    @Test func shakeActsOnTheActiveContextOnly() throws {
        let host = try Host()
        try host.invoice.setText("42 EUR", name: "change amount")
        host.shake(endingAt: 5)
        #expect(host.prompts.isEmpty)  // the letter is active and has nothing
        host.contexts.activate("invoice")
        host.shake(endingAt: 10)
        #expect(host.prompts.map(\.undoTitle) == ["Undo Change Amount"])
        #expect(host.invoice.text == "")
    }

    @Test func noSecondPromptWhileOneIsShowing() throws {
        let host = try Host()
        host.answer = nil  // the prompt stays up until the host answers
        try host.letter.setText("Dear Ada,", name: "type text")
        host.shake(endingAt: 5)
        host.shake(endingAt: 7)
        host.shake(endingAt: 9)
        #expect(host.prompts.count == 1)
        #expect(host.ignored == [.promptShowing, .promptShowing])
        #expect(host.shakeToUndo.pendingPrompt?.undoTitle == "Undo Type Text")

        #expect(host.shakeToUndo.answer(.undo, at: 11) == .undone(try ActionName("Type Text")))
        #expect(host.letter.text == "")
        #expect(host.shakeToUndo.answer(.undo, at: 12) == nil)  // nothing showing any more
        host.shake(endingAt: 15)
        #expect(host.prompts.count == 2)
        #expect(host.prompts.last?.redoTitle == "Redo Type Text")
        #expect(host.shakeToUndo.answer(.cancel, at: 16) == .cancelled)
        #expect(host.letter.text == "")
    }

    /// A prompt left on screen: the answer's feedback is prepared again shortly before it is
    /// given, not only when the prompt appeared a minute earlier; a quick answer uses the
    /// preparation the prompt made.
    @Test func aLateAnswerPreparesItsFeedbackAgain() throws {
        for (answerAt, preparations) in [(60.0, 2), (6.5, 1)] {
            let host = try Host()
            host.answer = nil
            try host.letter.setText("Dear Ada,", name: "type text")
            host.shake(endingAt: 5)
            host.log.entries.removeAll()
            #expect(host.shakeToUndo.answer(.undo, at: answerAt) == .undone(try ActionName("Type Text")))
            let speaker = host.log.entries.filter { $0.hasPrefix("speaker") }
            #expect(speaker == Array(repeating: "speaker prepare", count: preparations - 1) + ["speaker notification success"],
                    "answered at \(answerAt): \(host.log.entries)")
        }
    }

    /// Without a prompt cue the preparation made at `began` would be the one the answer uses:
    /// a long shake (9 s) makes it stale, and it is renewed as the prompt appears; a shake of
    /// 1.5 s keeps the one from its beginning.
    @Test func aPreparationFromALongShakesBeginningIsRenewed() throws {
        for (end, renewed) in [(9.0, true), (1.5, false)] {
            let host = try Host()
            host.shakeToUndo.promptFeedback = nil
            host.answer = nil
            try host.letter.setText("Dear Ada,", name: "type text")
            host.dispatcher.dispatch(shakeEvent(.began, at: 0))
            host.log.entries.removeAll()
            host.dispatcher.dispatch(shakeEvent(.ended, at: end))
            #expect(host.shakeToUndo.answer(.undo, at: end + 0.25) == .undone(try ActionName("Type Text")))
            #expect(host.log.entries.filter { $0.hasPrefix("speaker") }
                    == (renewed ? ["speaker prepare"] : []) + ["speaker notification success"], "\(end): \(host.log.entries)")
        }
    }

    /// A shake while a prompt shows is ignored, and nothing is prepared for it either.
    @Test func aShakeWhileAPromptShowsPreparesNothing() throws {
        let host = try Host()
        host.answer = nil
        try host.letter.setText("Dear Ada,", name: "type text")
        host.shake(endingAt: 5)
        host.log.entries.removeAll()
        host.shake(endingAt: 7)
        #expect(host.log.entries.isEmpty, "\(host.log.entries)")
        #expect(host.ignored == [.promptShowing])
    }

    /// A shake that began while a prompt showed stays ignored when the prompt is answered
    /// before it ends: one prompt, not a second right after the answer. The next shake, begun
    /// after the answer, prompts again.
    @Test func aShakeBegunWhileAPromptShowedIsIgnoredWhenItEndsAfterTheAnswer() throws {
        let host = try Host()
        host.answer = nil
        try host.letter.setText("Dear Ada,", name: "type text")
        try host.letter.setText("Dear Ada, thank you", name: "type thanks")
        host.shake(endingAt: 2)
        host.dispatcher.dispatch(shakeEvent(.began, at: 3))
        #expect(host.shakeToUndo.answer(.undo, at: 3.5) == .undone(try ActionName("Type Thanks")))
        host.dispatcher.dispatch(shakeEvent(.ended, at: 4))
        #expect(host.prompts.count == 1 && host.shakeToUndo.pendingPrompt == nil)
        #expect(host.ignored == [.promptShowing])
        host.shake(endingAt: 6)
        #expect(host.prompts.map(\.undoTitle) == ["Undo Type Thanks", "Undo Type Text"])
    }

    /// A document that owns its `UndoStack` (as `UndoStack`'s own example has it) registers it
    /// as a context: a shake then offers its steps. A context's history is never replaced
    /// behind the app's back.
    @Test func anAppsOwnStackCanBeAContext() throws {
        let host = try Host()
        let own = UndoStack()
        let notes = TextDocument("", stack: own)
        try host.contexts.register(own, for: "notes")
        try host.contexts.register(own, for: "notes")  // again: nothing changes
        #expect(host.contexts.existingStack(for: "notes") === own)
        #expect(host.contexts.contextIDs.filter { $0 == "notes" }.count == 1)
        #expect(throws: UndoContextError.alreadyHasAStack("letter")) { try host.contexts.register(own, for: "letter") }
        #expect(host.contexts.existingStack(for: "letter") === host.letter.stack)
        try notes.setText("buy milk", name: "type note")
        host.contexts.activate("notes")
        host.shake(endingAt: 5)
        #expect(host.prompts.map(\.undoTitle) == ["Undo Type Note"])
        #expect(notes.text == "")
        #expect("\(UndoContextError.alreadyHasAStack("letter"))"
            == "undo context 'letter' already has a stack; remove the context first to give it another")
    }

    @Test func settingOffIgnoresShakes() throws {
        let host = try Host()
        try host.letter.setText("Dear Ada,", name: "type text")
        host.shakeToUndo.isEnabled = false
        host.shake(endingAt: 5)
        #expect(host.prompts.isEmpty)
        #expect(host.log.entries.isEmpty)  // not even prepared
        #expect(host.letter.text == "Dear Ada,")
        #expect(host.dispatcher.deliveredCount == 2)  // the owner got them, and chose to ignore them
        #expect(host.ignored == [.disabled])
        host.shakeToUndo.isEnabled = true
        host.shake(endingAt: 10)
        #expect(host.prompts.count == 1)
    }

    @Test func cancelledShakeDoesNothingVisible() throws {
        let host = try Host()
        try host.letter.setText("Dear Ada,", name: "type text")
        host.dispatcher.dispatch(shakeEvent(.began, at: 1))
        host.dispatcher.dispatch(shakeEvent(.cancelled, at: 2))
        #expect(host.prompts.isEmpty)
        #expect(host.log.entries == ["screen prepare", "speaker prepare", "motor prepare"])
        #expect(host.letter.text == "Dear Ada,")
        #expect(host.ignored.isEmpty)  // a cancelled shake is not even reported as ignored
    }

    @Test func choiceAfterTheContextChangedIsNotApplied() throws {
        let host = try Host()
        host.answer = nil
        try host.letter.setText("Dear Ada,", name: "type text")
        try host.invoice.setText("42 EUR", name: "change amount")
        host.shake(endingAt: 5)
        host.contexts.activate("invoice")
        #expect(host.shakeToUndo.answer(.undo, at: 6) == .contextChanged)
        #expect(host.letter.text == "Dear Ada,")
        #expect(host.invoice.text == "42 EUR")
        #expect(host.log.entries.suffix(3) == [
            "screen notification error", "speaker notification error", "motor notification error",
        ])
    }

    @Test func choiceNoLongerPossibleIsReportedAsAnError() throws {
        let host = try Host()
        host.answer = nil
        try host.letter.setText("Dear Ada,", name: "type text")
        host.shake(endingAt: 5)
        host.letter.stack.removeAllActions()
        #expect(host.shakeToUndo.answer(.undo, at: 6) == .stepsChanged)
        host.letter.setText("Dear Ada, London")
        host.shake(endingAt: 8)
        #expect(host.shakeToUndo.answer(.redo, at: 9) == .unavailable(.redo))  // not offered
        #expect(host.letter.text == "Dear Ada, London")
    }

    @Test func aChoiceAfterANewEditDoesNotUndoTheNewEdit() throws {
        let host = try Host()
        host.answer = nil
        try host.letter.setText("Dear Ada,", name: "type text")
        host.shake(endingAt: 5)
        #expect(host.shakeToUndo.pendingPrompt?.undoTitle == "Undo Type Text")
        try host.letter.setText("Dear ,", name: "delete name")
        #expect(host.shakeToUndo.answer(.undo, at: 6) == .stepsChanged)
        #expect(UndoPromptOutcome.stepsChanged.description == "steps changed since the prompt")
        #expect(host.letter.text == "Dear ,")  // the button said "Undo Type Text": nothing undone
        #expect(host.letter.stack.undoCount == 2)
        #expect(host.log.entries.suffix(3) == [
            "screen notification error", "speaker notification error", "motor notification error",
        ])
        host.answer = .undo
        host.shake(endingAt: 8)  // the next shake offers the step on top now
        #expect(host.prompts.last?.undoTitle == "Undo Delete Name")
        #expect(host.letter.text == "Dear Ada,")
    }

    @Test func aChoiceForAContextRemovedAndMadeAgainIsNotApplied() throws {
        let host = try Host()
        host.answer = nil
        try host.letter.setText("Dear Ada,", name: "type text")
        host.shake(endingAt: 5)
        host.contexts.removeContext("letter")
        let remade = TextDocument("", stack: host.contexts.activate("letter"))
        try remade.setText("Other", name: "other")
        #expect(host.shakeToUndo.answer(.undo, at: 6) == .contextChanged)
        #expect(remade.text == "Other")
        #expect(host.letter.text == "Dear Ada,")
    }

    @Test func aShakeWithAnUndoGroupOpenIsIgnoredForThatReason() throws {
        let host = try Host()
        try host.letter.setText("Dear Ada,", name: "type text")
        host.letter.stack.beginUndoGrouping()
        host.shake(endingAt: 5)
        #expect(host.prompts.isEmpty)
        #expect(host.ignored == [.undoGroupOpen])
        #expect(host.ignored.map(\.description) == ["an undo group is open"])
        try host.letter.stack.endUndoGrouping()
        host.shake(endingAt: 8)
        #expect(host.prompts.map(\.undoTitle) == ["Undo Type Text"])
        #expect(host.letter.text == "")
    }

    @Test func feedbackIsPreparedWhenTheShakeBeginsAndGivenWhenItEnds() throws {
        let host = try Host()
        try host.letter.setText("Dear Ada,", name: "type text")
        var outcomes: [UndoPromptOutcome] = []
        let log = host.log
        host.shakeToUndo.onOutcome = { _, _, outcome in
            outcomes.append(outcome)
            log.entries.append("outcome: \(outcome)")
        }
        host.dispatcher.dispatch(shakeEvent(.began, at: 1))
        #expect(host.log.entries == ["screen prepare", "speaker prepare", "motor prepare"])
        host.dispatcher.dispatch(shakeEvent(.ended, at: 2))
        #expect(host.log.entries == [
            "screen prepare", "speaker prepare", "motor prepare",
            // the prompt appears: the recognised gesture is an impact
            "screen impact medium", "speaker impact medium", "motor impact medium",
            // ready for the answer
            "screen prepare", "speaker prepare", "motor prepare",
            // undo applied, then a success notification (not an impact)
            "outcome: undone Type Text",
            "screen notification success", "speaker notification success", "motor notification success",
        ])
        #expect(outcomes == [.undone(try ActionName("Type Text"))])
        #expect(outcomes.map(\.description) == ["undone Type Text"])
    }

    /// What the three sinks log for an answer's feedback prepared then given.
    static let preparedThenSuccess = [
        "screen prepare", "speaker prepare", "motor prepare",
        "screen notification success", "speaker notification success", "motor notification success",
    ]

    // Defect: the answer's success feedback was dropped (not prepared) when there was no prompt
    // feedback and the shake's `began` was not seen, or the host used the center meanwhile.
    @Test func withoutPromptFeedbackTheAnswerOfAShakeWhoseBeginningWasNotSeenStillGivesItsFeedback() throws {
        let host = try Host()
        host.shakeToUndo.promptFeedback = nil
        try host.letter.setText("Dear Ada,", name: "type text")
        host.dispatcher.dispatch(shakeEvent(.ended, at: 2))
        #expect(host.letter.text == "")
        #expect(host.log.entries == Self.preparedThenSuccess)
    }

    @Test func feedbackTheHostGaveWhileThePromptWasShowingDoesNotSwallowTheAnswers() throws {
        let host = try Host()
        host.answer = nil  // answered later
        try host.letter.setText("Dear Ada,", name: "type text")
        host.shake(endingAt: 2)
        #expect(host.prompts.count == 1)
        // The host uses the same center for something of its own meanwhile.
        #expect(host.feedback.deliver(.selection, at: 3, initiatedByUser: true) == .delivered([.visual, .audible, .haptic]))
        host.log.entries.removeAll()
        let name = try ActionName("type text")
        #expect(host.shakeToUndo.answer(.undo, at: 4) == .undone(name))
        #expect(host.letter.text == "")
        #expect(host.log.entries == Self.preparedThenSuccess)
    }

    // Defect: an `ended` with no `began` seen (a dispatcher attached to a detector mid-shake)
    // brought up the prompt with no sign that the shake was recognised: the impact was refused
    // as not prepared. It is prepared then and given.
    @Test func aPromptForAShakeWhoseBeginningWasNotSeenStillGivesItsFeedback() throws {
        let host = try Host()
        try host.letter.setText("Dear Ada,", name: "type text")
        host.dispatcher.dispatch(shakeEvent(.ended, at: 2))
        #expect(host.prompts.map(\.undoTitle) == ["Undo Type Text"])
        #expect(host.log.entries == [
            "screen prepare", "speaker prepare", "motor prepare",
            "screen impact medium", "speaker impact medium", "motor impact medium",
            "screen prepare", "speaker prepare", "motor prepare",
            "screen notification success", "speaker notification success", "motor notification success",
        ])
    }

    /// A redo chosen from a prompt that offers both reports the redone step by its own name, not
    /// the name of the step Undo would have reverted.
    @Test func aRedoChoiceReportsTheRedoneStepsName() throws {
        let host = try Host()
        try host.letter.setText("Dear Ada,", name: "type text")
        try host.letter.setText("Dear Ada, London", name: "address change")
        host.letter.stack.undo()
        var outcomes: [UndoPromptOutcome] = []
        host.shakeToUndo.onOutcome = { _, _, outcome in outcomes.append(outcome) }
        host.answer = .redo
        host.shake(endingAt: 10)
        #expect(host.prompts.last?.choices == [.undo, .redo, .cancel])
        #expect(host.letter.text == "Dear Ada, London")
        #expect(outcomes == [.redone(try ActionName("Address Change"))])
        #expect(outcomes.map(\.description) == ["redone Address Change"])
    }

    /// The prompt's feedback is the type `promptFeedback` names.
    @Test func thePromptGivesTheFeedbackTypeItIsSetTo() throws {
        let host = try Host()
        host.shakeToUndo.promptFeedback = .selection
        host.answer = .cancel
        try host.letter.setText("Dear Ada,", name: "type text")
        host.shake(endingAt: 2)
        #expect(host.log.entries.contains("screen selection"))
        #expect(!host.log.entries.contains("screen impact medium"))
    }

    /// Each prompt has its own id, counting from 1.
    @Test func promptsAreNumberedFromOne() throws {
        let host = try Host()
        host.answer = .cancel
        try host.letter.setText("Dear Ada,", name: "type text")
        host.shake(endingAt: 2)
        host.shake(endingAt: 4)
        #expect(host.prompts.map(\.id) == [1, 2])
        #expect(host.shakeToUndo.promptCount == 2)
    }

    /// Cancel is answered by nothing: no feedback, not even a preparation, once the prompt's own
    /// feedback was given.
    @Test func cancelGivesNoFeedback() throws {
        let host = try Host()
        host.answer = nil
        try host.letter.setText("Dear Ada,", name: "type text")
        host.shake(endingAt: 2)
        let shown = host.log.entries
        #expect(host.shakeToUndo.answer(.cancel, at: 10) == .cancelled)  // the preparation is stale by then
        #expect(host.log.entries == shown)
        #expect(host.letter.text == "Dear Ada,")
    }

    /// The outcome's words for logs, one for each kind.
    @Test func outcomesHaveTheirWords() throws {
        let name = try ActionName("address change")
        #expect(UndoPromptOutcome.undone(name).description == "undone Address Change")
        #expect(UndoPromptOutcome.redone(name).description == "redone Address Change")
        #expect(UndoPromptOutcome.redone(nil).description == "redone (unnamed)")
        #expect(UndoPromptOutcome.cancelled.description == "cancelled")
        #expect(UndoPromptOutcome.unavailable(.redo).description == "redo unavailable")
        #expect(UndoPromptOutcome.contextChanged.description == "context changed")
        #expect(UndoPromptOutcome.stepsChanged.description == "steps changed since the prompt")
    }

    /// An answer whose time is earlier than the preparation (the reader reconnected, its clock
    /// started again) cannot tell how old that preparation is: it prepares again before its
    /// feedback.
    @Test func anAnswerOnAClockThatStartedAgainPreparesItsFeedbackAgain() throws {
        let host = try Host()
        host.answer = nil
        try host.letter.setText("Dear Ada,", name: "type text")
        host.shake(endingAt: 100)
        host.log.entries.removeAll()
        #expect(host.shakeToUndo.answer(.undo, at: 1) == .undone(try ActionName("Type Text")))
        #expect(host.log.entries == Self.preparedThenSuccess)
    }

    /// A shake begun while a prompt showed and cancelled is over: an end whose `began` was not
    /// seen (a detector attached mid-shake) after the answer brings up a prompt.
    @Test func aShakeCancelledWhileAPromptShowedDoesNotSilenceTheNextEnd() throws {
        let host = try Host()
        host.answer = nil
        try host.letter.setText("Dear Ada,", name: "type text")
        host.shake(endingAt: 2)
        host.dispatcher.dispatch(shakeEvent(.began, at: 3))  // while the prompt shows
        host.dispatcher.dispatch(shakeEvent(.cancelled, at: 3.5))
        host.shakeToUndo.answer(.cancel, at: 4)
        host.dispatcher.dispatch(shakeEvent(.ended, at: 6))
        #expect(host.prompts.count == 2)
        #expect(host.ignored.isEmpty)
    }
}
