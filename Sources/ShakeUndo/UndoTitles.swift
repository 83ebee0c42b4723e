/// Which button of a shake-to-undo prompt a title is for.
public enum UndoTitleKind: String, Sendable, Hashable, CaseIterable {
    case undo
    case redo
    case cancel
}

/// The localisation hook for undo and redo titles.
///
/// A title is made from a kind and an optional action name. The default, `english`, makes
/// "Undo Delete Name", "Redo Address Change", plain "Undo" / "Redo" for an unnamed action, and
/// "Cancel". An app supplies its own closure to translate:
///
/// ```swift
/// let german = UndoTitles { kind, name in
///     switch kind {
///     case .undo: name.map { "\($0.text) widerrufen" } ?? "Widerrufen"
///     case .redo: name.map { "\($0.text) wiederholen" } ?? "Wiederholen"
///     case .cancel: "Abbrechen"
///     }
/// }
/// ```
///
/// Whether there is anything to undo is decided before the hook is asked: `undoMenuItemTitle`
/// and `redoMenuItemTitle` never call it for a title when nothing can be undone or redone
/// (`undoMenuTitle(forUndoActionName:)`, which makes a title for any name, does).
public struct UndoTitles: Sendable {
    /// Makes the title for `kind`; the action name is `nil` when the action is unnamed, and
    /// always `nil` for `.cancel`.
    public var title: @Sendable (UndoTitleKind, ActionName?) -> String

    /// - Parameter title: makes the title for a kind and an optional action name.
    public init(title: @escaping @Sendable (UndoTitleKind, ActionName?) -> String) {
        self.title = title
    }

    /// English titles: "Undo " / "Redo " plus the action name; "Undo" / "Redo" when unnamed;
    /// "Cancel".
    public static let english = UndoTitles { kind, name in
        switch kind {
        case .undo: name.map { "Undo \($0.text)" } ?? "Undo"
        case .redo: name.map { "Redo \($0.text)" } ?? "Redo"
        case .cancel: "Cancel"
        }
    }
}
