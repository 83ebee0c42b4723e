import Foundation
import ShakeCLI
import Synchronization

/// Runs `shake` in process and captures what it prints.
struct CLIRun {
    var status: Int32
    var out: String
    var err: String
}

func runShake(_ arguments: String..., errIsTerminal: Bool = false) -> CLIRun {
    runShake(arguments, errIsTerminal: errIsTerminal)
}

func runShake(_ arguments: [String], errIsTerminal: Bool = false) -> CLIRun {
    let out = Mutex("")
    let err = Mutex("")
    let io = CommandIO(out: { text in out.withLock { $0 += text } },
                       err: { text in err.withLock { $0 += text } },
                       errIsTerminal: errIsTerminal)
    let status = ShakeTool.main(arguments: arguments, io: io)
    return CLIRun(status: status, out: out.withLock { $0 }, err: err.withLock { $0 })
}

/// A fresh temporary folder, removed by the caller with `cleanUp()`.
struct TemporaryFolder {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "shakekit-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func file(_ name: String) -> String { path + "/" + name }
    func write(_ name: String, _ text: String) throws -> String {
        let target = file(name)
        try text.write(toFile: target, atomically: true, encoding: .utf8)
        return target
    }
    func cleanUp() { try? FileManager.default.removeItem(atPath: path) }
}

/// The repository's root folder, from this file's path.
let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// A labelled canonical CSV: rest, then `shakes` sinusoidal shakes of 4 Hz and 3 g along x,
/// each `shakeSeconds` long, separated by 3 s of rest, sampled at `rate` Hz.
func labelledShakeCSV(shakes: Int, rate: Double = 100, shakeSeconds: Double = 1.5,
                      restSeconds: Double = 3) -> (text: String, runStarts: [Double]) {
    var text = "# source: test\ntime_s,x,y,z,shake\n"
    var time = 0.0
    var runStarts: [Double] = []
    let dt = 1 / rate
    func rest(_ seconds: Double) {
        let end = time + seconds
        while time < end - dt / 2 {
            text += String(format: "%.6f,0.10000,0.20000,9.80665,0\n", time)
            time += dt
        }
    }
    rest(restSeconds)
    for _ in 0..<shakes {
        let start = time
        runStarts.append(start)
        let end = time + shakeSeconds
        while time < end - dt / 2 {
            let a = 3 * 9.80665 * sin(2 * Double.pi * 4 * (time - start))
            text += String(format: "%.6f,%.5f,0.20000,9.80665,1\n", time, a)
            time += dt
        }
        rest(restSeconds)
    }
    return (text, runStarts)
}
