import Testing
import ShakeUndo

@Suite struct UndoStackTests {
    @Test func titlesNameTheStepsAndVanishWhenNothingIsLeft() throws {
        let stack = UndoStack()
        let document = TextDocument("", stack: stack)
        #expect(stack.undoMenuItemTitle == nil)
        #expect(stack.redoMenuItemTitle == nil)

        document.setText("Ada Lovelace")
        #expect(stack.undoMenuItemTitle == "Undo")  // unnamed step

        try document.setText("", name: "delete name")
        #expect(stack.undoMenuItemTitle == "Undo Delete Name")
        stack.undo()
        #expect(document.text == "Ada Lovelace")
        #expect(stack.undoMenuItemTitle == "Undo")
        #expect(stack.redoMenuItemTitle == "Redo Delete Name")
        stack.undo()
        #expect(document.text == "")
        #expect(stack.undoMenuItemTitle == nil)
        #expect(stack.redoMenuItemTitle == "Redo")  // the unnamed typing is next to redo
        stack.redo()
        #expect(stack.redoMenuItemTitle == "Redo Delete Name")
    }

    @Test func registeringDuringUndoGoesToTheRedoSide() {
        let stack = UndoStack()
        var seen: [String] = []
        let document = TextDocument("a", stack: stack)
        stack.addObserver { change in
            if case .registered = change {
                seen.append(stack.isUndoing ? "while undoing" : stack.isRedoing ? "while redoing" : "normal")
            }
        }
        document.setText("b")
        stack.undo()
        #expect(document.text == "a")
        #expect(stack.canRedo && !stack.canUndo)
        stack.redo()
        #expect(document.text == "b")
        #expect(stack.canUndo && !stack.canRedo)
        #expect(seen == ["normal", "while undoing", "while redoing"])
        #expect(!stack.isUndoing && !stack.isRedoing)
    }

    // Defect: an action that cleared the history while undoing left the inverses registered
    // after it (by itself or by the step's older actions) as an unnamed redo step ("Redo").
    /// `removeAllActions()` from an action while an undo or redo runs leaves both sides empty
    /// when it returns, as UndoManager's leaves both stacks: the step's other actions still run.
    @Test(arguments: [false, true])
    func clearingFromAnActionLeavesNoStep(whileRedoing: Bool) throws {
        let stack = UndoStack()
        let document = TextDocument("a", stack: stack)
        var clearing = !whileRedoing
        var changes: [UndoStack.Change] = []
        stack.beginUndoGrouping()
        document.setText("b")
        // The group's newest action (run first by undo, last by redo): once `clearing`, the
        // document forgets its history, then registers its inverse as usual.
        func forgetHistory(_ stack: UndoStack) {
            if clearing { stack.removeAllActions() }
            stack.registerUndo(forgetHistory)
        }
        stack.registerUndo(forgetHistory)
        try stack.setActionName("Paste")
        try stack.endUndoGrouping()
        if whileRedoing {
            stack.undo()
            #expect(stack.redoMenuItemTitle == "Redo Paste")
            clearing = true
        }
        stack.addObserver { changes.append($0) }
        #expect(whileRedoing ? stack.redo() : stack.undo())
        #expect(document.text == (whileRedoing ? "b" : "a"), "the step's other action ran")
        #expect(!stack.canUndo && !stack.canRedo && stack.undoCount == 0 && stack.redoCount == 0)
        #expect(stack.undoMenuItemTitle == nil && stack.redoMenuItemTitle == nil)
        let name = try ActionName("Paste")
        #expect(changes == (whileRedoing ? [.registered, .cleared, .registered, .redone(name)]
                                         : [.cleared, .registered, .registered, .undone(name)]))
        // The stack works on as before.
        document.setText("c")
        #expect(stack.undo() && document.text == (whileRedoing ? "b" : "a") && stack.redoMenuItemTitle == "Redo")
    }

    @Test func nestedGroupsUndoAsOneStep() throws {
        let stack = UndoStack()
        let document = TextDocument("", stack: stack)
        stack.beginUndoGrouping()
        document.setText("Ada")
        stack.beginUndoGrouping()
        document.setText("Ada Lovelace")
        try stack.setActionName("type text")
        document.setText("Ada Lovelace, London")
        try stack.endUndoGrouping()
        #expect(!stack.canUndo)  // the outer group is still open
        try stack.endUndoGrouping()
        #expect(stack.undoCount == 1)
        #expect(stack.undoMenuItemTitle == "Undo Type Text")
        stack.undo()
        #expect(document.text == "")
        stack.redo()
        #expect(document.text == "Ada Lovelace, London")
    }

    @Test func emptyGroupLeavesNoStep() throws {
        let stack = UndoStack()
        stack.beginUndoGrouping()
        try stack.endUndoGrouping()
        #expect(!stack.canUndo)
        #expect(stack.undoCount == 0)
    }

    @Test func unbalancedEndIsAnError() {
        let stack = UndoStack()
        #expect(throws: UndoStackError.noOpenGroup) { try stack.endUndoGrouping() }
        #expect(UndoStackError.noOpenGroup.description.contains("endUndoGrouping"))
    }

    @Test func newChangeAfterUndoClearsTheRedoSide() {
        let stack = UndoStack()
        let document = TextDocument("a", stack: stack)
        var changes: [UndoStack.Change] = []
        document.setText("b")
        document.setText("c")
        stack.undo()
        stack.undo()
        #expect(stack.redoCount == 2)
        stack.addObserver { changes.append($0) }
        document.setText("x")
        #expect(!stack.canRedo)
        #expect(changes == [.registered, .redoDiscarded(count: 2)])
        stack.undo()
        #expect(document.text == "a")
    }

    @Test(arguments: [(levels: 1, left: 1), (levels: 3, left: 3), (levels: 0, left: 5)])
    func levelsOfUndoDropTheOldestSteps(levels: Int, left: Int) {
        let stack = UndoStack(levelsOfUndo: levels)
        let document = TextDocument("0", stack: stack)
        for value in 1...5 { document.setText("\(value)") }
        #expect(stack.undoCount == left)
        while stack.undo() {}
        #expect(document.text == "\(5 - left)")
    }

    /// Past the limit every registration drops the oldest step, many times over (the steps are
    /// kept in storage that is compacted now and then): the newest are kept in order, and what a
    /// dropped step's action captured is released when the step is dropped.
    @Test func manyStepsPastTheLimitKeepTheNewestAndReleaseTheDropped() {
        final class Payload {}
        let stack = UndoStack(levelsOfUndo: 10)
        let document = TextDocument("0", stack: stack)
        weak var firstPayload: Payload?
        for value in 1...1000 {
            let payload = Payload()
            if value == 1 { firstPayload = payload }
            document.setText("\(value)")
            stack.registerUndo { _ in _ = payload }
            #expect(stack.undoCount == min(2 * value, 10))
        }
        #expect(firstPayload == nil, "a dropped step's action was kept")
        // Ten steps, alternately an edit and the payload's: the last five edits are kept, and
        // only the edits register a redo.
        var undone = 0
        while stack.undo() { undone += 1 }
        #expect(undone == 10 && document.text == "995")
        #expect(stack.redoCount == 5)
        while stack.redo() {}
        #expect(document.text == "1000")
    }

    @Test func loweringLevelsDropsStepsAtOnceAndReportsIt() {
        let stack = UndoStack()
        let document = TextDocument("0", stack: stack)
        for value in 1...5 { document.setText("\(value)") }
        stack.undo()
        var changes: [UndoStack.Change] = []
        stack.addObserver { changes.append($0) }
        stack.levelsOfUndo = 2
        #expect(stack.undoCount == 2 && stack.redoCount == 1)
        #expect(changes == [.stepsDropped(undo: 2, redo: 0)])
        stack.levelsOfUndo = -3
        #expect(stack.levelsOfUndo == 0)
    }

    @Test func observersSeeEveryKindOfChangeUntilRemoved() throws {
        let stack = UndoStack()
        let document = TextDocument("", stack: stack)
        var changes: [UndoStack.Change] = []
        let token = stack.addObserver { changes.append($0) }
        stack.beginUndoGrouping()
        document.setText("Ada")
        try stack.setActionName("type name")
        try stack.endUndoGrouping()
        stack.undo()
        stack.redo()
        stack.removeAllActions()
        let name = try ActionName("Type Name")
        #expect(changes == [
            .groupOpened(level: 1), .registered, .actionNameChanged(name), .groupClosed(level: 0),
            .registered, .undone(name), .registered, .redone(name), .cleared,
        ])
        stack.removeObserver(token)
        document.setText("Grace")
        #expect(changes.count == 9)
    }

    @Test func tooLongNameIsRefusedAndTheOldNameKept() throws {
        let stack = UndoStack()
        let document = TextDocument("", stack: stack)
        try document.setText("x", name: "address change")
        #expect(throws: ActionNameError.self) {
            try stack.setActionName("change the shipping address of the customer")
        }
        #expect(stack.undoMenuItemTitle == "Undo Address Change")
        try stack.setActionName("")
        #expect(stack.undoMenuItemTitle == "Undo")
    }

    @Test func undoAndRedoDoNothingWhileAGroupIsOpen() {
        let stack = UndoStack()
        let document = TextDocument("a", stack: stack)
        document.setText("b")
        document.setText("c")
        #expect(stack.undo() && document.text == "b" && stack.canUndo && stack.canRedo)
        stack.beginUndoGrouping()
        #expect(!stack.canUndo && !stack.canRedo)
        #expect(stack.undo() == false)
        #expect(stack.redo() == false)
        #expect(document.text == "b")
    }

    @Test func localisationHookMakesEveryTitle() throws {
        let german = UndoTitles { kind, name in
            switch kind {
            case .undo: name.map { "\($0.text) widerrufen" } ?? "Widerrufen"
            case .redo: name.map { "\($0.text) wiederholen" } ?? "Wiederholen"
            case .cancel: "Abbrechen"
            }
        }
        let contexts = UndoContextRegistry(defaultTitles: german)
        let stack = contexts.activate("brief")
        let document = TextDocument("", stack: stack)
        document.setText("x")
        #expect(stack.undoMenuItemTitle == "Widerrufen")
        try stack.setActionName("Name löschen")
        #expect(stack.undoMenuItemTitle == "Name Löschen widerrufen")
        stack.undo()
        #expect(stack.redoMenuItemTitle == "Name Löschen wiederholen")

        // The Cancel title is seen on the prompt a shake brings up, with the others.
        var shown: [UndoPrompt] = []
        let shakeToUndo = ShakeToUndo(contexts: contexts, presenter: ClosurePromptPresenter { prompt in
            shown.append(prompt)
            return .cancel
        })
        shakeToUndo.handleShake(shakeEvent(.ended, at: 1))
        #expect(shown.map(\.description) == ["Name Löschen wiederholen | Abbrechen"])
        #expect(shown.first?.cancelTitle == "Abbrechen")
    }

    @Test func contextsKeepTheirOwnHistory() throws {
        let contexts = UndoContextRegistry(defaultLevelsOfUndo: 10)
        let letter = TextDocument("", stack: contexts.activate("letter"))
        try letter.setText("Dear Ada", name: "type text")
        let invoice = TextDocument("", stack: contexts.activate("invoice"))
        #expect(contexts.activeStack?.canUndo == false)
        try invoice.setText("42 EUR", name: "change amount")
        #expect(contexts.activate("letter") === letter.stack)
        #expect(contexts.activeStack?.undoMenuItemTitle == "Undo Type Text")
        #expect(contexts.activeStack?.levelsOfUndo == 10)
        #expect(contexts.contextIDs == ["letter", "invoice"])
        contexts.removeContext("letter")
        #expect(contexts.activeContextID == nil)
        #expect(contexts.activeStack == nil)
        #expect(contexts.existingStack(for: "letter") == nil)
        #expect(contexts.existingStack(for: "invoice")?.undoMenuItemTitle == "Undo Change Amount")
    }

    /// While an undo runs, the stack offers neither undo nor redo: an action that asks for
    /// another undo (a handler reacting to the change, say) reverts nothing more than the step
    /// the user chose.
    @Test func anUndoAskedForWhileUndoingRevertsNothingMore() {
        let stack = UndoStack()
        let document = TextDocument("", stack: stack)
        document.setText("a")
        document.setText("ab")
        var offered: [Bool] = []
        var undone: [Bool] = []
        stack.registerUndo { stack in
            offered += [stack.canUndo, stack.canRedo]
            undone.append(stack.undo())
        }
        #expect(stack.undo())
        #expect(offered == [false, false])
        #expect(undone == [false])
        #expect(document.text == "ab")
        #expect(stack.undoCount == 2)
    }

    /// A group an undo action opens and leaves open ends with the undo: afterwards no group is
    /// open, the stack can undo again, and the next edit is a step of its own.
    @Test func aGroupAnUndoActionLeavesOpenEndsWithTheUndo() throws {
        let stack = UndoStack()
        let document = TextDocument("a", stack: stack)
        document.setText("b")
        stack.registerUndo { stack in stack.beginUndoGrouping() }  // never closed
        #expect(stack.undo())
        #expect(stack.groupingLevel == 0)
        #expect(stack.canUndo)
        #expect(stack.undoMenuItemTitle == "Undo")
        #expect(throws: UndoStackError.noOpenGroup) { try stack.endUndoGrouping() }
        document.setText("c")
        #expect(stack.undoCount == 2)
        #expect(stack.undo())
        #expect(document.text == "b")
    }

    /// An action that names the step while an undo runs names the redo step it is building: the
    /// redo button shows that name, not the undone step's.
    @Test func aNameGivenWhileUndoingTitlesTheRedo() throws {
        let stack = UndoStack()
        let document = TextDocument("", stack: stack)
        try document.setText("Ada", name: "type name")
        stack.registerUndo { stack in
            stack.registerUndo { _ in }
            try? stack.setActionName("restore name")
        }
        #expect(stack.undo())
        #expect(stack.redoMenuItemTitle == "Redo Restore Name")
        #expect(stack.redoActionName?.text == "Restore Name")
    }

    /// A step dropped past the limit releases what its actions captured at once, also long
    /// before the storage is compacted (one step dropped, not hundreds).
    @Test func aStepDroppedPastTheLimitReleasesItsActionAtOnce() {
        final class Payload {}
        let stack = UndoStack(levelsOfUndo: 1)
        weak var dropped: Payload?
        do {
            let payload = Payload()
            dropped = payload
            stack.registerUndo { _ in _ = payload }
        }
        #expect(dropped != nil)  // the step keeps it
        stack.registerUndo { _ in }
        #expect(stack.undoCount == 1)
        #expect(dropped == nil, "a dropped step's action was kept")
    }

    /// Naming when there is no step to name (nothing undone yet, no group open) changes nothing
    /// and reports nothing: `changeCount` stays, so a prompt showing meanwhile is not refused as
    /// `.stepsChanged`.
    @Test func namingWithNoStepToNameIsNoChange() throws {
        let stack = UndoStack()
        var changes: [UndoStack.Change] = []
        stack.addObserver { changes.append($0) }
        let before = stack.changeCount
        try stack.setActionName("type text")
        #expect(changes.isEmpty)
        #expect(stack.changeCount == before)
        #expect(stack.undoActionName == nil)
    }

    /// A negative limit given to `init` is stored as 0 (unlimited), as one set later is.
    @Test func aNegativeLimitIsStoredAsUnlimited() {
        let stack = UndoStack(levelsOfUndo: -3)
        #expect(stack.levelsOfUndo == 0)
        let document = TextDocument("0", stack: stack)
        for value in 1...5 { document.setText("\(value)") }
        #expect(stack.undoCount == 5)
    }

    /// Removing one observer stops that one only, whichever was added last.
    @Test func removingAnObserverStopsThatOneOnly() {
        let stack = UndoStack()
        var first: [UndoStack.Change] = []
        var second: [UndoStack.Change] = []
        let firstToken = stack.addObserver { first.append($0) }
        stack.addObserver { second.append($0) }
        stack.removeObserver(firstToken)
        stack.registerUndo { _ in }
        #expect(first.isEmpty)
        #expect(second == [.registered])
    }

    /// A removed context leaves `contextIDs`; made again, it comes last.
    @Test func aRemovedContextLeavesTheContextIDs() {
        let contexts = UndoContextRegistry()
        contexts.activate("letter")
        contexts.activate("invoice")
        contexts.removeContext("letter")
        #expect(contexts.contextIDs == ["invoice"])
        contexts.activate("letter")
        #expect(contexts.contextIDs == ["invoice", "letter"])
    }

    /// Closing a group past the limit reports the group closed, then the steps it pushed out, as
    /// a registration reports itself before the steps it drops.
    @Test func aGroupClosedPastTheLimitReportsTheCloseThenTheDrop() throws {
        let stack = UndoStack(levelsOfUndo: 1)
        stack.registerUndo { _ in }
        var changes: [UndoStack.Change] = []
        stack.addObserver { changes.append($0) }
        stack.beginUndoGrouping()
        stack.registerUndo { _ in }
        try stack.endUndoGrouping()
        #expect(changes == [.groupOpened(level: 1), .registered, .groupClosed(level: 0), .stepsDropped(undo: 1, redo: 0)])
    }
}
