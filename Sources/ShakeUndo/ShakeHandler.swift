import ShakeDetection

/// Answers shake events delivered by a `ShakeDispatcher` to the gesture's owner.
public protocol ShakeHandler: AnyObject {
    /// Called for every event while this handler's owner holds the gesture, on the dispatcher's
    /// isolation domain.
    func handleShake(_ event: ShakeEvent)
}

/// A `ShakeHandler` made from a closure.
public final class ClosureShakeHandler: ShakeHandler {
    private let body: (ShakeEvent) -> Void

    public init(_ body: @escaping (ShakeEvent) -> Void) { self.body = body }

    public func handleShake(_ event: ShakeEvent) { body(event) }
}
