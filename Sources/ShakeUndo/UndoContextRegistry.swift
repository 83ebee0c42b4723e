/// One `UndoStack` per undo context, and which context is active.
///
/// Undo belongs to the user's immediate context: a shake undoes what the user did in the
/// document or screen in front of them, not in one they left. The host calls `activate(_:)`
/// whenever the user moves to another document or screen; each context keeps its own history,
/// so switching back brings it back. `ShakeToUndo` acts on `activeStack` only.
///
/// Non-`Sendable`, like `UndoStack`: use it from the same isolation domain as the stacks.
public final class UndoContextRegistry {
    private var stacks: [UndoContextID: UndoStack] = [:]
    /// The contexts in the order they were first used.
    public private(set) var contextIDs: [UndoContextID] = []
    /// The context a shake acts on; `nil` when none is active (a shake then offers nothing).
    public private(set) var activeContextID: UndoContextID?

    /// `levelsOfUndo` given to each stack this registry creates. 0 (default) means unlimited.
    public var defaultLevelsOfUndo: Int
    /// Titles given to each stack this registry creates. Default English.
    public var defaultTitles: UndoTitles

    /// - Parameters:
    ///   - defaultLevelsOfUndo: `levelsOfUndo` for new stacks; 0 (default) means unlimited.
    ///   - defaultTitles: titles for new stacks; default English.
    public init(defaultLevelsOfUndo: Int = 0, defaultTitles: UndoTitles = .english) {
        self.defaultLevelsOfUndo = defaultLevelsOfUndo
        self.defaultTitles = defaultTitles
    }

    /// The stack of the active context, or `nil` when none is active.
    public var activeStack: UndoStack? { activeContextID.flatMap { stacks[$0] } }

    /// Makes `id` the active context, creating its stack on first use.
    /// - Returns: the context's stack.
    @discardableResult
    public func activate(_ id: UndoContextID) -> UndoStack {
        let stack = stack(for: id)
        activeContextID = id
        return stack
    }

    /// Leaves no context active: a shake now offers nothing. The stacks are kept.
    public func deactivate() { activeContextID = nil }

    /// The stack of `id`, created (empty) on first use. Does not change the active context.
    public func stack(for id: UndoContextID) -> UndoStack {
        if let stack = stacks[id] { return stack }
        let stack = UndoStack(levelsOfUndo: defaultLevelsOfUndo, titles: defaultTitles)
        stacks[id] = stack
        contextIDs.append(id)
        return stack
    }

    /// Makes `stack`, which the app made and owns (a document's own `UndoStack`), the history
    /// of `id`. Does not change the active context. Registering the same stack again does
    /// nothing; a context that already has another stack keeps it, and the call throws rather
    /// than drop that history.
    /// - Throws: `UndoContextError.alreadyHasAStack` when `id` has another stack.
    public func register(_ stack: UndoStack, for id: UndoContextID) throws(UndoContextError) {
        if let existing = stacks[id] {
            guard existing === stack else { throw .alreadyHasAStack(id) }
            return
        }
        stacks[id] = stack
        contextIDs.append(id)
    }

    /// The stack of `id` if it has been used, without creating one.
    public func existingStack(for id: UndoContextID) -> UndoStack? { stacks[id] }

    /// Forgets `id` and its history (the document was closed). If it was active, no context is
    /// active afterwards.
    public func removeContext(_ id: UndoContextID) {
        guard stacks.removeValue(forKey: id) != nil else { return }
        contextIDs.removeAll { $0 == id }
        if activeContextID == id { activeContextID = nil }
    }
}

/// Why `UndoContextRegistry.register(_:for:)` refused a stack.
public enum UndoContextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The context already has another stack (its history is kept; remove the context first
    /// to replace it).
    case alreadyHasAStack(UndoContextID)

    public var description: String {
        switch self {
        case .alreadyHasAStack(let id):
            "undo context '\(id)' already has a stack; remove the context first to give it another"
        }
    }
}
