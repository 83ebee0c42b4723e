import Foundation
import Testing

/// A device maker's package that depends only on `ShakeDetection` builds, links and runs on a
/// machine without libiio, and SwiftPM says nothing about libiio while building it.
@Suite struct LinkWithoutLibIIOTests {
    static let manifest = """
        // swift-tools-version: 6.0
        import PackageDescription
        let package = Package(
            name: "Kiosk",
            dependencies: [.package(path: "REPOSITORY")],
            targets: [.executableTarget(name: "Kiosk", dependencies: [
                .product(name: "ShakeDetection", package: "IDENTITY")])]
        )
        """

    /// Two seconds of a 4 Hz shake (a triangle wave of ±25 m/s² along x) between rests, at 100 Hz.
    static let program = """
        import ShakeDetection

        var detector = ShakeDetector()
        var events = 0
        for i in 0..<400 {
            let t = Double(i) / 100
            let phase = (t * 4).truncatingRemainder(dividingBy: 1)
            let x = t >= 1 && t < 3 ? 25 * (phase < 0.5 ? 4 * phase - 1 : 3 - 4 * phase) : 0
            if let event = detector.process(Sample(time: t, x: x, y: 0, z: 9.81)) {
                print(event.phase)
                events += 1
            }
        }
        print("events: \\(events)")
        """

    /// In a private mount namespace, libiio's header, pkg-config file and shared library (the
    /// regular files of Debian's libiio-dev and libiio0) are hidden under /dev/null; the script
    /// checks that they are (a header and a library among them: when dpkg lists neither, as
    /// under other package names, nothing was hidden and the build proves nothing), then builds
    /// and runs the package. Needs root and `unshare`, as the IIO emulator tests do. Not root: a
    /// failure saying so, unless SHAKEKIT_SKIP_ROOT=1 asks to skip.
    static let script = """
        set -e
        header=0 library=0
        for f in $(dpkg -L libiio-dev libiio0 2>/dev/null); do
            case "$f" in
            *.h|*.pc|*.so|*.so.*) if [ -f "$f" ] && [ ! -L "$f" ]; then
                mount --bind /dev/null "$f"
                case "$f" in *.h) header=1 ;; *.so|*.so.*) library=1 ;; esac
            fi ;;
            esac
        done
        if [ $header = 0 ] || [ $library = 0 ]; then
            echo "found no libiio header or library to hide (dpkg -L libiio-dev libiio0)"; exit 98
        fi
        if [ -s /usr/include/iio.h ] || pkg-config --exists libiio 2>/dev/null; then
            echo "libiio is still visible"; exit 99
        fi
        swift build --package-path "$1" --scratch-path "$2" > "$3" 2>&1
        "$2/debug/Kiosk"
        """

    @Test(.disabled(if: skipRootTestsRequested, "SHAKEKIT_SKIP_ROOT=1"))
    func aPackageUsingOnlyShakeDetectionBuildsWithoutLibIIO() throws {
        guard runningAsRoot else {
            Issue.record("hiding libiio in a mount namespace needs root: run the tests as root (CI does), or set SHAKEKIT_SKIP_ROOT=1 to skip")
            return
        }
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let identity = URL(fileURLWithPath: repositoryRoot).lastPathComponent
        try FileManager.default.createDirectory(atPath: folder.file("Kiosk/Sources/Kiosk"),
                                                withIntermediateDirectories: true)
        _ = try folder.write("Kiosk/Package.swift", Self.manifest
            .replacingOccurrences(of: "REPOSITORY", with: repositoryRoot)
            .replacingOccurrences(of: "IDENTITY", with: identity))
        _ = try folder.write("Kiosk/Sources/Kiosk/main.swift", Self.program)

        let run = try runProcess("/usr/bin/unshare", [
            "--mount", "--propagation", "private", "--fork", "/bin/sh", "-c", Self.script, "sh",
            folder.file("Kiosk"), folder.file("build"), folder.file("build.log")])
        let log = (try? String(contentsOfFile: folder.file("build.log"), encoding: .utf8)) ?? ""
        #expect(run.status == 0, "\(run.out)\(run.err)\n\(log)")
        #expect(run.out == "began\nended\nevents: 2\n", "\(run.out)\(run.err)")
        #expect(log.contains("Build complete!"), "\(log)")
        // Not even a warning: SwiftPM used to suggest installing libiio-dev, twice.
        #expect(!log.lowercased().contains("iio"), "\(log)")
        #expect(!log.contains("warning:"), "\(log)")
    }
}
