import ShakeDetection

/// Answers shake events delivered by a `ShakeDispatcher` to the gesture's owner.
public protocol ShakeHandler: AnyObject {
    /// Called on the dispatcher's isolation domain for each event of the shakes this handler saw
    /// begin while its owner held the gesture: the `began`, and then the `ended`, or a
    /// `cancelled` (`.interrupted`) if the gesture changed hands or handlers meanwhile. A handler
    /// installed during a shake hears nothing of that shake; an `ended` or `cancelled` with no
    /// `began` dispatched before it (a dispatcher attached mid-shake) comes to the handler
    /// installed then.
    func handleShake(_ event: ShakeEvent)
}

/// A `ShakeHandler` made from a closure.
public final class ClosureShakeHandler: ShakeHandler {
    private let body: (ShakeEvent) -> Void

    public init(_ body: @escaping (ShakeEvent) -> Void) { self.body = body }

    public func handleShake(_ event: ShakeEvent) { body(event) }
}

/// A `ShakeHandler` that passes events on to `target` without keeping it alive: for a handler
/// that stores its own `GestureOwnership`, such as a screen that answers shakes itself.
///
/// A `ShakeDispatcher` keeps its handler alive while the handler's token owns the gesture; a
/// handler holding its own token would so keep itself, and the gesture, after the app let go of
/// it. Installed through this wrapper, the screen goes when the app lets go of it, its token
/// with it, and the gesture is free for the next owner:
///
/// ```swift
/// final class MapScreen: ShakeHandler {
///     var ownership: GestureOwnership?
///     init(dispatcher: ShakeDispatcher) throws {
///         ownership = try dispatcher.claim(owner: "map", handler: WeakShakeHandler(self))
///     }
///     func handleShake(_ event: ShakeEvent) { /* ... */ }
/// }
/// ```
///
/// Events that come after `target` is gone (before the dispatcher sees the token released) go
/// nowhere, though the dispatcher counts them as delivered (it delivered them to this handler).
public final class WeakShakeHandler: ShakeHandler {
    /// The handler events are passed on to; nil once it is gone.
    public private(set) weak var target: (any ShakeHandler)?

    public init(_ target: any ShakeHandler) { self.target = target }

    public func handleShake(_ event: ShakeEvent) { target?.handleShake(event) }
}
