// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ShakeKit",
    products: [
        // Pure Swift: no Foundation, no C, no I/O. Builds without libiio.
        .library(name: "ShakeDetection", targets: ["ShakeDetection"]),
        // CSV recordings, synthesizer, evaluation, JSON configuration files.
        .library(name: "ShakeRecording", targets: ["ShakeRecording"]),
        // Undo stack, shake dispatcher, single-owner gesture registry, feedback. No Foundation.
        .library(name: "ShakeUndo", targets: ["ShakeUndo"]),
        // Live samples from Linux IIO accelerometers through libiio 0.24.
        .library(name: "ShakeIIO", targets: ["ShakeIIO"]),
        .executable(name: "shake", targets: ["shake"]),
        .executable(name: "shake-bench", targets: ["shake-bench"]),
    ],
    targets: [
        .target(
            name: "ShakeDetection",
            // `Double.squareRoot()` may lower to libm's `sqrt`; link it so that a program using only
            // ShakeDetection (no Foundation) links on Linux.
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // Named pthreads and a condition variable for ShakeIIO's readers and ShakeRecording's
        // read-ahead (Foundation's Thread and NSCondition would bring ICU into static programs).
        // Not a product: it is linked into those two.
        .target(name: "ShakeThreads"),
        .target(name: "ShakeRecording", dependencies: ["ShakeDetection", "ShakeThreads"]),
        .target(name: "ShakeUndo", dependencies: ["ShakeDetection"]),
        // libiio 0.24 (Debian's libiio-dev, which Scripts/bootstrap installs): <iio.h> and -liio
        // from the default search paths (Debian's libiio.pc adds nothing to them). No `pkgConfig`:
        // SwiftPM would query it, and warn when it is missing, even for a package that uses only
        // ShakeDetection and never builds this target.
        .systemLibrary(name: "CLibIIO"),
        .target(name: "ShakeIIO", dependencies: ["CLibIIO", "ShakeDetection", "ShakeThreads"]),
        .target(name: "ShakeCLI", dependencies: ["ShakeDetection", "ShakeRecording", "ShakeUndo", "ShakeIIO", "ShakeThreads"]),
        .executableTarget(name: "shake", dependencies: ["ShakeCLI"]),
        // Release-built benchmarks (Scripts/bench runs them next to their anchors).
        .executableTarget(name: "shake-bench", dependencies: ["ShakeDetection", "ShakeRecording"]),
        .testTarget(name: "ShakeDetectionTests", dependencies: ["ShakeDetection"]),
        .testTarget(name: "ShakeRecordingTests", dependencies: ["ShakeRecording", "ShakeThreads"]),
        .testTarget(name: "ShakeUndoTests", dependencies: ["ShakeUndo"]),
        .testTarget(name: "ShakeCLITests", dependencies: ["ShakeCLI"]),
        .testTarget(name: "ShakeIIOTests", dependencies: ["ShakeIIO", "ShakeDetection"]),
    ],
    swiftLanguageModes: [.v6]
)
