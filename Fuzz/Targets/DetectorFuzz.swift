// libFuzzer target: ShakeDetector fed arbitrary sample streams.
//
// Input: byte 0 picks the preset; then records, each starting with an op byte:
//   0: a raw sample, 32 bytes = (dt, x, y, z) as little-endian Doubles (NaN, ±infinity, negative dt,
//      1e308 all possible), time advanced by dt;
//   1: a quantised sample, 7 bytes: dt = UInt8 ms, x, y, z = Int16 / 100 m/s²;
//   2: a burst of 1...64 samples of a sine (amplitude, frequency, axis, sample interval from 4
//      bytes), so shakes are reachable;
//   3: interrupt(at:) the current time; 4: reset(); 5: `time = -time` (time jumps backwards).
// Invariants checked after every call: began only when no shake is in progress, ended and
// cancelled only when one is (so at most one began per ended/cancelled); `isShaking` agrees;
// event times, peak and interval finite; a cancellation reason exactly on cancelled events;
// reversals ≥ 0; the emitted time is the sample's (or interruption's) time, except that a
// cancellation for a clock reset (`.timeWentBackwards`) is timed at the last sample before the
// jump, after the sample that caused it. A twin detector fed
// the same samples through process(_:explanation:) emits the same events, and what it explains
// is sane (finite, ordered times; a refusal only for a chain of minimumHalfWaves or more; a
// began report exactly with a began event).
// Every sample also goes through a BatchTimeSpreader (a stream with dt = 0 or tiny dts is a
// batched one): a time that is not finite, or goes backwards, comes back as given (one more than
// clockResetSeconds back starts a new stream, judged from there); any other comes back finite and not
// before the time it returned last, with the axes untouched; and a third
// detector fed the spread samples keeps the same event invariants.
import ShakeDetection

struct SpreadCheck {
    var spreader = BatchTimeSpreader()
    var lastGiven: Double?
    var lastReturned: Double?

    mutating func spread(_ sample: Sample) -> Sample {
        let out = spreader.spread(sample)
        guard out.x.bitPattern == sample.x.bitPattern, out.y.bitPattern == sample.y.bitPattern,
              out.z.bitPattern == sample.z.bitPattern
        else { fatalError("the spreader changed an axis: \(sample) → \(out)") }
        let given = sample.time
        // A clock reset (back by more than the gap limit) starts a new stream: returned as given,
        // and the next times are judged against it, not against the old stream's.
        if given.isFinite, let lastGiven, given < lastGiven - BatchTimeSpreader.clockResetSeconds {
            guard out.time.bitPattern == given.bitPattern else {
                fatalError("a clock reset's time was changed: \(given) → \(out.time)")
            }
            self.lastGiven = given
            lastReturned = given
            return out
        }
        if !given.isFinite || (lastGiven.map { given < $0 } ?? false) {
            guard out.time.bitPattern == given.bitPattern else {
                fatalError("a time not finite or going backwards was changed: \(given) → \(out.time)")
            }
            return out
        }
        guard out.time.isFinite else { fatalError("spread \(given) to \(out.time)") }
        if let lastReturned, out.time < lastReturned {
            fatalError("spread time \(out.time) (given \(given)) before the last returned, \(lastReturned)")
        }
        lastGiven = given
        lastReturned = out.time
        return out
    }
}

struct ByteReader {
    let data: UnsafePointer<UInt8>
    let size: Int
    var index = 0
    mutating func byte() -> UInt8? {
        guard index < size else { return nil }
        defer { index += 1 }
        return data[index]
    }
    mutating func uint64() -> UInt64? {
        guard index + 8 <= size else { return nil }
        var value: UInt64 = 0
        for k in 0..<8 { value |= UInt64(data[index + k]) << (8 * UInt64(k)) }
        index += 8
        return value
    }
    mutating func double() -> Double? { uint64().map(Double.init(bitPattern:)) }
    mutating func int16() -> Int16? {
        guard let lo = byte(), let hi = byte() else { return nil }
        return Int16(bitPattern: UInt16(lo) | UInt16(hi) << 8)
    }
}

struct Checker {
    var detector: ShakeDetector
    var explaining: ShakeDetector
    var shaking = false
    var time = 0.0

    init(detector: ShakeDetector) {
        self.detector = detector
        explaining = detector
    }

    mutating func feed(_ sample: Sample) {
        let event = detector.process(sample)
        var explanation = ShakeExplanation()
        let twin = explaining.process(sample, explanation: &explanation)
        guard twin == event else { fatalError("explaining changed the event: \(String(describing: twin)) for \(String(describing: event))") }
        if let halfWave = explanation.halfWave {
            guard halfWave.startTime.isFinite, halfWave.peakTime.isFinite, halfWave.peakAcceleration.isFinite,
                  halfWave.peakAcceleration >= 0, halfWave.chainHalfWaves >= 1
            else { fatalError("bad half-wave \(halfWave)") }
        }
        guard (explanation.began != nil) == (event?.phase == .began) else {
            fatalError("a began report \(String(describing: explanation.began)) with event \(String(describing: event))")
        }
        if let began = explanation.began {
            guard began.time == sample.time, began.chainHalfWaves >= detector.configuration.minimumHalfWaves,
                  began.linearity <= detector.configuration.maximumLinearity
            else { fatalError("bad began report \(began)") }
        }
        if let refusal = explanation.refusal {
            guard refusal.time == sample.time, refusal.chainStartTime <= refusal.time,
                  refusal.chainHalfWaves >= detector.configuration.minimumHalfWaves
            else { fatalError("bad refusal \(refusal) at \(sample.time)") }
        }
        check(event, at: sample.time)
    }

    mutating func check(_ event: ShakeEvent?, at time: Double, interrupted: Bool = false) {
        if let event {
            if interrupted {
                // Timed at `time`, or at the last sample when `time` is before it (or not
                // finite): never before the shake's own last activity.
                guard event.time >= event.endTime, !time.isFinite || event.time >= time else {
                    fatalError("interrupt's event at \(event.time), input at \(time), shake's end \(event.endTime)")
                }
            } else if event.cancellationReason == .timeWentBackwards {
                // A clock reset: timed at the last sample before the jump, on its shake's clock.
                guard event.time > time, event.time >= event.endTime else {
                    fatalError("clock-reset cancellation at \(event.time), input at \(time)")
                }
            } else if time.isFinite {
                guard event.time == time else { fatalError("event at \(event.time), input at \(time)") }
            }
            guard event.time.isFinite, event.startTime.isFinite, event.endTime.isFinite,
                  event.peakAcceleration.isFinite, event.peakAcceleration >= 0, event.reversals >= 0
            else { fatalError("bad event values \(event)") }
            guard (event.phase == .cancelled) == (event.cancellationReason != nil) else {
                fatalError("cancellation reason on the wrong phase \(event)")
            }
            switch event.phase {
            case .began:
                guard !shaking else { fatalError("began while a shake is in progress \(event)") }
                guard event.startTime <= event.endTime, event.endTime <= event.time else {
                    fatalError("began with times out of order \(event)")
                }
                shaking = true
            case .ended:
                guard shaking else { fatalError("ended without began \(event)") }
                guard event.startTime <= event.endTime, event.endTime <= event.time else {
                    fatalError("ended with times out of order \(event)")
                }
                shaking = false
            case .cancelled:
                guard shaking else { fatalError("cancelled without began \(event)") }
                shaking = false
            }
        }
        guard detector.isShaking == shaking else { fatalError("isShaking \(detector.isShaking), events say \(shaking)") }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = ByteReader(data: data, size: size)
    guard let presetByte = input.byte() else { return 0 }
    let presets: [ShakeConfiguration] = [.light, .medium, .hard]
    var checker = Checker(detector: ShakeDetector(configuration: presets[Int(presetByte) % 3]))
    var spreading = SpreadCheck()
    var spreadChecker = Checker(detector: ShakeDetector(configuration: presets[Int(presetByte) % 3]))
    func feed(_ sample: Sample) {
        checker.feed(sample)
        spreadChecker.feed(spreading.spread(sample))
    }
    while let op = input.byte() {
        switch op % 6 {
        case 0:
            guard let dt = input.double(), let x = input.double(), let y = input.double(), let z = input.double() else { return 0 }
            let t = checker.time + dt
            if t.isFinite { checker.time = t }
            feed(Sample(time: t, x: x, y: y, z: z))
        case 1:
            guard let dt = input.byte(), let x = input.int16(), let y = input.int16(), let z = input.int16() else { return 0 }
            checker.time += Double(dt) / 1000
            feed(Sample(time: checker.time, x: Double(x) / 100, y: Double(y) / 100, z: 9.80665 + Double(z) / 100))
        case 2:
            guard let a = input.byte(), let f = input.byte(), let axisAndCount = input.byte(), let dt = input.byte() else { return 0 }
            let amplitude = Double(a) / 4          // 0 to 64 m/s²
            let hertz = 0.5 + Double(f) / 16       // 0.5 to 16 Hz
            let interval = 0.001 + Double(dt) / 2000  // 1 to 128 ms
            let axis = Int(axisAndCount % 3)
            let count = 1 + Int(axisAndCount / 4)
            let start = checker.time
            for _ in 0..<count {
                checker.time += interval
                let v = amplitude * sin(2 * Double.pi * hertz * (checker.time - start))
                feed(Sample(time: checker.time, x: axis == 0 ? v : 0.1,
                            y: axis == 1 ? v : 0.2, z: 9.80665 + (axis == 2 ? v : 0)))
            }
        case 3:
            let twin = checker.explaining.interrupt(at: checker.time)
            let event = checker.detector.interrupt(at: checker.time)
            guard twin == event else { fatalError("twins differ on interrupt") }
            checker.check(event, at: checker.time, interrupted: true)
            guard !checker.detector.isShaking else { fatalError("still shaking after interrupt") }
            let spreadTwin = spreadChecker.explaining.interrupt(at: checker.time)
            let spreadEvent = spreadChecker.detector.interrupt(at: checker.time)
            guard spreadTwin == spreadEvent else { fatalError("spread: twins differ on interrupt") }
            spreadChecker.check(spreadEvent, at: checker.time, interrupted: true)
            guard !spreadChecker.detector.isShaking else { fatalError("spread: still shaking after interrupt") }
        case 4:
            checker.detector.reset()
            checker.explaining.reset()
            checker.shaking = false
            guard !checker.detector.isShaking else { fatalError("still shaking after reset") }
            spreadChecker.detector.reset()
            spreadChecker.explaining.reset()
            spreadChecker.shaking = false
        default:
            checker.time = -checker.time
        }
    }
    return 0
}


/// sin without Foundation (ShakeDetection is Foundation-free, and so is this target):
/// a Taylor series after range reduction, accurate to ~1e-12, enough to make a shake.
func sin(_ x: Double) -> Double {
    var r = x.truncatingRemainder(dividingBy: 2 * Double.pi)
    if r > Double.pi { r -= 2 * Double.pi } else if r < -Double.pi { r += 2 * Double.pi }
    var term = r, sum = r
    for n in 1...12 {
        term *= -r * r / Double((2 * n) * (2 * n + 1))
        sum += term
    }
    return sum
}
