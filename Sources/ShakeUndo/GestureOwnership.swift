/// Proof that its holder owns the shake gesture of a `GestureRegistry`.
///
/// It cannot be copied (`~Copyable`): there is exactly one, and passing it on moves it.
/// It cannot be forged: there is no public initialiser, and it carries a generation number,
/// unique in the process, that the registry checks. Keep it stored for as long as you answer
/// shakes; when it is dropped, the gesture is released (if this token still owns it).
///
/// A token becomes *stale* when the registry is `reset()`; a stale token does nothing.
public struct GestureOwnership: ~Copyable, Sendable {
    let registry: GestureRegistry
    let generation: UInt64
    /// The owner name given to `GestureRegistry.claim(owner:)` or `transfer(_:to:)`.
    public let owner: String

    init(registry: GestureRegistry, generation: UInt64, owner: String) {
        self.registry = registry
        self.generation = generation
        self.owner = owner
    }

    deinit {
        _ = registry.releaseIfCurrent(generation: generation)
    }
}

/// Why the gesture could not be claimed or transferred.
public enum GestureRegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The gesture is owned by `owner`; it must be released first.
    case alreadyOwned(by: String)
    /// The token given for `owner` no longer owns the gesture (the registry was reset, or the
    /// token belongs to another registry).
    case staleOwnership(owner: String)

    public var description: String {
        switch self {
        case .alreadyOwned(let owner):
            "the shake gesture is already owned by '\(owner)'"
        case .staleOwnership(let owner):
            "the ownership token of '\(owner)' is stale: the gesture was reset or belongs to another registry"
        }
    }
}
