import Foundation
import Testing

/// How many of this process's file descriptors are open on a file named `name` (from
/// /proc/self/fd): to check that a reader's threads closed their file.
func openDescriptorCount(on name: String) -> Int {
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return descriptors.filter {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0))?
            .hasSuffix("/" + name) == true
    }.count
}

/// Expects every descriptor on `name` to be closed within 2 s (parsing threads close it as they
/// finish, after the reader that started them is gone).
func expectClosedSoon(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    var waited = 0
    while openDescriptorCount(on: name) > 0 && waited < 100 {
        try await Task.sleep(for: .milliseconds(20))
        waited += 1
    }
    #expect(openDescriptorCount(on: name) == 0, "a parsing thread still holds \(name) open",
            sourceLocation: sourceLocation)
}
