import ShakeDetection
import ShakeRecording
import Testing

/// Damaged copies of a valid recording: every one either reads or fails with an error that
/// points inside the input; none crashes or hangs.
@Suite struct CSVMutationTests {
    static let original = Array("""
        # source: test
        time_s,x,y,z,shake
        0.000000,0.03923,-0.50995,-10.47350,0
        0.019608,0.00000,-0.39227,-10.59118,1
        0.039216,1.5e-3,-0.43149,"-10.55196",0
        0.058824,-0.00001,+0.1,.5,1

        """.utf8)

    static let alphabet: [UInt8] = Array("0123456789.,;-+eE\"# \t\r\nnaNIf".utf8) + [0x00, 0xFF, 0xEF, 0xBB, 0xBF, 0xFE]

    @Test(arguments: 0 ..< 8)
    func damagedRecordingsFailCleanly(seed: Int) throws {
        var state = UInt64(seed + 1) &* 0x9E37_79B9_7F4A_7C15
        func random(_ n: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(n))
        }
        var outcomes = (read: 0, failed: 0)
        for _ in 0 ..< 500 {
            var bytes = Self.original
            for _ in 0 ..< 1 + random(4) {
                let at = random(bytes.count)
                switch random(3) {
                case 0: bytes[at] = Self.alphabet[random(Self.alphabet.count)]
                case 1: bytes.insert(Self.alphabet[random(Self.alphabet.count)], at: at)
                default: bytes.remove(at: at)
                }
            }
            let lines = bytes.count(where: { $0 == 0x0A }) + 1
            do {
                var reader = try RecordingReader(bytes: bytes, name: "m.csv")
                var previous = -Double.infinity
                while let row = try reader.next() {
                    // Whatever reads must satisfy the documented guarantees.
                    #expect(row.sample.time >= previous)
                    #expect(row.sample.x.magnitude <= 2000 && row.sample.y.magnitude <= 2000 && row.sample.z.magnitude <= 2000)
                    previous = row.sample.time
                }
                outcomes.read += 1
            } catch {
                #expect(error.path == "m.csv")
                #expect(error.line >= 0 && error.line <= lines, "\(error)")
                #expect(error.column >= 0 && error.column <= bytes.count + 1, "\(error)")
                #expect(!error.message.isEmpty)
                outcomes.failed += 1
            }
        }
        // Both outcomes occur: the damage is neither always harmless nor always fatal.
        #expect(outcomes.read > 0 && outcomes.failed > 0, "\(outcomes)")
    }
}
