import ShakeDetection

/// Routes shake events from a detector to the current owner of the shake gesture, and to no one
/// else.
///
/// The owner claims the gesture in the `registry` and installs its handler with its ownership
/// token (`setHandler(_:for:)`), or does both with `claim(owner:handler:)`. `dispatch(_:)` then
/// gives each event to that handler while its token still owns the gesture. When nobody owns it,
/// or the owner has not installed a handler, or the handler's ownership was released, reset or
/// transferred, the event goes nowhere and is counted in `unhandledCount`.
///
/// One shake, one owner: the `ended` or `cancelled` of a shake goes only to the handler that
/// received its `began`. When the gesture changes hands during a shake (or its owner installs
/// another handler), the handler that saw it begin receives a `cancelled` event instead (reason
/// `.interrupted`, the ending event's times), so it can drop what it prepared; the new owner (or
/// handler) hears nothing of that shake (the event counts as unhandled) and answers the next one. An `ended` or `cancelled` with no `began` dispatched
/// before it (a dispatcher attached to a detector mid-shake) goes to the current owner. A
/// `began` while a shake is still under way (its detector was reset or replaced mid-shake, which
/// drops the shake without an event) first ends that shake for the handler that saw it begin:
/// it receives a `cancelled` (reason `.interrupted`, the `began` it saw with the new event's
/// `time`), so every handler hears each `began` it receives end once.
///
/// The dispatcher keeps a strong reference to the installed handler until an event shows that
/// its ownership ended, or until the owner gives the gesture up through `release(_:)`, which
/// lets go of the handler at once, unless a shake it saw begin is under way: that handler is
/// kept until the shake's next event (its `cancelled`) or the next shake's `began` (which ends
/// the shake for it with a `cancelled` first), and with it
/// what it holds (a stream stopped mid-shake keeps it until events come again). So a handler that stores its own token (a screen that answers
/// shakes itself, `var ownership: GestureOwnership?`) would be kept alive by the dispatcher, and
/// keep the gesture, after the app let go of it: install it as `WeakShakeHandler(self)`, which
/// does not keep it alive (dropped, its token releases the gesture), or give the gesture up with
/// `release(_:)` when it goes away.
///
/// Non-`Sendable`: use it from one isolation domain (the one that feeds the detector and owns the
/// undo stacks). The `GestureRegistry` itself may be shared with any thread.
public final class ShakeDispatcher {
    /// The registry that decides who owns the gesture.
    public let registry: GestureRegistry
    private var route: (generation: UInt64, handler: any ShakeHandler)?
    /// The route that received the shake in progress's `began`; nil when none did.
    private var shakeRecipient: (generation: UInt64, handler: any ShakeHandler)?
    /// The `began` of the shake in progress (between a dispatched `began` and the next `ended` or
    /// `cancelled`), nil when none is: for the `cancelled` its recipient gets when a new shake
    /// begins first.
    private var shakeBegan: ShakeEvent?

    /// Events given to the owner's handler.
    public private(set) var deliveredCount = 0
    /// Events that reached no handler (no owner, or an owner without a handler).
    public private(set) var unhandledCount = 0

    /// - Parameter registry: the gesture registry; a new one by default.
    public init(registry: GestureRegistry = GestureRegistry()) {
        self.registry = registry
    }

    /// Installs `handler` for the owner holding `ownership`, replacing any handler installed
    /// before (which, during a shake it saw begin, receives that shake's end as `cancelled`).
    /// - Returns: false (nothing installed) when `ownership` does not currently own this
    ///   dispatcher's registry.
    @discardableResult
    public func setHandler(_ handler: any ShakeHandler, for ownership: borrowing GestureOwnership) -> Bool {
        guard registry.isCurrent(ownership) else { return false }
        route = (ownership.generation, handler)
        return true
    }

    /// Claims the gesture for `owner` and installs `handler`.
    /// - Returns: the ownership token; keep it (dropping it releases the gesture, so
    ///   `_ = try claim(...)` releases it at once: store the token, for example in a
    ///   `GestureOwnership?` property).
    /// - Throws: `GestureRegistryError.alreadyOwned(by:)` naming the current owner.
    public func claim(owner: String, handler: any ShakeHandler) throws(GestureRegistryError) -> GestureOwnership {
        let ownership = try registry.claim(owner: owner)
        setHandler(handler, for: ownership)
        return ownership
    }

    /// Gives the gesture up (as `registry.release(_:)` does) and, when `ownership`'s handler is
    /// the one installed, lets go of it now rather than at the next event, unless it saw a shake
    /// begin that has not ended: that shake still ends for it with a `cancelled` event at the
    /// shake's next event (see the type's documentation), and it is kept until then.
    /// - Returns: true when the token was the current owner of this dispatcher's registry; false
    ///   for a stale token or one of another registry. The token is consumed either way, so one
    ///   of another registry that still owns its gesture gives that registry's gesture up, as
    ///   dropping it anywhere would.
    @discardableResult
    public func release(_ ownership: consuming GestureOwnership) -> Bool {
        if let route, route.generation == ownership.generation, ownership.registry === registry {
            self.route = nil
        }
        return registry.release(ownership)
    }

    /// Gives `event` to the current owner's handler (for the end of a shake, only if that handler
    /// received its `began`; see the type's documentation).
    /// - Returns: true when the current owner's handler received it; false when it was counted
    ///   as unhandled (including an end of a shake passed to a former owner as `cancelled`).
    @discardableResult
    public func dispatch(_ event: ShakeEvent) -> Bool {
        if let route, route.generation != registry.currentGeneration {
            // A handler whose ownership ended never owns again (generations are not reused).
            self.route = nil
        }
        switch event.phase {
        case .began:
            if let recipient = shakeRecipient, var cancelled = shakeBegan {
                cancelled.phase = .cancelled
                cancelled.cancellationReason = .interrupted
                cancelled.time = event.time
                recipient.handler.handleShake(cancelled)
            }
            shakeRecipient = route
            shakeBegan = event
            return deliver(event)
        case .ended, .cancelled:
            guard shakeBegan != nil else { return deliver(event) }
            let recipient = shakeRecipient
            shakeRecipient = nil
            shakeBegan = nil
            guard let recipient else {
                unhandledCount += 1
                return false
            }
            if let route, route.generation == recipient.generation, Self.same(route.handler, recipient.handler) {
                return deliver(event)
            }
            var cancelled = event
            cancelled.phase = .cancelled
            cancelled.cancellationReason = .interrupted
            recipient.handler.handleShake(cancelled)
            unhandledCount += 1
            return false
        }
    }

    /// Whether two installed handlers answer as one: the same object, or `WeakShakeHandler`s of
    /// the same target (a screen installing itself afresh during a shake is no other handler).
    private static func same(_ a: any ShakeHandler, _ b: any ShakeHandler) -> Bool {
        func answering(_ handler: any ShakeHandler) -> AnyObject {
            (handler as? WeakShakeHandler)?.target ?? handler
        }
        return answering(a) === answering(b)
    }

    private func deliver(_ event: ShakeEvent) -> Bool {
        guard let route else {
            unhandledCount += 1
            return false
        }
        deliveredCount += 1
        route.handler.handleShake(event)
        return true
    }
}
