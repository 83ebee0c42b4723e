extension UndoStack {
    /// One side's steps, oldest first, that drops its oldest in O(1) amortised: `levelsOfUndo`
    /// drops one step per registration once a side is full, which an array's `removeFirst` made
    /// O(levelsOfUndo) (3.7 s per million registrations at 10,000 levels).
    struct Steps {
        /// The steps from `head` on; the slots before it were dropped (and emptied, so their
        /// actions and what they capture are released at once).
        private var storage: [Step] = []
        private var head = 0

        var count: Int { storage.count - head }
        var isEmpty: Bool { count == 0 }
        var last: Step? { isEmpty ? nil : storage[storage.count - 1] }

        mutating func append(_ step: Step) { storage.append(step) }

        mutating func removeLast() -> Step {
            precondition(!isEmpty, "removeLast() on no steps")
            let step = storage.removeLast()
            if isEmpty { removeAll() }
            return step
        }

        mutating func removeAll() {
            storage.removeAll()
            head = 0
        }

        /// Names the newest step; does nothing when there is none.
        mutating func nameLast(_ name: ActionName?) {
            guard !isEmpty else { return }
            storage[storage.count - 1].name = name
        }

        /// Drops the `n` oldest steps.
        mutating func removeFirst(_ n: Int) {
            precondition(n >= 0 && n <= count, "removeFirst(\(n)) on \(count) steps")
            for index in head..<(head + n) { storage[index] = Step() }
            head += n
            // Compact once the dropped slots are half the storage: each step is moved at most
            // once per halving, so dropping stays O(1) amortised.
            if head > 64 && head * 2 > storage.count {
                storage.removeFirst(head)
                head = 0
            }
        }
    }
}
