import ShakeDetection
import ShakeUndo
import Synchronization
import Testing

/// A list whose edits register their own undo, as an app's document would.
final class ItemList {
    private(set) var items: [Int] = []
    let stack: UndoStack
    init(stack: UndoStack) { self.stack = stack }

    func set(_ new: [Int]) {
        let old = items
        items = new
        stack.registerUndo { [unowned self] _ in self.set(old) }
    }
}

/// The undo machinery under many concurrent tasks (issue 7): the registry shared by every task,
/// the dispatcher, shake-to-undo and the undo stacks owned by one actor, as an app would have
/// them. Invariants: one owner at a time, every event delivered once or counted unhandled, no lost
/// or doubled undo, never a prompt over a prompt.
@Suite struct ConcurrencyTests {
    /// An app's editing session: one document in one undo context, shake to undo, and a prompt
    /// that stays up until some task answers it.
    actor EditorSession {
        let contexts = UndoContextRegistry()
        let dispatcher = ShakeDispatcher()
        let shakeToUndo: ShakeToUndo
        var ownership: GestureOwnership?
        let stack: UndoStack
        private let document: ItemList
        var items: [Int] { document.items }
        private(set) var clock = 0.0
        private(set) var undone = 0, redone = 0, cancelled = 0, refused = 0
        private(set) var answered = 0
        /// Items taken off by undo, most recent last; what a redo must bring back. A new edit
        /// clears it, as it clears the stack's redo side.
        private var undoneItems: [Int] = []
        /// Answers whose effect on the document was not what their outcome says (one line each).
        private(set) var misapplied: [String] = []

        init() throws {
            stack = contexts.activate("doc")
            document = ItemList(stack: stack)
            let flags = PromptFlags()
            shakeToUndo = ShakeToUndo(contexts: contexts, presenter: ClosurePromptPresenter { _ in
                flags.state.withLock { f in
                    if f.showing { f.stacked = true }
                    f.showing = true
                    f.count += 1
                }
                return nil  // answered later, by whichever task gets there
            })
            self.promptFlags = flags
            ownership = try dispatcher.claim(owner: "editor", handler: shakeToUndo)
        }
        private let promptFlags: PromptFlags

        /// An edit that registers its own undo: appends `item`.
        func edit(_ item: Int) throws {
            document.set(document.items + [item])
            try stack.setActionName("add item")
            undoneItems.removeAll()
        }

        /// A whole shake: began, then ended 0.6 s later.
        func shake() {
            clock += 1
            dispatcher.dispatch(shakeEvent(.began, at: clock))
            clock += 0.6
            dispatcher.dispatch(shakeEvent(.ended, at: clock))
        }

        /// Answers the prompt on screen, if any, with one of the choices it offers (`pick` chooses).
        func answer(pick: UInt64) {
            clock += 0.1
            guard let choices = shakeToUndo.pendingPrompt?.choices else { return }
            let choice = choices[Int(pick % UInt64(choices.count))]
            let before = document.items
            guard let outcome = shakeToUndo.answer(choice, at: clock) else { return }
            let after = document.items
            promptFlags.state.withLock { $0.showing = false }
            answered += 1
            // What the document must look like after each outcome (nil: the outcome was impossible).
            var expected: [Int]?
            switch outcome {
            case .undone:
                undone += 1
                if let last = before.last {
                    undoneItems.append(last)
                    expected = Array(before.dropLast())
                }
            case .redone:
                redone += 1
                expected = undoneItems.popLast().map { before + [$0] }
            case .cancelled:
                cancelled += 1
                expected = before
            case .unavailable, .contextChanged, .stepsChanged:
                refused += 1
                expected = before
            }
            if after != expected {
                misapplied.append("\(choice) → \(outcome): \(before.suffix(3)) became \(after.suffix(3)), wanted \(expected.map { "\($0.suffix(3))" } ?? "no such outcome")")
            }
        }

        var undoDepth: Int { stack.undoCount }

        var report: (presented: Int, stacked: Bool, pending: Bool) {
            let flags = promptFlags.state.withLock { $0 }
            return (flags.count, flags.stacked, shakeToUndo.pendingPrompt != nil)
        }
    }

    /// What the presenter saw: whether a prompt is showing, whether one ever appeared over
    /// another, and how many appeared.
    final class PromptFlags: Sendable {
        let state = Mutex((showing: false, stacked: false, count: 0))
    }

    @Test(arguments: [UInt64](1...4))
    func editsShakesAndAnswersFromManyTasksLoseNothing(seed: UInt64) async throws {
        let session = try EditorSession()
        // Every task returns the items it added, in the order it added them.
        let added = try await withThrowingTaskGroup(of: [Int].self) { group in
            for task in 0..<64 {
                group.addTask {
                    var random = SplitMix64(seed: seed &* 1000 &+ UInt64(task))
                    var added: [Int] = []
                    for step in 0..<60 {
                        switch random.next() % 8 {
                        case 0, 1, 2:
                            try await session.edit(task * 1000 + step)
                            added.append(task * 1000 + step)
                        case 3, 4:
                            await session.shake()
                        case 5, 6:
                            await session.answer(pick: random.next())
                        default:
                            await Task.yield()
                        }
                    }
                    return added
                }
            }
            return try await group.reduce(into: [[Int]]()) { $0.append($1) }
        }
        let edits = added.reduce(0) { $0 + $1.count }
        let report = await session.report
        let items = await session.items
        let stackDepth = await session.undoDepth
        let (undone, redone, answered, misapplied) = await (
            session.undone, session.redone, session.answered, session.misapplied)
        #expect(!report.stacked, "a prompt appeared over another")
        #expect(report.presented == answered + (report.pending ? 1 : 0), "every prompt but the one showing was answered once")
        #expect(report.presented > 0 && undone > 0, "the schedule exercised prompts and undo")
        // Each answer did to the document what its outcome says: undo took off the last item,
        // redo put back the last one undone, and a cancel or a refused choice (one that became
        // impossible before it was answered, as redo after a new edit) left it unchanged.
        #expect(misapplied.isEmpty, "\(misapplied.count) answers misapplied, first: \(misapplied.prefix(3))")
        // No lost or doubled undo: the document holds exactly the edits not undone (or redone),
        // each one added by some task, once, and each task's items in the order it added them.
        #expect(items.count == edits - undone + redone, "\(edits) edits, \(undone) undone, \(redone) redone")
        #expect(Set(items).count == items.count, "no item twice")
        #expect(Set(items).isSubset(of: added.joined()), "every item left was added by a task")
        for taskItems in added {
            let kept = items.filter(Set(taskItems).contains)
            #expect(kept == taskItems.filter(Set(kept).contains), "a task's items keep their order")
        }
        #expect(stackDepth == items.count, "one undo step per item left")
    }

    /// Registers who holds the gesture; counts overlaps and deliveries.
    final class Ledger: Sendable {
        let holders = HolderCounter()
        /// Event number → how many handlers received it.
        private let received = Mutex<[Int: Int]>([:])
        /// Deliveries to a handler whose owner was not the current owner (other than the
        /// `cancelled` that tells a former owner the shake it saw begin ended without it), or
        /// such a `cancelled` to a handler that had not received that shake's `began`.
        let misrouted = Atomic<Int>(0)
        /// `cancelled` events (the dispatch sends only began and ended: each is an ended turned
        /// into a cancellation for the former owner that received the shake's began).
        let interrupted = Atomic<Int>(0)

        func receive(_ number: Int) { received.withLock { $0[number, default: 0] += 1 } }
        var receipts: [Int: Int] { received.withLock { $0 } }
    }

    /// The dispatcher's side: routes events and installs handlers for new owners. Releases and
    /// transfers go through it too, so an owner's last event and its release are ordered.
    actor Router {
        let dispatcher: ShakeDispatcher
        private(set) var dispatched = 0
        init(registry: GestureRegistry) { dispatcher = ShakeDispatcher(registry: registry) }

        func install(_ handler: any ShakeHandler & Sendable, for ownership: borrowing GestureOwnership) -> Bool {
            dispatcher.setHandler(handler, for: ownership)
        }
        func release(_ ownership: consuming GestureOwnership) -> Bool { dispatcher.registry.release(ownership) }
        func transfer(_ ownership: consuming GestureOwnership, to owner: String) throws(GestureRegistryError) -> GestureOwnership {
            try dispatcher.registry.transfer(ownership, to: owner)
        }
        func dispatch(_ number: Int) {
            dispatched += 1
            dispatcher.dispatch(shakeEvent(number % 2 == 0 ? .began : .ended, at: Double(number)))
        }
        var counts: (delivered: Int, unhandled: Int) { (dispatcher.deliveredCount, dispatcher.unhandledCount) }
    }

    /// A handler that checks, on every event, that its owner is the gesture's current owner.
    final class CheckingHandler: ShakeHandler, Sendable {
        let owner: String
        let registry: GestureRegistry
        let ledger: Ledger
        init(owner: String, registry: GestureRegistry, ledger: Ledger) {
            self.owner = owner
            self.registry = registry
            self.ledger = ledger
        }
        /// The number of the last `began` received.
        private let lastBegan = Mutex<Int?>(nil)
        func handleShake(_ event: ShakeEvent) {
            let number = Int(event.time)
            switch event.phase {
            case .cancelled:
                ledger.interrupted.wrappingAdd(1, ordering: .relaxed)
                if lastBegan.withLock({ $0 }) != number - 1 || event.cancellationReason != .interrupted {
                    ledger.misrouted.wrappingAdd(1, ordering: .relaxed)
                }
            case .began, .ended:
                if event.phase == .began { lastBegan.withLock { $0 = number } }
                if registry.currentOwner != owner { ledger.misrouted.wrappingAdd(1, ordering: .relaxed) }
            }
            ledger.receive(number)
        }
    }

    @Test func ownershipChurnWhileShakesArriveDeliversEachEventOnceToTheOwner() async {
        let registry = GestureRegistry()
        let router = Router(registry: registry)
        let ledger = Ledger()
        let events = 4000
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for number in 0..<events {
                    await router.dispatch(number)
                    if number % 16 == 0 { await Task.yield() }
                }
            }
            for claimer in 0..<48 {
                group.addTask {
                    for attempt in 0..<12 {
                        let name = "owner-\(claimer)-\(attempt)"
                        do throws(GestureRegistryError) {
                            let token = try registry.claim(owner: name)
                            ledger.holders.enter()
                            let installed = await router.install(
                                CheckingHandler(owner: name, registry: registry, ledger: ledger), for: token)
                            #expect(installed)
                            await Task.yield()
                            if attempt % 3 == 0 {
                                // Hand over to a successor, who installs a handler and then releases.
                                let heir = "\(name)-heir"
                                let next = try await router.transfer(token, to: heir)
                                #expect(await router.install(
                                    CheckingHandler(owner: heir, registry: registry, ledger: ledger), for: next))
                                await Task.yield()
                                ledger.holders.leave()
                                #expect(await router.release(next))
                            } else {
                                ledger.holders.leave()
                                #expect(await router.release(token))
                            }
                        } catch {
                            #expect(error.description.contains("already owned by 'owner-"), "\(error)")
                            await Task.yield()
                        }
                    }
                }
            }
        }
        let (delivered, unhandled) = await router.counts
        let receipts = ledger.receipts
        #expect(await router.dispatched == events)
        #expect(delivered + unhandled == events, "every event delivered or counted unhandled")
        let interrupted = ledger.interrupted.load(ordering: .relaxed)
        #expect(receipts.values.reduce(0, +) == delivered + interrupted,
                "each delivery reached one handler, and each end of a shake whose owner changed its former owner")
        #expect(receipts.values.allSatisfy { $0 == 1 }, "no event delivered twice")
        #expect(ledger.misrouted.load(ordering: .relaxed) == 0, "a handler got an event while not the owner")
        #expect(ledger.holders.mostAtOnce == 1, "two owners at once")
        #expect(ledger.holders.wins.load(ordering: .relaxed) > 1)
        #expect(registry.currentOwner == nil)
    }
}
