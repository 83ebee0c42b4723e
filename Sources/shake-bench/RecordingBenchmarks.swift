#if canImport(Glibc)
import Glibc
#endif
import ShakeDetection
import ShakeRecording

extension Benchmark {
    /// CSV ingest: `RecordingReader(path:).next()` until the end, bytes of the file per second.
    static func csv(path: String) throws -> Benchmark {
        Benchmark(name: "csv", summary: "RecordingReader(path:).next() over \(path)",
                  unit: "bytes", work: try fileSize(path)) {
            var reader = try RecordingReader(path: path)
            var samples = 0
            var checksum = 0.0
            while let row = try reader.next() {
                samples += 1
                checksum += row.sample.x
            }
            return RunOutput(samples: samples, events: 0, shakes: 0, checksum: checksum)
        }
    }

    /// Replay in process: the reader feeding a default detector, what `shake replay` does
    /// without process start-up and output.
    static func pipeline(path: String) throws -> Benchmark {
        Benchmark(name: "pipeline", summary: "RecordingReader into ShakeDetector.process over \(path)",
                  unit: "bytes", work: try fileSize(path)) {
            var reader = try RecordingReader(path: path)
            var detector = ShakeDetector(configuration: .default)
            var samples = 0
            var events = 0
            var shakes = 0
            while let row = try reader.next() {
                samples += 1
                if let event = detector.process(row.sample) {
                    events += 1
                    if event.phase == .began { shakes += 1 }
                }
            }
            return RunOutput(samples: samples, events: events, shakes: shakes, checksum: 0)
        }
    }

    /// The floor under any reader: `read(2)` of the file in 1 MiB chunks, counting newlines.
    static func read(path: String) throws -> Benchmark {
        Benchmark(name: "read", summary: "read(2) in 1 MiB chunks counting newlines in \(path)",
                  unit: "bytes", work: try fileSize(path)) {
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { throw BenchmarkError(description: "\(path): \(errorText())") }
            defer { close(descriptor) }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
            defer { buffer.deallocate() }
            var lines = 0
            while true {
                let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw BenchmarkError(description: "\(path): \(errorText())")
                }
                if count == 0 { break }
                for byte in buffer[..<count] where byte == UInt8(ascii: "\n") { lines += 1 }
            }
            return RunOutput(samples: lines, events: 0, shakes: 0, checksum: 0)
        }
    }
}

/// Size of the file at `path` in bytes.
func fileSize(_ path: String) throws -> Int {
    var status = stat()
    guard stat(path, &status) == 0 else { throw BenchmarkError(description: "\(path): \(errorText())") }
    return Int(status.st_size)
}

/// `strerror(errno)`.
func errorText() -> String { String(cString: strerror(errno)) }
