import ShakeDetection

/// The shake-to-undo gesture owner: a shake offers to undo or redo in the user's active context.
///
/// Install it as the gesture owner's handler on a `ShakeDispatcher`. For each shake:
///
/// - `began`: asks the feedback sinks to prepare, so feedback is ready when the shake ends.
/// - `ended`: builds an `UndoPrompt` from the active context's stack (titles such as
///   "Undo Delete Name", "Redo Address Change", and "Cancel") and hands it to the presenter,
///   with `promptFeedback` (default `impactMedium`) as it appears (prepared then if its `began`
///   was not seen). **No prompt** when no context is active or there is nothing to undo or
///   redo; **no second prompt** while one is showing (further shakes are ignored until it is
///   answered, and so is a shake that began while one showed and ends after the answer).
/// - `cancelled`: nothing visible happens.
///
/// The choice, from the presenter at once or later through `answer(_:at:)`, is applied to the
/// prompt's context, which must still be the active one, with its steps as they were when the
/// prompt appeared (so a button titled "Undo Typing" never undoes a later edit): undo or redo is
/// followed by `notificationSuccess` feedback (unless the feedback rules refuse it: the same
/// type within `FeedbackCenter.minimumIntervalSeconds` of the last, as when two prompts are
/// answered 0.3 s apart), a choice that can no longer be applied
/// (`.contextChanged`, `.stepsChanged`, `.unavailable`) by `notificationError`, cancel by
/// nothing. A prompt stays pending until it is answered, also when the owner gives the gesture
/// up meanwhile; `answer(.cancel, at:)` closes it.
///
/// `isEnabled` is the user's setting: when false, shakes are ignored entirely.
///
/// A host whose prompt stays on screen while the user decides returns `nil` from its presenter
/// and answers later, on the same isolation domain:
///
/// ```swift
/// let presenter = ClosurePromptPresenter { prompt in
///     alert.show(prompt)      // buttons: prompt.choices, titled by prompt.title(for:)
///     return nil              // the answer comes later
/// }
/// // when a button is tapped:
/// shakeToUndo.answer(.undo, at: now)
/// ```
///
/// Non-`Sendable`: use it from the isolation domain of the undo stacks and the dispatcher.
public final class ShakeToUndo: ShakeHandler {
    /// The undo contexts; the active one is offered.
    public let contexts: UndoContextRegistry
    /// Shows the prompts.
    public var presenter: any UndoPromptPresenter
    /// Feedback for the user's actions; `nil` for none.
    public let feedback: FeedbackCenter?
    /// The user's setting. When false, shakes are ignored (no preparation, no prompt). Default true.
    public var isEnabled = true
    /// Feedback given as a prompt appears (the shake was recognised); `nil` for none.
    /// Default `impactMedium`.
    public var promptFeedback: FeedbackType? = .impactMedium
    /// Called after every answered prompt with the prompt, the choice and what became of it
    /// (after the choice is applied, before its feedback is given).
    public var onOutcome: ((UndoPrompt, UndoChoice, UndoPromptOutcome) -> Void)?
    /// Called when a shake ended without a prompt, with the reason (for logs and timelines).
    public var onIgnoredShake: ((ShakeEvent, IgnoreReason) -> Void)?

    /// Why a shake that ended brought up no prompt.
    public enum IgnoreReason: String, Sendable, Hashable, CustomStringConvertible {
        /// The user's setting (`isEnabled`) is off.
        case disabled
        /// No undo context is active.
        case noActiveContext
        /// The active context has nothing to undo or redo (no alert without a purpose).
        case nothingToUndoOrRedo
        /// The active context's stack has an undo group open (`beginUndoGrouping()` without its
        /// `endUndoGrouping()` yet), so it can neither undo nor redo until the group closes.
        case undoGroupOpen
        /// A prompt is already showing.
        case promptShowing

        /// Words for logs: "shake to undo is off", "nothing to undo or redo", ...
        public var description: String {
            switch self {
            case .disabled: "shake to undo is off"
            case .noActiveContext: "no active undo context"
            case .nothingToUndoOrRedo: "nothing to undo or redo"
            case .undoGroupOpen: "an undo group is open"
            case .promptShowing: "a prompt is already showing"
            }
        }
    }

    /// The prompt on screen, waiting for `answer(_:at:)`; `nil` when none is showing.
    public private(set) var pendingPrompt: UndoPrompt?
    /// The stack the pending prompt was made from, and its `changeCount` then. Weak: a context
    /// removed meanwhile is not kept alive (and then no longer matches).
    private weak var promptedStack: UndoStack?
    private var promptedChangeCount: UInt64 = 0
    /// Number of prompts presented so far.
    public private(set) var promptCount: UInt64 = 0

    /// - Parameters:
    ///   - contexts: the undo contexts; a shake acts on the active one.
    ///   - presenter: shows prompts.
    ///   - feedback: delivers feedback; `nil` (default) for none.
    public init(
        contexts: UndoContextRegistry, presenter: any UndoPromptPresenter, feedback: FeedbackCenter? = nil
    ) {
        self.contexts = contexts
        self.presenter = presenter
        self.feedback = feedback
    }

    /// Reacts to one shake event (see the type's documentation): prepares feedback on `began`,
    /// offers a prompt on `ended`, ignores `cancelled`; does nothing at all when `isEnabled` is false.
    public func handleShake(_ event: ShakeEvent) {
        switch event.phase {
        case .began:
            // A shake while a prompt shows is ignored: nothing is prepared for it either, and
            // it stays ignored should the prompt be answered before it ends (the user shook
            // while deciding; a second prompt right after the answer would be one unasked for).
            beganWhilePromptShowed = pendingPrompt != nil
            if isEnabled, pendingPrompt == nil, let feedback {
                feedback.prepare()
                preparedAt = event.time
            }
        case .cancelled:
            beganWhilePromptShowed = false
        case .ended:
            let reason = beganWhilePromptShowed ? .promptShowing : offerPrompt(at: event.time)
            beganWhilePromptShowed = false
            if let reason { onIgnoredShake?(event, reason) }
        }
    }

    /// The shake in progress began while a prompt was showing.
    private var beganWhilePromptShowed = false

    /// Presents a prompt, or returns why not.
    private func offerPrompt(at time: Double) -> IgnoreReason? {
        guard isEnabled else { return .disabled }
        guard pendingPrompt == nil else { return .promptShowing }
        guard let contextID = contexts.activeContextID, let stack = contexts.activeStack else {
            return .noActiveContext
        }
        guard stack.groupingLevel == 0 else { return .undoGroupOpen }
        let undoTitle = stack.undoMenuItemTitle
        let redoTitle = stack.redoMenuItemTitle
        guard undoTitle != nil || redoTitle != nil else { return .nothingToUndoOrRedo }
        promptCount += 1
        let prompt = UndoPrompt(
            id: promptCount, contextID: contextID, undoTitle: undoTitle, redoTitle: redoTitle,
            cancelTitle: stack.titles.title(.cancel, nil), time: time)
        pendingPrompt = prompt
        promptedStack = stack
        promptedChangeCount = stack.changeCount
        if let feedback {
            // An `ended` whose `began` this handler did not see (attached mid-shake) found
            // nothing prepared: prepare now rather than lose the sign that the shake was seen.
            // So does one whose `began` came longer ago than a preparation lasts.
            if let promptFeedback {
                keepPrepared(feedback, at: time)
                feedback.deliver(promptFeedback, at: time, initiatedByUser: true)
            }
            keepPrepared(feedback, at: time)  // the answer's feedback comes next
        }
        if let choice = presenter.present(prompt) {
            answer(choice, at: time)
        }
        return nil
    }

    /// When this handler last prepared `feedback`, s (the events' clock); nil before.
    private var preparedAt: Double?

    /// Prepares `feedback` unless a preparation this handler made at most
    /// `preparationLifetimeSeconds` before `time` is still unused.
    private func keepPrepared(_ feedback: FeedbackCenter, at time: Double) {
        if feedback.isPrepared, let preparedAt, time - preparedAt >= 0,
           time - preparedAt <= Self.preparationLifetimeSeconds { return }
        feedback.prepare()
        preparedAt = time
    }

    /// How long a preparation (made as a shake begins, or as its prompt appears) is taken to
    /// last, s: feedback given later is prepared again first. 2 s: a device readies its haptic and sound
    /// hardware for a second or two.
    public static let preparationLifetimeSeconds = 2.0

    /// Applies the user's choice to the prompt on screen and closes it.
    ///
    /// - Parameters:
    ///   - choice: what the user chose.
    ///   - time: when, s (same clock as the shake events); used for the feedback rate limit.
    /// - Returns: what became of the choice, or `nil` when no prompt is showing.
    @discardableResult
    public func answer(_ choice: UndoChoice, at time: Double) -> UndoPromptOutcome? {
        guard let prompt = pendingPrompt else { return nil }
        pendingPrompt = nil
        let outcome = apply(choice, to: prompt)
        promptedStack = nil
        onOutcome?(prompt, choice, outcome)
        // Prepared when the prompt appeared (or at `began`); prepared again should the host have
        // delivered other feedback through the same center meanwhile, or should the answer come
        // so long after (a prompt left on screen) that the preparation is stale: feedback is
        // prepared shortly before it is given.
        if let feedback, outcome != .cancelled { keepPrepared(feedback, at: time) }
        switch outcome {
        case .undone, .redone:
            feedback?.deliver(.notificationSuccess, at: time, initiatedByUser: true)
        case .unavailable, .contextChanged, .stepsChanged:
            feedback?.deliver(.notificationError, at: time, initiatedByUser: true)
        case .cancelled:
            break
        }
        return outcome
    }

    private func apply(_ choice: UndoChoice, to prompt: UndoPrompt) -> UndoPromptOutcome {
        if choice == .cancel { return .cancelled }
        guard contexts.activeContextID == prompt.contextID, let stack = contexts.activeStack,
              stack === promptedStack else {
            return .contextChanged
        }
        guard stack.changeCount == promptedChangeCount else { return .stepsChanged }
        guard prompt.title(for: choice) != nil else { return .unavailable(choice) }
        if choice == .undo {
            let name = stack.undoActionName
            return stack.undo() ? .undone(name) : .unavailable(.undo)
        } else {
            let name = stack.redoActionName
            return stack.redo() ? .redone(name) : .unavailable(.redo)
        }
    }
}
