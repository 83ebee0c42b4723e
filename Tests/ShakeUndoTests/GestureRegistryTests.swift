import Synchronization
import Testing
import ShakeUndo

@Suite struct GestureRegistryTests {
    /// Holds the winning token so it stays owned while the other claimers run.
    final class TokenKeeper: Sendable {
        private let slot = Mutex<GestureOwnership?>(nil)

        func keep(_ token: consuming GestureOwnership) {
            var token: GestureOwnership? = consume token
            slot.withLock { $0 = token.take() }
        }
    }

    @Test func exactlyOneOfFiveThousandConcurrentClaimersWins() async {
        let registry = GestureRegistry()
        let keeper = TokenKeeper()
        let results = await withTaskGroup(of: Result<String, GestureRegistryError>.self) { group in
            for index in 0..<5000 {
                group.addTask {
                    let name = "claimer-\(index)"
                    do throws(GestureRegistryError) {
                        keeper.keep(try registry.claim(owner: name))
                        return .success(name)
                    } catch {
                        return .failure(error)
                    }
                }
            }
            var results: [Result<String, GestureRegistryError>] = []
            for await result in group { results.append(result) }
            return results
        }
        let winners = results.compactMap { try? $0.get() }
        #expect(results.count == 5000)
        #expect(winners.count == 1)
        let winner = winners.first ?? "no winner"
        #expect(registry.currentOwner == winner)
        for result in results {
            if case .failure(let error) = result {
                #expect(error == .alreadyOwned(by: winner))
            }
        }
    }

    @Test func claimsAndReleasesFromFiveThousandTasksNeverOverlap() async {
        let registry = GestureRegistry()
        let counter = HolderCounter()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<5000 {
                group.addTask {
                    for attempt in 0..<4 {
                        do throws(GestureRegistryError) {
                            let token = try registry.claim(owner: "claimer-\(index)-\(attempt)")
                            counter.enter()
                            for _ in 0..<200 { _ = counter.mostAtOnce }  // hold it a little while
                            counter.leave()
                            registry.release(token)
                        } catch {
                            #expect(error.description.contains("already owned by 'claimer-"))
                        }
                    }
                }
            }
        }
        #expect(counter.mostAtOnce == 1)
        #expect(counter.wins.load(ordering: .relaxed) >= 1)
        #expect(registry.currentOwner == nil)
    }

    @Test func secondClaimFailsNamingTheOwner() throws {
        let registry = GestureRegistry()
        let editor = try registry.claim(owner: "editor")
        #expect(throws: GestureRegistryError.alreadyOwned(by: "editor")) {
            _ = try registry.claim(owner: "map-screen")
        }
        #expect(GestureRegistryError.alreadyOwned(by: "editor").description.contains("'editor'"))
        #expect(registry.currentOwner == "editor")
        #expect(editor.owner == "editor")
        let result1 = registry.release(editor)
        #expect(result1)
    }

    @Test func releaseFreesTheGesture() throws {
        let registry = GestureRegistry()
        let editor = try registry.claim(owner: "editor")
        let result2 = registry.release(editor)
        #expect(result2)
        #expect(registry.currentOwner == nil)
        let map = try registry.claim(owner: "map-screen")
        #expect(registry.currentOwner == "map-screen")
        registry.release(map)
    }

    @Test func droppingTheTokenReleasesTheGesture() throws {
        let registry = GestureRegistry()
        do {
            let editor = try registry.claim(owner: "editor")
            let result3 = registry.isCurrent(editor)
            #expect(result3)
        }
        #expect(registry.currentOwner == nil)
    }

    @Test func transferHandsOverWithoutAGap() throws {
        let registry = GestureRegistry()
        let editor = try registry.claim(owner: "editor")
        let viewer = try registry.transfer(editor, to: "viewer")
        // `editor` is consumed: the compiler refuses any further use of it. Its end must not
        // release the gesture the viewer now holds.
        #expect(registry.currentOwner == "viewer")
        let result4 = registry.isCurrent(viewer)
        #expect(result4)
        #expect(throws: GestureRegistryError.alreadyOwned(by: "viewer")) {
            _ = try registry.claim(owner: "editor")
        }
        let result5 = registry.release(viewer)
        #expect(result5)
        #expect(registry.currentOwner == nil)
    }

    @Test func staleTokenAfterResetDoesNothing() throws {
        let registry = GestureRegistry()
        let editor = try registry.claim(owner: "editor")
        #expect(registry.reset() == "editor")
        let result6 = registry.isCurrent(editor)
        #expect(!result6)
        let map = try registry.claim(owner: "map-screen")
        let result7 = registry.release(editor)
        #expect(result7 == false)
        #expect(registry.currentOwner == "map-screen")

        let secondStale = try registry.transfer(map, to: "settings")  // legitimately moves on
        #expect(registry.reset() == "settings")
        let camera = try registry.claim(owner: "camera")
        do throws(GestureRegistryError) {
            _ = try registry.transfer(secondStale, to: "intruder")
            Issue.record("a stale token was transferred")
        } catch {
            #expect(error == .staleOwnership(owner: "settings"))
        }
        #expect(registry.currentOwner == "camera")
        let result8 = registry.isCurrent(camera)
        #expect(result8)
        #expect(registry.reset() == "camera")
        #expect(registry.reset() == nil)
    }

    @Test func tokenOfAnotherRegistryDoesNothing() throws {
        let first = GestureRegistry()
        let second = GestureRegistry()
        let editor = try first.claim(owner: "editor")
        let viewer = try second.claim(owner: "viewer")
        let result9 = second.isCurrent(editor)
        #expect(!result9)
        let result10 = second.release(editor)
        #expect(result10 == false)
        #expect(second.currentOwner == "viewer")
        #expect(first.currentOwner == nil)  // `editor` was consumed by the failed release: dropped
        second.release(viewer)
    }
}
