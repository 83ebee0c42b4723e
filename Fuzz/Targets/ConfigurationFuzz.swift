// libFuzzer target: the JSON configuration loader on arbitrary bytes.
//
// Decoding must give a valid configuration or a ConfigurationFileError naming the file (and,
// when it gives a place, one inside the text), never crash. A configuration that decodes must encode and decode back to itself, and a detector built
// from it must survive a short shake-like stream.
import Foundation
import ShakeDetection
import ShakeRecording

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    let name = "fuzz.json"
    let configuration: ShakeConfiguration
    do {
        configuration = try ConfigurationFile.decode(bytes, path: name)
    } catch {
        let prefix = error.line > 0 ? "\(name):\(error.line):\(error.column): " : name + ": "
        guard error.path == name, error.kind == .malformed, error.description.hasPrefix(prefix) else {
            fatalError("error does not name the file: \(error)")
        }
        let lines = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        guard error.line <= lines, (error.line == 0) == (error.column == 0), error.column >= 0 else {
            fatalError("error places the problem outside the text (\(lines) lines): \(error)")
        }
        return 0
    }
    do {
        try configuration.validate()
    } catch {
        fatalError("decode gave an invalid configuration: \(error)")
    }
    let again: ShakeConfiguration
    do {
        again = try ConfigurationFile.decode(ConfigurationFile.encode(configuration), path: name)
    } catch {
        fatalError("a valid configuration does not read back: \(error)")
    }
    guard again == configuration else { fatalError("round trip changed \(configuration) to \(again)") }
    var detector = ShakeDetector(configuration: configuration)
    var shaking = false
    for i in 0..<400 {
        let t = Double(i) / 100
        let a = 30 * (i / 12 % 2 == 0 ? 1.0 : -1.0)
        if let event = detector.process(Sample(time: t, x: a, y: 0.1, z: 9.8)) {
            guard event.time.isFinite, event.peakAcceleration.isFinite else { fatalError("non-finite event \(event)") }
            switch event.phase {
            case .began: if shaking { fatalError("began twice") }; shaking = true
            case .ended, .cancelled: if !shaking { fatalError("end without began") }; shaking = false
            }
        }
    }
    return 0
}
