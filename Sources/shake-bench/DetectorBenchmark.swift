#if canImport(Glibc)
import Glibc
#endif
import ShakeDetection

/// Synthetic accelerometer signal in memory, the same shape as the C reference
/// (`Scripts/bench-helpers/ref_pipeline.c`): 100 Hz; every seventh block of 1000 samples
/// (10 s) is a 5 Hz shake of amplitude 25 m/s² on x (and 0.3 of it on y); otherwise x carries
/// ±0.5 m/s² of noise and z carries gravity, 9.81 m/s² ±0.5. Stored flat as `Float` triples
/// (x, y, z), 12 bytes per sample, exactly as the reference stores it.
struct SyntheticSignal {
    /// Sampling rate, Hz.
    static let rateHertz = 100.0

    let count: Int
    let values: [Float]

    init(count: Int) {
        self.count = count
        values = [Float](unsafeUninitializedCapacity: 3 * count) { buffer, initialized in
            var random: UInt32 = 1
            for i in 0..<count {
                let time = Double(i) / Self.rateHertz
                let shaking = (i / 1000) % 7 == 3
                let shake = shaking ? 25 * sin(2 * Double.pi * 5 * time) : 0
                random = random &* 1_103_515_245 &+ 12345
                buffer[3 * i] = Float(shake + Double((random >> 16) & 1023) / 1024 - 0.5)
                buffer[3 * i + 1] = Float(0.3 * shake)
                buffer[3 * i + 2] = Float(9.81 + Double((random >> 8) & 255) / 256 - 0.5)
            }
            initialized = 3 * count
        }
    }
}

extension Benchmark {
    /// Throughput of `ShakeDetector.process` with the default configuration: every sample of
    /// `signal` becomes a `Sample` (time = index / 100 Hz) and goes through a fresh detector.
    static func detector(_ signal: SyntheticSignal) -> Benchmark {
        Benchmark(
            name: "detector",
            summary: "ShakeDetector(configuration: .default).process on \(signal.count) in-memory samples",
            unit: "samples", work: signal.count
        ) {
            var detector = ShakeDetector(configuration: .default)
            var events = 0
            var shakes = 0
            let period = 1 / SyntheticSignal.rateHertz
            signal.values.withUnsafeBufferPointer { values in
                for i in 0..<signal.count {
                    let sample = Sample(time: Double(i) * period, x: Double(values[3 * i]),
                                        y: Double(values[3 * i + 1]), z: Double(values[3 * i + 2]))
                    if let event = detector.process(sample) {
                        events += 1
                        if event.phase == .began { shakes += 1 }
                    }
                }
            }
            return RunOutput(samples: signal.count, events: events, shakes: shakes, checksum: 0)
        }
    }
}
