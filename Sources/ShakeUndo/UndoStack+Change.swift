extension UndoStack {
    /// What changed in an `UndoStack`, reported to observers after the change.
    public enum Change: Sendable, Hashable {
        /// An action was registered (as a step, into an open group, or into the step an undo or
        /// redo is building; dropped with it when `removeAllActions()` ran during that undo or redo).
        case registered
        /// A group was opened; `level` is the new `groupingLevel`.
        case groupOpened(level: Int)
        /// A group was closed; `level` is the new `groupingLevel` (0: the outermost group closed,
        /// and if it held actions it is now the newest undo step).
        case groupClosed(level: Int)
        /// The current step was named (or made unnamed).
        case actionNameChanged(ActionName?)
        /// A step was undone; its name.
        case undone(ActionName?)
        /// A step was redone; its name.
        case redone(ActionName?)
        /// A new registration cleared `count` redo steps.
        case redoDiscarded(count: Int)
        /// `levelsOfUndo` dropped the oldest steps: `undo` from the undo side, `redo` from the redo side.
        case stepsDropped(undo: Int, redo: Int)
        /// `removeAllActions()` emptied the stack.
        case cleared
    }
}
