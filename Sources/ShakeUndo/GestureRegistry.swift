import Synchronization

/// Generations are unique in the process, so a token can never match another registry's owner
/// or an earlier owner of its own registry.
private let nextGeneration = Atomic<UInt64>(1)

/// Makes sure one part of the software, and only one, answers the shake gesture.
///
/// Several handlers answering one shake confuse users (is it undo, or the other thing?), so the
/// shake gesture has a single owner. `claim(owner:)` hands out a `GestureOwnership` token; while
/// it is held, every other claim fails with an error naming the holder. Only the token can give
/// the gesture up (`release(_:)`) or hand it on (`transfer(_:to:)`); dropping the token releases
/// it too. `reset()` forcibly evicts the owner (for example when the owning screen crashed);
/// tokens handed out before a reset are *stale* and do nothing.
///
/// Thread-safe: all state sits behind one `Mutex`; any number of threads or tasks can claim at
/// once and exactly one wins.
public final class GestureRegistry: Sendable {
    struct Holder: Sendable {
        var owner: String
        var generation: UInt64
    }

    private let holder = Mutex<Holder?>(nil)

    public init() {}

    /// The name of the current owner, or `nil` when the gesture is free.
    public var currentOwner: String? { holder.withLock { $0?.owner } }

    /// Takes the gesture for `owner`.
    ///
    /// - Parameter owner: a name for error messages and logs ("editor", "map-screen").
    /// - Returns: the ownership token. Keep it for as long as you answer shakes: dropping it
    ///   releases the gesture.
    /// - Throws: `GestureRegistryError.alreadyOwned(by:)` naming the current owner.
    public func claim(owner: String) throws(GestureRegistryError) -> GestureOwnership {
        let generation = try holder.withLock { (holder) throws(GestureRegistryError) -> UInt64 in
            if let current = holder { throw .alreadyOwned(by: current.owner) }
            let generation = nextGeneration.wrappingAdd(1, ordering: .relaxed).oldValue
            holder = Holder(owner: owner, generation: generation)
            return generation
        }
        return GestureOwnership(registry: self, generation: generation, owner: owner)
    }

    /// Gives the gesture up.
    ///
    /// - Returns: true when the token was the current owner; false (nothing changes) for a stale
    ///   token or one from another registry. (The token is consumed either way; a token of
    ///   another registry, dropped here, gives up its own registry's gesture.)
    @discardableResult
    public func release(_ ownership: consuming GestureOwnership) -> Bool {
        guard ownership.registry === self else { return false }
        // `ownership` ends with this call; its deinit then finds it stale and does nothing.
        return releaseIfCurrent(generation: ownership.generation)
    }

    /// Hands the gesture from the token's holder to `newOwner` without ever leaving it free, so
    /// no other claimer can slip in between.
    ///
    /// - Returns: the new owner's token. The old token is consumed.
    /// - Throws: `GestureRegistryError.staleOwnership(owner:)` when the token no longer owns the
    ///   gesture, or belongs to another registry (nothing changes here; the consumed token is
    ///   dropped, which gives up its own registry's gesture if it still held it). No other
    ///   error is possible, so a valid token is never lost to a failed transfer.
    public func transfer(
        _ ownership: consuming GestureOwnership, to newOwner: String
    ) throws(GestureRegistryError) -> GestureOwnership {
        let oldOwner = ownership.owner
        guard ownership.registry === self else { throw .staleOwnership(owner: oldOwner) }
        let oldGeneration = ownership.generation
        let generation = try holder.withLock { (holder) throws(GestureRegistryError) -> UInt64 in
            guard let current = holder, current.generation == oldGeneration else {
                throw .staleOwnership(owner: oldOwner)
            }
            let generation = nextGeneration.wrappingAdd(1, ordering: .relaxed).oldValue
            holder = Holder(owner: newOwner, generation: generation)
            return generation
        }
        return GestureOwnership(registry: self, generation: generation, owner: newOwner)
    }

    /// True when `ownership` is the current owner of this registry (not stale, not foreign).
    public func isCurrent(_ ownership: borrowing GestureOwnership) -> Bool {
        guard ownership.registry === self else { return false }
        return currentGeneration == ownership.generation
    }

    /// Forcibly frees the gesture. Every token handed out so far becomes stale.
    /// - Returns: the evicted owner's name, or `nil` when the gesture was free.
    @discardableResult
    public func reset() -> String? {
        holder.withLock { holder in
            defer { holder = nil }
            return holder?.owner
        }
    }

    /// The current owner's generation (used by `ShakeDispatcher` to route events).
    var currentGeneration: UInt64? { holder.withLock { $0?.generation } }

    /// Frees the gesture if `generation` still owns it.
    func releaseIfCurrent(generation: UInt64) -> Bool {
        holder.withLock { holder in
            guard let current = holder, current.generation == generation else { return false }
            holder = nil
            return true
        }
    }
}
