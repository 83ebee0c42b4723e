/// What the user can choose in a shake-to-undo prompt.
public enum UndoChoice: String, Sendable, Hashable, CaseIterable {
    case undo
    case redo
    case cancel
}

/// The prompt shake to undo asks a host to show: an Undo button, a Redo button, or both, and
/// Cancel. Titles are made by the active stack's `UndoTitles` ("Undo Delete Name",
/// "Redo Address Change", "Cancel").
public struct UndoPrompt: Sendable, Hashable, CustomStringConvertible {
    /// Distinguishes prompts of one `ShakeToUndo` (1, 2, 3, …).
    public let id: UInt64
    /// The undo context the titles describe; the choice is applied to it.
    public let contextID: UndoContextID
    /// The Undo button's title, or `nil` when there is nothing to undo (show no Undo button).
    public let undoTitle: String?
    /// The Redo button's title, or `nil` when there is nothing to redo (show no Redo button).
    public let redoTitle: String?
    /// The Cancel button's title.
    public let cancelTitle: String
    /// When the shake that raised it ended, s (the `ShakeEvent.time` of its `ended` event).
    public let time: Double

    public init(
        id: UInt64, contextID: UndoContextID, undoTitle: String?, redoTitle: String?,
        cancelTitle: String, time: Double
    ) {
        self.id = id
        self.contextID = contextID
        self.undoTitle = undoTitle
        self.redoTitle = redoTitle
        self.cancelTitle = cancelTitle
        self.time = time
    }

    /// The choices to offer, in button order: undo (if titled), redo (if titled), cancel.
    public var choices: [UndoChoice] {
        (undoTitle == nil ? [] : [.undo]) + (redoTitle == nil ? [] : [.redo]) + [.cancel]
    }

    /// The button titles in order, joined by " | ": "Undo Type Text | Redo Address Change | Cancel".
    public var description: String {
        choices.compactMap(title(for:)).joined(separator: " | ")
    }

    /// The title of `choice`'s button, or `nil` when the prompt does not offer it.
    public func title(for choice: UndoChoice) -> String? {
        switch choice {
        case .undo: undoTitle
        case .redo: redoTitle
        case .cancel: cancelTitle
        }
    }
}

/// What became of a prompt's choice.
public enum UndoPromptOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The step named so was undone.
    case undone(ActionName?)
    /// The step named so was redone.
    case redone(ActionName?)
    /// The user cancelled; nothing changed.
    case cancelled
    /// The choice could not be applied (the prompt did not offer it); nothing changed.
    case unavailable(UndoChoice)
    /// The user moved to another context before choosing (or the prompt's context was removed
    /// and made anew); nothing changed.
    case contextChanged
    /// The context's steps changed after the prompt appeared (a new edit, an undo or redo
    /// elsewhere, a step renamed, a group opened): the prompt's titles may no longer name what
    /// would be undone or redone, so nothing changed.
    case stepsChanged

    /// Words for logs: "undone Delete Name", "redone (unnamed)", "cancelled",
    /// "undo unavailable", "context changed", "steps changed since the prompt".
    public var description: String {
        switch self {
        case .undone(let name): "undone \(name?.text ?? "(unnamed)")"
        case .redone(let name): "redone \(name?.text ?? "(unnamed)")"
        case .cancelled: "cancelled"
        case .unavailable(let choice): "\(choice.rawValue) unavailable"
        case .contextChanged: "context changed"
        case .stepsChanged: "steps changed since the prompt"
        }
    }
}

/// Shows shake-to-undo prompts for a host app.
public protocol UndoPromptPresenter {
    /// Shows `prompt` to the user.
    ///
    /// - Returns: the user's choice when it is known at once (a blocking dialog, a script);
    ///   `nil` when the prompt stays up and the host will call `ShakeToUndo.answer(_:at:)` once the
    ///   user chooses (from the same isolation domain, for example after awaiting its UI).
    func present(_ prompt: UndoPrompt) -> UndoChoice?
}

/// An `UndoPromptPresenter` made from a closure.
public struct ClosurePromptPresenter: UndoPromptPresenter {
    private let body: (UndoPrompt) -> UndoChoice?

    /// - Parameter body: shows the prompt; returns the choice, or `nil` to answer later.
    public init(_ body: @escaping (UndoPrompt) -> UndoChoice?) { self.body = body }

    public func present(_ prompt: UndoPrompt) -> UndoChoice? { body(prompt) }
}
