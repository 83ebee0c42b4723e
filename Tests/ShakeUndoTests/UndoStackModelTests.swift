import Testing
import ShakeUndo

/// The undo stacks of an `UndoContextRegistry` against a deliberately plain reference model, on
/// long random sequences of edits, groups, names, undo, redo, context switches, level changes and
/// clears. Every step compares everything a user can observe, in every context.
@Suite struct UndoStackModelTests {
    static let contextIDs: [UndoContextID] = ["letter", "invoice", "notes"]
    static let names = ["Delete Name", "Address Change", "Type Text", "Move the Picture"]
    static let slotCount = 4

    // MARK: Reference model

    struct Edit { var slot: Int; var old: Int; var new: Int }
    struct Step { var edits: [Edit] = []; var name: String? }

    /// One context: a document of `slotCount` integers and its history, as plain arrays.
    struct ModelContext {
        var values = [Int](repeating: 0, count: slotCount)
        var undo: [Step] = []
        var redo: [Step] = []
        var open = Step()
        var depth = 0
        var levels = 0

        var canUndo: Bool { depth == 0 && !undo.isEmpty }
        var canRedo: Bool { depth == 0 && !redo.isEmpty }

        mutating func edit(slot: Int, to value: Int) {
            let edit = Edit(slot: slot, old: values[slot], new: value)
            values[slot] = value
            redo = []
            if depth > 0 {
                open.edits.append(edit)
            } else {
                undo.append(Step(edits: [edit], name: nil))
                trim()
            }
        }

        mutating func begin() {
            if depth == 0 { open = Step() }
            depth += 1
        }

        /// False when no group is open.
        mutating func end() -> Bool {
            guard depth > 0 else { return false }
            depth -= 1
            if depth == 0 && !open.edits.isEmpty {
                undo.append(open)
                trim()
            }
            return true
        }

        mutating func name(_ name: String?) {
            if depth > 0 {
                open.name = name
            } else if !undo.isEmpty {
                undo[undo.count - 1].name = name
            }
        }

        mutating func undoStep() -> Bool {
            guard canUndo else { return false }
            let step = undo.removeLast()
            for edit in step.edits.reversed() { values[edit.slot] = edit.old }
            redo.append(step)
            trim()
            return true
        }

        mutating func redoStep() -> Bool {
            guard canRedo else { return false }
            let step = redo.removeLast()
            for edit in step.edits { values[edit.slot] = edit.new }
            undo.append(step)
            trim()
            return true
        }

        mutating func setLevels(_ levels: Int) {
            self.levels = levels
            trim()
        }

        mutating func clear() {
            undo = []
            redo = []
            open = Step()
            depth = 0
        }

        mutating func trim() {
            guard levels > 0 else { return }
            while undo.count > levels { undo.removeFirst() }
            while redo.count > levels { redo.removeFirst() }
        }
    }

    // MARK: Real side

    /// A document whose edits register their inverse, as an app's would.
    final class Document {
        var values = [Int](repeating: 0, count: slotCount)

        func set(_ slot: Int, to value: Int, on stack: UndoStack) {
            let old = values[slot]
            values[slot] = value
            stack.registerUndo { [unowned self] stack in self.set(slot, to: old, on: stack) }
        }
    }

    enum Operation: CaseIterable {
        case edit, begin, end, name, unname, undo, redo, switchContext, setLevels, clear

        /// Weights out of 100.
        var weight: Int {
            switch self {
            case .edit: 34
            case .begin: 8
            case .end: 10
            case .name: 8
            case .unname: 2
            case .undo: 17
            case .redo: 12
            case .switchContext: 5
            case .setLevels: 3
            case .clear: 1
            }
        }

        static func random(using rng: inout SplitMix64) -> Operation {
            var pick = Int.random(in: 0..<100, using: &rng)
            for operation in allCases {
                if pick < operation.weight { return operation }
                pick -= operation.weight
            }
            return .edit
        }
    }

    @Test(arguments: [UInt64](1...10))
    func stackMatchesReferenceModelAfterEveryStep(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let registry = UndoContextRegistry()
        var documents: [UndoContextID: Document] = [:]
        var models: [UndoContextID: ModelContext] = [:]
        for id in Self.contextIDs {
            _ = registry.stack(for: id)
            documents[id] = Document()
            models[id] = ModelContext()
        }
        var active = Self.contextIDs[0]
        registry.activate(active)
        var operationCounts: [Operation: Int] = [:]

        for step in 0..<2500 {
            let operation = Operation.random(using: &rng)
            operationCounts[operation, default: 0] += 1
            let stack = try #require(registry.activeStack)
            let document = documents[active]!
            switch operation {
            case .edit:
                let slot = Int.random(in: 0..<Self.slotCount, using: &rng)
                let value = Int.random(in: 1...99, using: &rng)
                document.set(slot, to: value, on: stack)
                models[active]!.edit(slot: slot, to: value)
            case .begin:
                stack.beginUndoGrouping()
                models[active]!.begin()
            case .end:
                let modelClosed = models[active]!.end()
                do {
                    try stack.endUndoGrouping()
                    #expect(modelClosed, "step \(step): end succeeded with no open group")
                } catch {
                    #expect(error == .noOpenGroup)
                    #expect(!modelClosed, "step \(step): end failed with an open group")
                }
            case .name:
                let name = Self.names.randomElement(using: &rng)!
                try stack.setActionName(name)
                models[active]!.name(name)
            case .unname:
                stack.setActionName(nil)
                models[active]!.name(nil)
            case .undo:
                #expect(stack.undo() == models[active]!.undoStep(), "step \(step): undo")
            case .redo:
                #expect(stack.redo() == models[active]!.redoStep(), "step \(step): redo")
            case .switchContext:
                active = Self.contextIDs.randomElement(using: &rng)!
                registry.activate(active)
            case .setLevels:
                let levels = Int.random(in: 0...6, using: &rng)
                stack.levelsOfUndo = levels
                models[active]!.setLevels(levels)
            case .clear:
                stack.removeAllActions()
                models[active]!.clear()
            }
            #expect(registry.activeContextID == active)
            for id in Self.contextIDs {
                try compare(registry.stack(for: id), documents[id]!, models[id]!, "step \(step) \(operation) in \(id)")
            }
        }
        // The sequence really exercised every operation.
        for operation in Operation.allCases {
            #expect(operationCounts[operation, default: 0] > 0, "\(operation) never ran")
        }
    }

    private func compare(
        _ stack: UndoStack, _ document: Document, _ model: ModelContext, _ where: String
    ) throws {
        #expect(document.values == model.values, "\(`where`): document")
        #expect(stack.canUndo == model.canUndo, "\(`where`): canUndo")
        #expect(stack.canRedo == model.canRedo, "\(`where`): canRedo")
        #expect(stack.undoCount == model.undo.count, "\(`where`): undoCount")
        #expect(stack.redoCount == model.redo.count, "\(`where`): redoCount")
        #expect(stack.groupingLevel == model.depth, "\(`where`): groupingLevel")
        #expect(stack.undoActionName?.text == model.undo.last?.name, "\(`where`): undo name")
        #expect(stack.redoActionName?.text == model.redo.last?.name, "\(`where`): redo name")
        let undoTitle = model.canUndo ? "Undo" + (model.undo.last!.name.map { " " + $0 } ?? "") : nil
        let redoTitle = model.canRedo ? "Redo" + (model.redo.last!.name.map { " " + $0 } ?? "") : nil
        #expect(stack.undoMenuItemTitle == undoTitle, "\(`where`): undo title")
        #expect(stack.redoMenuItemTitle == redoTitle, "\(`where`): redo title")
        #expect(stack.levelsOfUndo == model.levels, "\(`where`): levels")
        #expect(!stack.isUndoing && !stack.isRedoing)
    }
}
