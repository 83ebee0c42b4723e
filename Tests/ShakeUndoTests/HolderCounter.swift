import Synchronization

/// Counts how many parties hold the shake gesture at once (`enter` on a claim won, `leave` on
/// its release) and how many claims were won, for the registry's concurrency tests.
final class HolderCounter: Sendable {
    private let holders = Atomic<Int>(0)
    private let most = Atomic<Int>(0)
    let wins = Atomic<Int>(0)

    func enter() {
        let now = holders.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
        most.max(now, ordering: .sequentiallyConsistent)
        wins.wrappingAdd(1, ordering: .relaxed)
    }

    func leave() { holders.wrappingSubtract(1, ordering: .sequentiallyConsistent) }

    /// The most holders seen at the same time.
    var mostAtOnce: Int { most.load(ordering: .sequentiallyConsistent) }
}
