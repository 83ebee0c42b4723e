/// An undo and redo stack in the image of Foundation's `UndoManager` (which Swift on Linux
/// does not have), without Foundation and without a run loop.
///
/// ## Steps and groups
/// Every call to `registerUndo(_:)` outside a group becomes one *step*: one `undo()` reverts it.
/// Calls between `beginUndoGrouping()` and the matching `endUndoGrouping()` become one step
/// together; groups nest, and a nested group is part of its outermost group, so the whole
/// outermost group is undone as one. A group closed without any registration leaves no step.
/// (There is no automatic grouping by run-loop event: a registration outside a group is its own
/// step.)
///
/// ## Undo and redo
/// `undo()` runs the most recent step's actions newest first. While it runs, `isUndoing` is true
/// and every `registerUndo(_:)` goes to the *redo* side, forming one redo step that carries the
/// undone step's action name. `redo()` does the same the other way round: registrations while
/// `isRedoing` go to the undo side *without* clearing the redo side. A registration at any other
/// time clears the redo side: after you undo and then make a new change, the undone change can no
/// longer be redone.
///
/// ```swift
/// final class Document {
///     let undo = UndoStack()
///     var text = ""
///     func setText(_ new: String) {
///         let old = text
///         text = new
///         undo.registerUndo { [unowned self] _ in self.setText(old) }  // undo or redo, as needed
///     }
/// }
/// ```
///
/// ## Levels
/// `levelsOfUndo` bounds the number of steps kept on each side; beyond it the oldest steps are
/// dropped. 0 (the default) means unlimited.
///
/// ## Isolation
/// `UndoStack` is a non-`Sendable` class: create it and use it from one isolation domain (the
/// main actor of an app, or the one task that owns the document). Registered actions are plain
/// non-`Sendable` closures run synchronously on the caller's thread, like the document they
/// change. Swift 6's region checking keeps a stack from being shared across threads.
public final class UndoStack {
    /// An undo (or redo) action. It receives the stack, so it can register its own inverse
    /// without capturing the stack.
    public typealias Action = (UndoStack) -> Void

    /// A step: the actions registered for it (oldest first) and its name.
    struct Step {
        var actions: [Action] = []
        var name: ActionName?
    }

    private enum Mode { case normal, undoing, redoing }

    /// Undo steps, oldest first.
    private var undoSteps = Steps()
    /// Redo steps, oldest first.
    private var redoSteps = Steps()
    /// The outermost group being built in normal mode (valid while `groupingLevel > 0`).
    private var openStep = Step()
    /// The step being built while an undo or redo runs.
    private var captureStep = Step()
    /// Whether `removeAllActions()` ran during the current undo or redo: what the step's
    /// actions register is then dropped, not kept as a step.
    private var clearedDuringRun = false
    private var mode: Mode = .normal
    private var observers: [(token: UndoObserverToken, handler: (Change) -> Void)] = []
    private var nextObserverID: UInt64 = 0

    /// How many groups are open: 0 when none, 1 inside one `beginUndoGrouping()`, and so on.
    public private(set) var groupingLevel = 0

    /// Most steps kept on each side (undo and redo); the oldest are dropped beyond it.
    /// 0 means unlimited; a negative value is stored as 0. Lowering it drops steps at once.
    /// Default 0.
    public var levelsOfUndo: Int {
        didSet {
            if levelsOfUndo < 0 { levelsOfUndo = 0 }
            dropStepsBeyondLevels()
        }
    }

    /// Makes the undo/redo titles (the localisation hook). Default `UndoTitles.english`.
    public var titles: UndoTitles

    /// Creates an empty stack.
    /// - Parameters:
    ///   - levelsOfUndo: most steps kept on each side; 0 (default) means unlimited.
    ///   - titles: the title maker; default English.
    public init(levelsOfUndo: Int = 0, titles: UndoTitles = .english) {
        self.levelsOfUndo = max(0, levelsOfUndo)
        self.titles = titles
    }

    // MARK: State

    /// True while `undo()` runs the actions of a step.
    public var isUndoing: Bool { mode == .undoing }
    /// True while `redo()` runs the actions of a step.
    public var isRedoing: Bool { mode == .redoing }

    /// True when `undo()` would revert a step: there is one, no group is open, and no undo or
    /// redo is running.
    public var canUndo: Bool { mode == .normal && groupingLevel == 0 && !undoSteps.isEmpty }
    /// True when `redo()` would reapply a step: there is one, no group is open, and no undo or
    /// redo is running.
    public var canRedo: Bool { mode == .normal && groupingLevel == 0 && !redoSteps.isEmpty }

    /// How many changes the stack has reported to its observers (every `Change`: a registration
    /// that makes or clears a step, a name, a group opened or closed, an undo, a redo, steps
    /// dropped or cleared). Save it and compare later to tell whether anything changed in
    /// between, as `ShakeToUndo` does before applying a prompt's choice.
    public private(set) var changeCount: UInt64 = 0

    /// Number of steps on the undo side.
    public var undoCount: Int { undoSteps.count }
    /// Number of steps on the redo side.
    public var redoCount: Int { redoSteps.count }

    /// Name of the step `undo()` would revert; `nil` when it is unnamed or there is none.
    public var undoActionName: ActionName? { undoSteps.last?.name }
    /// Name of the step `redo()` would reapply; `nil` when it is unnamed or there is none.
    public var redoActionName: ActionName? { redoSteps.last?.name }

    /// The title for an undo button: "Undo Delete Name", or "Undo" when the step is unnamed;
    /// `nil` when `canUndo` is false. Made by `titles`.
    public var undoMenuItemTitle: String? {
        canUndo ? undoMenuTitle(forUndoActionName: undoActionName) : nil
    }
    /// The title for a redo button: "Redo Address Change", or "Redo" when the step is unnamed;
    /// `nil` when `canRedo` is false. Made by `titles`.
    public var redoMenuItemTitle: String? {
        canRedo ? redoMenuTitle(forUndoActionName: redoActionName) : nil
    }

    /// The undo title for an action name, through `titles` ("Undo " + name, or "Undo").
    public func undoMenuTitle(forUndoActionName name: ActionName?) -> String {
        titles.title(.undo, name)
    }
    /// The redo title for an action name, through `titles` ("Redo " + name, or "Redo").
    public func redoMenuTitle(forUndoActionName name: ActionName?) -> String {
        titles.title(.redo, name)
    }

    // MARK: Registering

    /// Registers `action` to revert a change just made.
    ///
    /// - Outside an undo or redo and outside a group, the action is a step of its own.
    /// - Inside a group, it joins the outermost open group.
    /// - While `isUndoing`, it joins the redo step being built; while `isRedoing`, the undo step
    ///   being built.
    ///
    /// Unless an undo or redo is running, the redo side is cleared.
    ///
    /// - Complexity: O(1) amortised (also when `levelsOfUndo` drops the oldest step), O(n)
    ///   when the redo side (n steps) is cleared.
    public func registerUndo(_ action: @escaping Action) {
        var changes: [Change] = []
        switch mode {
        case .undoing, .redoing:
            captureStep.actions.append(action)
        case .normal:
            if !redoSteps.isEmpty {
                changes.append(.redoDiscarded(count: redoSteps.count))
                redoSteps.removeAll()
            }
            if groupingLevel > 0 {
                openStep.actions.append(action)
            } else {
                undoSteps.append(Step(actions: [action], name: nil))
                if let dropped = dropStepsBeyondLevels(notify: false) { changes.append(dropped) }
            }
        }
        changes.insert(.registered, at: 0)
        for change in changes { notify(change) }
    }

    /// Names the current step: the open group while one is open, the step being built while an
    /// undo or redo runs, else the most recent undo step. `nil` makes it unnamed.
    public func setActionName(_ name: ActionName?) {
        switch mode {
        case .undoing, .redoing:
            captureStep.name = name
        case .normal:
            if groupingLevel > 0 {
                openStep.name = name
            } else if !undoSteps.isEmpty {
                undoSteps.nameLast(name)
            } else {
                return
            }
        }
        notify(.actionNameChanged(name))
    }

    /// Normalises `raw` into an `ActionName` and names the current step with it (see
    /// `setActionName(_:)` above). An empty string makes the step unnamed. `titleCase: false`
    /// keeps the letters as written, for a name in another language (see `ActionName`).
    ///
    /// - Throws: `ActionNameError.tooLong` for a name wider than `ActionName.maximumLength`
    ///   columns after normalisation (`ActionName.width(of:)`), and `ActionNameError.empty` for a non-empty string of
    ///   only whitespace and punctuation. The step is left unchanged when it throws.
    public func setActionName(_ raw: String, titleCase: Bool = true) throws(ActionNameError) {
        setActionName(raw.isEmpty ? nil : try ActionName(raw, titleCase: titleCase))
    }

    // MARK: Grouping

    /// Opens a group: registrations until the matching `endUndoGrouping()` form one step.
    /// Groups nest; only the outermost group becomes a step.
    public func beginUndoGrouping() {
        if mode == .normal && groupingLevel == 0 { openStep = Step() }
        groupingLevel += 1
        notify(.groupOpened(level: groupingLevel))
    }

    /// Closes the innermost open group. Closing the outermost group adds its step to the undo
    /// side (nothing is added when no action was registered in it).
    ///
    /// - Throws: `UndoStackError.noOpenGroup` when no group is open; nothing changes.
    public func endUndoGrouping() throws(UndoStackError) {
        guard groupingLevel > 0 else { throw .noOpenGroup }
        groupingLevel -= 1
        var dropped: Change?
        if mode == .normal && groupingLevel == 0 {
            let step = openStep
            openStep = Step()
            if !step.actions.isEmpty {
                undoSteps.append(step)
                dropped = dropStepsBeyondLevels(notify: false)
            }
        }
        notify(.groupClosed(level: groupingLevel))
        if let dropped { notify(dropped) }
    }

    // MARK: Undo and redo

    /// Reverts the most recent step: runs its actions newest first with `isUndoing` true.
    /// What they register becomes one redo step named like the undone step (unless an action
    /// names it otherwise).
    ///
    /// - Returns: false, changing nothing, when `canUndo` is false.
    @discardableResult
    public func undo() -> Bool {
        guard canUndo else { return false }
        let step = undoSteps.removeLast()
        run(step, as: .undoing)
        var dropped: Change?
        let redoStep = takeCapture()
        if !redoStep.actions.isEmpty {
            redoSteps.append(redoStep)
            dropped = dropStepsBeyondLevels(notify: false)
        }
        notify(.undone(step.name))
        if let dropped { notify(dropped) }
        return true
    }

    /// Reapplies the most recently undone step: runs its actions newest first with `isRedoing`
    /// true. What they register becomes one undo step; the rest of the redo side stays.
    ///
    /// - Returns: false, changing nothing, when `canRedo` is false.
    @discardableResult
    public func redo() -> Bool {
        guard canRedo else { return false }
        let step = redoSteps.removeLast()
        run(step, as: .redoing)
        var dropped: Change?
        let undoStep = takeCapture()
        if !undoStep.actions.isEmpty {
            undoSteps.append(undoStep)
            dropped = dropStepsBeyondLevels(notify: false)
        }
        notify(.redone(step.name))
        if let dropped { notify(dropped) }
        return true
    }

    /// Removes every step on both sides and closes any open group without adding it: a caller's
    /// matching `endUndoGrouping()` afterwards throws `noOpenGroup`.
    ///
    /// Called by an action while `undo()` or `redo()` runs (a document reverted to its saved
    /// state, say), it clears the history that undo or redo is part of: the step's remaining
    /// actions still run, but nothing it registers is kept, so when `undo()` or `redo()`
    /// returns neither side has a step, as `UndoManager.removeAllActions()` leaves both stacks
    /// empty. (The inverses registered after the clear had made an unnamed step.)
    public func removeAllActions() {
        undoSteps.removeAll()
        redoSteps.removeAll()
        openStep = Step()
        captureStep = Step()
        if mode == .normal { groupingLevel = 0 } else { clearedDuringRun = true }
        notify(.cleared)
    }

    private func run(_ step: Step, as newMode: Mode) {
        mode = newMode
        clearedDuringRun = false
        captureStep = Step(actions: [], name: step.name)
        for action in step.actions.reversed() { action(self) }
        mode = .normal
        groupingLevel = 0  // a group an action left open ends with the undo or redo
    }

    /// The step the undo or redo just run registered; an empty one when `removeAllActions()`
    /// ran meanwhile.
    private func takeCapture() -> Step {
        let step = clearedDuringRun ? Step() : captureStep
        captureStep = Step()
        clearedDuringRun = false
        return step
    }

    /// Drops the oldest steps beyond `levelsOfUndo` on both sides; returns the change to report.
    @discardableResult
    private func dropStepsBeyondLevels(notify shouldNotify: Bool = true) -> Change? {
        guard levelsOfUndo > 0 else { return nil }
        let undoExcess = max(0, undoSteps.count - levelsOfUndo)
        let redoExcess = max(0, redoSteps.count - levelsOfUndo)
        guard undoExcess + redoExcess > 0 else { return nil }
        undoSteps.removeFirst(undoExcess)
        redoSteps.removeFirst(redoExcess)
        let change = Change.stepsDropped(undo: undoExcess, redo: redoExcess)
        if shouldNotify { notify(change) }
        return change
    }

    // MARK: Observation

    /// Calls `handler` after every change, synchronously, on the thread that made it.
    /// - Returns: a token for `removeObserver(_:)`.
    @discardableResult
    public func addObserver(_ handler: @escaping (Change) -> Void) -> UndoObserverToken {
        nextObserverID += 1
        let token = UndoObserverToken(id: nextObserverID)
        observers.append((token, handler))
        return token
    }

    /// Stops the observer registered with `token`; does nothing for an unknown token.
    public func removeObserver(_ token: UndoObserverToken) {
        observers.removeAll { $0.token == token }
    }

    private func notify(_ change: Change) {
        changeCount &+= 1
        for observer in observers { observer.handler(change) }
    }
}

/// Identifies an observer added with `UndoStack.addObserver(_:)`.
public struct UndoObserverToken: Sendable, Hashable {
    let id: UInt64
}

/// Misuse of an `UndoStack`.
public enum UndoStackError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `endUndoGrouping()` was called with no group open.
    case noOpenGroup

    public var description: String {
        switch self {
        case .noOpenGroup: "endUndoGrouping() called with no open undo group"
        }
    }
}
