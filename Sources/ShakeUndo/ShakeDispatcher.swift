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
/// Non-`Sendable`: use it from one isolation domain (the one that feeds the detector and owns the
/// undo stacks). The `GestureRegistry` itself may be shared with any thread.
public final class ShakeDispatcher {
    /// The registry that decides who owns the gesture.
    public let registry: GestureRegistry
    private var route: (generation: UInt64, handler: any ShakeHandler)?

    /// Events given to the owner's handler.
    public private(set) var deliveredCount = 0
    /// Events that reached no handler (no owner, or an owner without a handler).
    public private(set) var unhandledCount = 0

    /// - Parameter registry: the gesture registry; a new one by default.
    public init(registry: GestureRegistry = GestureRegistry()) {
        self.registry = registry
    }

    /// Installs `handler` for the owner holding `ownership`, replacing any handler installed
    /// before.
    /// - Returns: false (nothing installed) when `ownership` does not currently own this
    ///   dispatcher's registry.
    @discardableResult
    public func setHandler(_ handler: any ShakeHandler, for ownership: borrowing GestureOwnership) -> Bool {
        guard registry.isCurrent(ownership) else { return false }
        route = (ownership.generation, handler)
        return true
    }

    /// Claims the gesture for `owner` and installs `handler`.
    /// - Returns: the ownership token; keep it (dropping it releases the gesture).
    /// - Throws: `GestureRegistryError.alreadyOwned(by:)` naming the current owner.
    public func claim(owner: String, handler: any ShakeHandler) throws(GestureRegistryError) -> GestureOwnership {
        let ownership = try registry.claim(owner: owner)
        setHandler(handler, for: ownership)
        return ownership
    }

    /// Gives `event` to the current owner's handler.
    /// - Returns: true when a handler received it; false when it was counted as unhandled.
    @discardableResult
    public func dispatch(_ event: ShakeEvent) -> Bool {
        let current = registry.currentGeneration
        guard let route, route.generation == current else {
            // A handler whose ownership ended never owns again (generations are not reused).
            self.route = nil
            unhandledCount += 1
            return false
        }
        deliveredCount += 1
        route.handler.handleShake(event)
        return true
    }
}
