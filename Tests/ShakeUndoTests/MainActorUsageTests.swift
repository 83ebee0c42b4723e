import ShakeDetection
import ShakeUndo
import Testing

// An app whose screens live on the main actor. A plain `: ShakeHandler` conformance of a
// `@MainActor` class does not compile under Swift 6 ("crosses into main actor-isolated code");
// an isolated conformance, `: @MainActor ShakeHandler`, does, as the module's documentation
// (Isolation) shows. These types are that documentation's example, compiled.

@MainActor final class MapScreen: @MainActor ShakeHandler {
    var phases: [ShakeEvent.Phase] = []
    func handleShake(_ event: ShakeEvent) { phases.append(event.phase) }
}

/// A main-actor screen that keeps its own token, installed through `WeakShakeHandler`.
@MainActor final class RouteScreen: @MainActor ShakeHandler {
    var ownership: GestureOwnership?
    var onEvent: (ShakeEvent.Phase) -> Void = { _ in }
    init(dispatcher: ShakeDispatcher) throws {
        ownership = try dispatcher.claim(owner: "route", handler: WeakShakeHandler(self))
    }
    func handleShake(_ event: ShakeEvent) { onEvent(event.phase) }
}

@MainActor final class AlertPresenter: @MainActor UndoPromptPresenter {
    var shown: [String] = []
    func present(_ prompt: UndoPrompt) -> UndoChoice? {
        shown.append(prompt.description)
        return .undo
    }
}

@MainActor final class ScreenFeedback: @MainActor FeedbackSink {
    let modes: Set<FeedbackMode> = [.visual]
    var given: [FeedbackType] = []
    func prepare() {}
    func deliver(_ type: FeedbackType) { given.append(type) }
}

@MainActor @Suite struct MainActorUsageTests {
    @Test func mainActorScreensAnswerShakesThroughIsolatedConformances() async throws {
        let contexts = UndoContextRegistry()
        let undo = contexts.activate("notes")
        var text = "draft"
        text = ""
        undo.registerUndo { _ in text = "draft" }
        try undo.setActionName("clear note")
        let presenter = AlertPresenter()
        let screenFeedback = ScreenFeedback()
        let shakeToUndo = ShakeToUndo(contexts: contexts, presenter: presenter,
                                      feedback: try FeedbackCenter(sinks: [screenFeedback]))
        let dispatcher = ShakeDispatcher()
        var ownership: GestureOwnership? = try dispatcher.claim(owner: "notes", handler: shakeToUndo)

        // The sensor's events arrive from another task, as from a reading thread.
        let (events, continuation) = AsyncStream.makeStream(of: ShakeEvent.self)
        Task.detached {
            for time in [2.0, 12.0] {
                continuation.yield(shakeEvent(.began, at: time - 0.5))
                continuation.yield(shakeEvent(.ended, at: time))
            }
            continuation.finish()
        }
        let map = MapScreen()
        var handled = 0
        for await event in events {
            dispatcher.dispatch(event)
            handled += 1
            if handled == 2, let token = ownership.take() {
                // The map screen takes the gesture over for the second shake.
                let next = try dispatcher.registry.transfer(token, to: "map")
                dispatcher.setHandler(map, for: next)
                ownership = consume next
            }
        }
        if let token = ownership.take() { dispatcher.release(token) }
        #expect(text == "draft")
        #expect(presenter.shown == ["Undo Clear Note | Cancel"])
        #expect(screenFeedback.given == [.impactMedium, .notificationSuccess])
        #expect(map.phases == [.began, .ended])
        #expect(dispatcher.registry.currentOwner == nil)
    }

    @Test func aMainActorScreenKeepingItsOwnTokenFreesTheGestureWhenClosed() throws {
        let dispatcher = ShakeDispatcher()
        var phases: [ShakeEvent.Phase] = []
        var screen: RouteScreen? = try RouteScreen(dispatcher: dispatcher)
        screen!.onEvent = { phases.append($0) }
        dispatcher.dispatch(shakeEvent(.began, at: 1))
        dispatcher.dispatch(shakeEvent(.ended, at: 2))
        #expect(phases == [.began, .ended])
        screen = nil
        #expect(dispatcher.registry.currentOwner == nil)
        #expect(dispatcher.dispatch(shakeEvent(.ended, at: 3)) == false)
        #expect(phases == [.began, .ended])
    }
}
