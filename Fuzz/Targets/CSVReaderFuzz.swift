// libFuzzer target: the streaming CSV reader on arbitrary bytes.
//
// The first input byte chooses the options (separator, decimal comma, header or not, labels
// ignored and rows without acceleration skipped, time rebased, units, a small line limit); the
// rest is the file. The reader must end
// (nil or a RecordingError) without crashing, every sample it returns must be finite and within
// `maximumAcceleration`, and every error must name the file.
import ShakeDetection
import ShakeRecording

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let selector = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var options = CSVImportOptions.canonical
    switch selector & 0b11 {
    case 0: options.separator = .auto
    case 1: options.separator = .comma
    case 2:
        options.separator = .semicolon
        if selector & 0b100 != 0 { options.decimalSeparator = .comma }
    default:
        options.separator = .tab
        if selector & 0b100 != 0 { options.decimalSeparator = .comma }
    }
    if selector & 0b1000 != 0 { options.hasHeader = false }
    if selector & 0b1_0000 != 0 {
        options.ignoresLabels = true
        options.skipsRowsWithoutAcceleration = true
    }
    if selector & 0b10_0000 != 0 { options.rebasesTime = true }
    if selector & 0b100_0000 != 0 {
        options.timeUnit = .milliseconds
        options.accelerationUnit = .g
    }
    // Inputs are at most 4096 bytes (Scripts/fuzz passes -max_len=4096), so an 8 KiB line limit
    // behaves like the default 1 MiB one while each reader allocates 160 times less (ASan zeroes
    // and poisons every allocation: with 1 MiB the target ran ~100 inputs/s).
    options.maximumLineBytes = selector & 0b1000_0000 != 0 ? 64 : 8192
    let name = "fuzz.csv"
    do {
        var reader = try RecordingReader(bytes: bytes, name: name, options: options)
        var previousTime = -Double.infinity
        while let labeled = try reader.next() {
            let s = labeled.sample
            guard s.time.isFinite, s.x.isFinite, s.y.isFinite, s.z.isFinite else {
                fatalError("non-finite sample \(s)")
            }
            let limit = options.maximumAcceleration
            guard abs(s.x) <= limit, abs(s.y) <= limit, abs(s.z) <= limit else {
                fatalError("sample beyond maximumAcceleration: \(s)")
            }
            guard s.time >= previousTime else { fatalError("time went backwards: \(s.time) after \(previousTime)") }
            previousTime = s.time
            if options.ignoresLabels && labeled.isShake != nil { fatalError("label returned although ignored") }
        }
    } catch {
        guard error.path == name, error.description.hasPrefix(name) else {
            fatalError("error does not name the file: \(error)")
        }
    }
    return 0
}
